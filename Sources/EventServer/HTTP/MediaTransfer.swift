import CWebSockets
import Foundation

/// One `/media/…` response in flight: a published file (or one byte range of it) sent in
/// chunks as the socket drains, so a video never sits in memory and a slow phone only holds
/// its own descriptor. Service-thread only.
final class MediaTransfer {
    private let descriptor: Int32
    private var offset: Int
    /// One past the last byte to send.
    private let end: Int

    private init(descriptor: Int32, offset: Int, end: Int) {
        self.descriptor = descriptor
        self.offset = offset
        self.end = end
    }

    deinit { close(descriptor) }

    /// Answers the request's headers. Returns the transfer when a body follows (the caller asks
    /// for writable callbacks), or nil with the callback's return value when the answer is done.
    static func begin(_ wsi: OpaquePointer, file: MediaFiles.File, range header: String?, headOnly: Bool)
        -> (transfer: MediaTransfer?, result: Int32)
    {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return (nil, status(wsi, 404)) }
        var info = stat()
        // Only a regular file is sent (a FIFO would block the service thread).
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            return (nil, status(wsi, 404))
        }
        let size = Int(info.st_size)
        let range = ByteRange.parse(header, fileSize: size)
        let (code, lower, upper): (UInt32, Int, Int)
        switch range {
        case .whole: (code, lower, upper) = (200, 0, size - 1)
        case .part(let l, let u): (code, lower, upper) = (206, l, u)
        case .unsatisfiable:
            close(descriptor)
            return (nil, respond(wsi, code: 416, type: file.mimeType, length: 0, contentRange: "bytes */\(size)"))
        }
        let length = max(0, upper - lower + 1)
        let contentRange = code == 206 ? "bytes \(lower)-\(upper)/\(size)" : nil
        guard respond(wsi, code: code, type: file.mimeType, length: length, contentRange: contentRange, finish: false) == 0 else {
            close(descriptor)
            return (nil, -1)
        }
        guard !headOnly, length > 0 else {
            close(descriptor)
            return (nil, lws_http_transaction_completed(wsi) != 0 ? -1 : 0)
        }
        lws_callback_on_writable(wsi)
        return (MediaTransfer(descriptor: descriptor, offset: lower, end: upper + 1), 0)
    }

    /// Sends the next chunk from `buffer` (which has `kar_lws_pre()` bytes of headroom).
    /// Returns true when the body is complete.
    func sendChunk(_ wsi: OpaquePointer, buffer: UnsafeMutableRawPointer, capacity: Int) -> Bool? {
        let body = buffer + kar_lws_pre()
        let count = pread(descriptor, body, min(capacity, end - offset), off_t(offset))
        guard count > 0 else { return nil }
        offset += count
        let last = offset >= end
        let written = lws_write(wsi, body.assumingMemoryBound(to: UInt8.self), count,
                                last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP)
        guard written >= 0 else { return nil }
        if !last { lws_callback_on_writable(wsi) }
        return last
    }

    /// A bodiless status answer (404 for a token nobody published).
    static func status(_ wsi: OpaquePointer, _ code: UInt32) -> Int32 {
        respond(wsi, code: code, type: "text/plain", length: 0, contentRange: nil)
    }

    /// Writes the status line and headers; with `finish`, ends the transaction too.
    private static func respond(_ wsi: OpaquePointer, code: UInt32, type: String, length: Int, contentRange: String?,
                                finish: Bool = true) -> Int32 {
        let pre = kar_lws_pre()
        var buffer = [UInt8](repeating: 0, count: pre + 1024)
        return buffer.withUnsafeMutableBufferPointer { raw -> Int32 in
            let start = raw.baseAddress! + pre
            let end = raw.baseAddress! + raw.count - 1
            var p: UnsafeMutablePointer<UInt8>? = start
            guard lws_add_http_common_headers(wsi, code, type, lws_filepos_t(length), &p, end) == 0,
                  add(wsi, WSI_TOKEN_HTTP_ACCEPT_RANGES, "bytes", &p, end),
                  contentRange.map({ add(wsi, WSI_TOKEN_HTTP_CONTENT_RANGE, $0, &p, end) }) ?? true,
                  add(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL, "no-store", &p, end),
                  lws_finalize_write_http_header(wsi, start, &p, end) == 0
            else { return -1 }
            guard finish else { return 0 }
            return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
        }
    }

    private static func add(_ wsi: OpaquePointer, _ token: lws_token_indexes, _ value: String,
                            _ p: inout UnsafeMutablePointer<UInt8>?, _ end: UnsafeMutablePointer<UInt8>) -> Bool {
        var bytes = Array(value.utf8)
        return lws_add_http_header_by_token(wsi, token, &bytes, Int32(bytes.count), &p, end) == 0
    }
}
