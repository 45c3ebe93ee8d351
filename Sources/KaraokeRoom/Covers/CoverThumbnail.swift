import CGD
import Foundation

/// A song's cover (JPEG or PNG) scaled to a small JPEG for the remote's song list, by libgd
/// (decoding, resampling and encoding are all the library's).
enum CoverThumbnail {
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// Covers larger than this are not read (a cover is rarely over 1 MB).
    static let maxFileBytes = 8 * 1024 * 1024
    /// Pictures with more pixels are refused before decoding (libgd holds 4 bytes a pixel).
    static let maxPixels = 25_000_000

    /// The thumbnail of the image file at `path`, at most `side` pixels wide and high (aspect kept).
    static func jpeg(path: String, side: Int = 160, quality: Int32 = 80) throws -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Problem(description: "\(path): cannot open") }
        defer { try? handle.close() }
        let data = try handle.read(upToCount: maxFileBytes + 1) ?? Data()
        if data.count > maxFileBytes { throw Problem(description: "\(path): larger than \(maxFileBytes / 1_048_576) MB") }
        let bytes = [UInt8](data)
        guard let kind = ImageSize.kind(of: bytes) else { throw Problem(description: "\(path): not a JPEG or PNG image") }
        guard let size = ImageSize.of(bytes), size.width > 0, size.height > 0 else {
            throw Problem(description: "\(path): unreadable image header")
        }
        if size.width * size.height > maxPixels {
            throw Problem(description: "\(path): \(size.width)×\(size.height) pixels is too large for a cover")
        }
        let source: gdImagePtr? = bytes.withUnsafeBufferPointer { buffer in
            let raw = UnsafeMutableRawPointer(mutating: buffer.baseAddress!)
            return kind == .png ? gdImageCreateFromPngPtr(Int32(buffer.count), raw)
                : gdImageCreateFromJpegPtrEx(Int32(buffer.count), raw, 1)
        }
        guard let source else { throw Problem(description: "\(path): libgd cannot decode it") }
        defer { gdImageDestroy(source) }
        let width = Int(kar_gd_width(source)), height = Int(kar_gd_height(source))
        let scale = min(1, Double(side) / Double(max(width, height)))
        let outWidth = max(1, Int((Double(width) * scale).rounded())), outHeight = max(1, Int((Double(height) * scale).rounded()))
        guard let thumbnail = gdImageCreateTrueColor(Int32(outWidth), Int32(outHeight)) else {
            throw Problem(description: "\(path): out of memory for the thumbnail")
        }
        defer { gdImageDestroy(thumbnail) }
        gdImageCopyResampled(thumbnail, source, 0, 0, 0, 0, Int32(outWidth), Int32(outHeight), Int32(width), Int32(height))
        var length: Int32 = 0
        guard let encoded = gdImageJpegPtr(thumbnail, &length, quality), length > 0 else {
            throw Problem(description: "\(path): libgd cannot encode the thumbnail")
        }
        defer { gdFree(encoded) }
        return Data(bytes: encoded, count: Int(length))
    }
}
