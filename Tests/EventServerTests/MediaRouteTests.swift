import EventServer
import Foundation
import KaraokeRoom
import Testing

@Suite("HTTP: byte ranges and the /media route")
struct MediaRouteTests {
    @Test func parsesSingleRangesAndRefusesTheRest() {
        #expect(ByteRange.parse(nil, fileSize: 100) == .whole)
        #expect(ByteRange.parse("bytes=0-", fileSize: 100) == .part(lower: 0, upper: 99))
        #expect(ByteRange.parse("bytes=10-19", fileSize: 100) == .part(lower: 10, upper: 19))
        #expect(ByteRange.parse("Bytes= 10 - 19 ", fileSize: 100) == .part(lower: 10, upper: 19))
        #expect(ByteRange.parse("bytes=90-500", fileSize: 100) == .part(lower: 90, upper: 99))
        #expect(ByteRange.parse("bytes=-30", fileSize: 100) == .part(lower: 70, upper: 99))
        #expect(ByteRange.parse("bytes=-300", fileSize: 100) == .part(lower: 0, upper: 99))
        for bad in ["bytes=100-", "bytes=20-10", "bytes=0-1,5-6", "bytes=-0", "bytes=-", "bytes=a-b", "bytes=+1-2",
                    "items=0-1", "bytes 0-1", "bytes=0x1-2", "bytes=99999999999999999999-", "", "bytes=" + String(repeating: "1", count: 300)] {
            #expect(ByteRange.parse(bad, fileSize: 100) == .unsatisfiable, "\(bad)")
        }
        #expect(ByteRange.parse("bytes=0-", fileSize: 0) == .unsatisfiable)
    }

    @Test func publishingKeepsTheNewestFilesAndTokensAreNotPaths() {
        let media = MediaFiles(capacity: 2)
        let a = media.publish(path: "/songs/a/video.mp4")
        #expect(a.hasPrefix("/media/") && a.hasSuffix(".mp4"))
        #expect(media.publish(path: "/songs/a/video.mp4") == a)
        let b = media.publish(path: "/songs/b/video.webm")
        _ = media.publish(path: "/songs/c/video.webm")
        #expect(media.file(forRequest: String(a.dropFirst(6))) == nil, "the oldest is dropped past capacity")
        #expect(media.file(forRequest: String(b.dropFirst(6)))?.mimeType == "video/webm")
        #expect(media.file(forRequest: "/../songs/b/video.webm") == nil)
        #expect(media.file(forRequest: "/") == nil)
    }

    @Test func servesRangesOfPublishedFilesOnly() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let file = room.root.appendingPathComponent("clip.mp4")
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(bytes).write(to: file)
        let url = room.server.media.publish(path: file.path)

        let whole = try RawHTTP.get(port: room.port, path: url)
        #expect(whole.status == 200)
        #expect(whole.headers["content-type"] == "video/mp4")
        #expect(whole.headers["accept-ranges"] == "bytes")
        #expect(whole.body.count == bytes.count && whole.body == bytes)

        let part = try RawHTTP.get(port: room.port, path: url, headers: ["Range: bytes=1000-1999"])
        #expect(part.status == 206)
        #expect(part.headers["content-range"] == "bytes 1000-1999/100000")
        #expect(part.headers["content-length"] == "1000")
        #expect(part.body.count == 1000 && part.body == Array(bytes[1000...1999]))

        let tail = try RawHTTP.get(port: room.port, path: url, headers: ["Range: bytes=-10"])
        #expect(tail.status == 206)
        #expect(tail.body == Array(bytes[99_990...]))

        for bad in ["bytes=0-1,4-5", "bytes=100000-", "bytes=x-y"] {
            let refused = try RawHTTP.get(port: room.port, path: url, headers: ["Range: \(bad)"])
            #expect(refused.status == 416, "\(bad)")
            #expect(refused.headers["content-range"] == "bytes */100000", "\(bad)")
            #expect(refused.body.isEmpty)
        }
        let head = try RawHTTP.get(port: room.port, path: url, headers: ["Range: bytes=0-9"], method: "HEAD")
        #expect(head.status == 206 && head.headers["content-range"] == "bytes 0-9/100000" && head.body.isEmpty)
        #expect(try RawHTTP.get(port: room.port, path: url, headers: ["Content-Length: 0"], method: "POST").status == 405)
        // Names that are not a published token reach nothing, the file's own path included.
        for path in ["/media/", "/media/deadbeef.mp4", "/media" + file.path, "/media/../secret.txt"] {
            #expect(try RawHTTP.get(port: room.port, path: path).status == 404, "\(path)")
        }
    }
}

extension MediaRouteTests {
    @Test func theRoomPublishesTheLoadedSongsVideoAndGraphics() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-media-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("clip.webm"), graphics = folder.appendingPathComponent("disc.cdg")
        try Data(repeating: 7, count: 5_000).write(to: video)
        try Data(repeating: 9, count: 2_400).write(to: graphics)
        var song = TestSong.make()
        song.metadata.videoGapSeconds = 1.25
        var entry = CatalogEntry(id: "test", song: song, error: nil, backingTrackPath: nil, duration: 12)
        entry.videoPath = video.path
        entry.cdgPath = graphics.path
        let room = try TestRoomServer(catalog: FixedSongCatalog([entry]))
        defer { room.stop() }
        let client = try WebSocketTestClient(port: room.port)
        defer { client.close() }
        let hello = try #require(try client.waitFor("hello"))
        let payload = try #require(hello["song"] as? [String: Any])
        let videoInfo = try #require(payload["video"] as? [String: Any])
        #expect(videoInfo["gap"] as? Double == 1.25)
        let videoURL = try #require(videoInfo["url"] as? String)
        let cdgURL = try #require(payload["cdg"] as? String)
        #expect(videoURL.hasPrefix("/media/") && videoURL.hasSuffix(".webm") && !videoURL.contains("clip"))
        let fetchedVideo = try RawHTTP.get(port: room.port, path: videoURL)
        #expect(fetchedVideo.status == 200 && fetchedVideo.body == [UInt8](repeating: 7, count: 5_000))
        #expect(fetchedVideo.headers["content-type"] == "video/webm")
        let fetchedGraphics = try RawHTTP.get(port: room.port, path: cdgURL, headers: ["Range: bytes=24-47"])
        #expect(fetchedGraphics.status == 206 && fetchedGraphics.body == [UInt8](repeating: 9, count: 24))
    }
}

/// One HTTP/1.1 request on a fresh socket (`Connection: close`), read to the end.
enum RawHTTP {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    static func get(port: Int, path: String, headers: [String] = [], method: String = "GET") throws -> Response {
        let (status, head, body) = try TestSocket.rawHTTP(port: port, path: path, method: method, headers: headers, limit: 10_000_000)
        var fields: [String: String] = [:]
        for line in head.components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: fields, body: Array(body))
    }
}
