import Foundation
@testable import KaraokeRoom
import Testing

@Suite("Cover thumbnails: sizes read before decoding, bombs and non-images refused, keys")
struct CoverThumbnailTests {
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-covers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A PNG signature and IHDR chunk claiming `width`×`height` (no pixel data follows).
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + Array("IHDR".utf8) + be(width) + be(height)
            + [8, 6, 0, 0, 0] + [0, 0, 0, 0]
    }

    @Test func sizesComeFromTheHeaders() {
        #expect(ImageSize.of(Self.pngHeader(width: 640, height: 480))! == (640, 480))
        // SOI, an APP0 segment of 16 bytes, then SOF0: length 17, precision 8, height 300, width 200.
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + [UInt8](repeating: 0, count: 14)
            + [0xFF, 0xC0, 0, 17, 8, 0x01, 0x2C, 0x00, 0xC8, 3] + [UInt8](repeating: 0, count: 9)
        #expect(ImageSize.of(jpeg)! == (200, 300))
        #expect(ImageSize.of(Array("GIF89a....".utf8)) == nil)
    }

    @Test func aDecompressionBombAndANonImageAreRefusedWithTheirReason() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bomb = folder.appendingPathComponent("cover.png")
        try Data(Self.pngHeader(width: 30_000, height: 30_000)).write(to: bomb)
        #expect {
            try CoverThumbnail.jpeg(path: bomb.path)
        } throws: { "\($0)".contains("30000×30000 pixels is too large") }
        let text = folder.appendingPathComponent("cover.jpg")
        try Data("<html>not a picture</html>".utf8).write(to: text)
        #expect {
            try CoverThumbnail.jpeg(path: text.path)
        } throws: { "\($0)".contains("not a JPEG or PNG") }
        let truncated = folder.appendingPathComponent("broken.png")
        try Data(Self.pngHeader(width: 100, height: 100)).write(to: truncated)
        #expect {
            try CoverThumbnail.jpeg(path: truncated.path)
        } throws: { "\($0)".contains("libgd cannot decode") }
    }

    @Test func aFailedCoverIsUnknownAndAChangedCoverGetsANewKey() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cover = folder.appendingPathComponent("cover.png")
        try Data(Self.pngHeader(width: 100, height: 100)).write(to: cover)
        let thumbnails = CoverThumbnails(directory: folder.appendingPathComponent("thumbs").path)
        let url = try #require(thumbnails.url(forCover: cover.path))
        let name = String(url.dropFirst("/cover/".count))
        #expect(url.hasPrefix("/cover/") && name.count == 20)
        // Made (and failing: no pixel data) off this thread; until then it is not ready.
        var answer = thumbnails.lookup(name)
        for _ in 0..<200 where answer == .notReady {
            Thread.sleep(forTimeInterval: 0.01)
            answer = thumbnails.lookup(name)
        }
        #expect(answer == .unknown)
        #expect(thumbnails.lookup("0123456789abcdef.jpg") == .unknown)
        #expect(thumbnails.lookup("../../etc/passwd") == .unknown)
        try Data(Self.pngHeader(width: 100, height: 101)).write(to: cover)
        #expect(thumbnails.url(forCover: cover.path) != url)
        #expect(thumbnails.url(forCover: folder.appendingPathComponent("gone.png").path) == nil)
    }
}
