import CQREncode
import Foundation

/// The room's join address as a QR code (Debian's libqrencode), drawn as SVG for the TV's
/// join screen: a guest points a phone camera at it and lands on the remote.
public enum JoinCode {
    public struct EncodingError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Modules (dark = true) of the QR symbol for `text`, row by row; error correction M (15 %),
    /// which survives a TV's glare and moiré.
    public static func modules(for text: String) throws(EncodingError) -> [[Bool]] {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
            throw EncodingError(description: "libqrencode could not encode \(text.utf8.count) bytes (errno \(errno))")
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = code.pointee.data!
        return (0..<width).map { y in (0..<width).map { x in data[y * width + x] & 1 == 1 } }
    }

    /// An SVG of the code with the 4-module quiet zone the standard asks for, dark on white, one
    /// path (one rectangle per run of dark modules), crisp at any size.
    public static func svg(for text: String) throws(EncodingError) -> String {
        let rows = try modules(for: text)
        let size = rows.count + 8
        var path = ""
        for (y, row) in rows.enumerated() {
            var x = 0
            while x < row.count {
                guard row[x] else { x += 1; continue }
                var run = 1
                while x + run < row.count, row[x + run] { run += 1 }
                path += "M\(x + 4) \(y + 4)h\(run)v1h-\(run)z"
                x += run
            }
        }
        let title = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(size) \(size)" shape-rendering="crispEdges">\
            <title>\(title)</title><rect width="\(size)" height="\(size)" fill="#fff"/>\
            <path fill="#000" d="\(path)"/></svg>

            """
    }

    /// Writes `join.svg` and `join.txt` (the address itself) into `directory`, which the server
    /// mounts at `/join.svg` and `/join.txt` (see `EventServerConfiguration.fileRoutes`).
    public static func write(url: String, to directory: String) throws {
        let folder = URL(fileURLWithPath: directory)
        try svg(for: url).write(to: folder.appendingPathComponent("join.svg"), atomically: true, encoding: .utf8)
        try (url + "\n").write(to: folder.appendingPathComponent("join.txt"), atomically: true, encoding: .utf8)
    }
}
