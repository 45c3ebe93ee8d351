import EventServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite("HTTP: static files from public/")
struct HTTPServingTests {
    private func fetch(_ port: Int, _ path: String) async throws -> (Int, [String: String], String) {
        let url = URL(string: "http://127.0.0.1:\(port)\(path)")!
        let (data, response) = try await URLSession.shared.data(from: url)
        let http = response as! HTTPURLResponse
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields { headers[String(describing: key).lowercased()] = String(describing: value) }
        return (http.statusCode, headers, String(decoding: data, as: UTF8.self))
    }

    @Test func servesFilesWithTheirMimeTypes() async throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let expected = [
            "/": "text/html", "/js/app.js": "javascript", "/style.css": "text/css",
            "/site.webmanifest": "application/manifest+json", "/module.mjs": "text/javascript",
        ]
        for (path, type) in expected {
            let (status, headers, _) = try await fetch(room.port, path)
            #expect(status == 200, "\(path)")
            #expect(headers["content-type"]?.contains(type) == true, "\(path): \(headers["content-type"] ?? "none")")
        }
    }

    @Test func pageRoutesServeTheirPageAndSendCachingHeaders() async throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let (status, headers, body) = try await fetch(room.port, "/remote")
        #expect(status == 200)
        #expect(body.contains("<title>remote</title>"))
        #expect(headers["etag"] != nil)
        #expect(headers["cache-control"] != nil)
        #expect(headers["content-security-policy"]?.contains("script-src 'self'") == true)
        #expect(headers["content-security-policy"]?.contains("default-src 'none'") == true)
        #expect(headers["content-security-policy"]?.contains("media-src 'self'") == true)
        #expect(headers["x-content-type-options"] == "nosniff")
        #expect(headers["x-frame-options"] == "deny")
    }

    @Test func pathEscapesAndMissingFilesAre404() async throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        // The file exists one level above public/; none of these may reach it.
        for path in ["/../secret.txt", "/js/../../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt"] {
            let status = try TestSocket.rawHTTPStatus(port: room.port, path: path)
            #expect(status == 404 || status == 403 || status == 400, "\(path) gave \(status)")
        }
        #expect(try TestSocket.rawHTTPStatus(port: room.port, path: "/nope.html") == 404)
    }
}
