import EventServer
import Foundation
import Synchronization
import Testing

/// A source that knows two names; it records every name it is asked for.
private final class FakeSource: GeneratedFileSource {
    let file: String
    let asked = Mutex<[String]>([])
    init(file: String) { self.file = file }
    func lookup(_ name: String) -> GeneratedFileLookup {
        asked.withLock { $0.append(name) }
        switch name {
        case "ready.jpg": return .file(path: file, mimeType: "image/jpeg", maxAge: 60)
        case "later.jpg": return .notReady
        default: return .unknown
        }
    }
}

@Suite("HTTP: generated files (cover thumbnails) are served by name, never by path")
struct GeneratedRoutesTests {
    @Test func namesAnswerTheirFileOr503Or404AndPathsNeverReachTheFilesystem() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-gen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let thumbnail = folder.appendingPathComponent("made.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]).write(to: thumbnail)
        let source = FakeSource(file: thumbnail.path)
        let room = try TestRoomServer(generatedRoutes: ["/cover": source])
        defer { room.stop() }

        let (status, head, body) = try TestSocket.rawHTTP(port: room.port, path: "/cover/ready.jpg")
        #expect(status == 200)
        #expect(body == Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]))
        #expect(head.lowercased().contains("content-type: image/jpeg"))
        #expect(head.lowercased().contains("cache-control: public, max-age=60"))
        #expect(try TestSocket.rawHTTPStatus(port: room.port, path: "/cover/later.jpg") == 503)
        #expect(try TestSocket.rawHTTPStatus(port: room.port, path: "/cover/other.jpg") == 404)
        // The room's secret.txt sits above public/; the thumbnail's own folder is known to the source only.
        for path in ["/cover/../secret.txt", "/cover/%2e%2e/secret.txt", "/cover/..%2fsecret.txt", "/cover/x/ready.jpg",
                     "/cover/" + thumbnail.path, "/cover/%2fetc%2fpasswd", "/cover/made.jpg"] {
            let status = try TestSocket.rawHTTPStatus(port: room.port, path: path)
            #expect(status == 404 || status == 403 || status == 400, "\(path) gave \(status)")
        }
        #expect(source.asked.withLock { $0.allSatisfy { !$0.contains("/") } })
    }
}
