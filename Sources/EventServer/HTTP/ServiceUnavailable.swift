import CWebSockets

/// A bodiless `503 Service Unavailable` with `Retry-After`, for a request the server will not
/// open a file for right now (`ConnectionBudget.beginFile`). Costs no descriptor.
enum ServiceUnavailable {
    /// Writes the answer; the caller closes the connection (returns nonzero from the filter).
    static func respond(_ wsi: OpaquePointer, retryAfterSeconds: Int) {
        let pre = kar_lws_pre()
        var buffer = [UInt8](repeating: 0, count: pre + 512)
        buffer.withUnsafeMutableBufferPointer { raw in
            let start = raw.baseAddress! + pre
            let end = raw.baseAddress! + raw.count - 1
            var p: UnsafeMutablePointer<UInt8>? = start
            var retry = Array(String(retryAfterSeconds).utf8)
            guard lws_add_http_common_headers(wsi, 503, "text/plain", 0, &p, end) == 0,
                  lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_RETRY_AFTER, &retry, Int32(retry.count), &p, end) == 0
            else { return }
            _ = lws_finalize_write_http_header(wsi, start, &p, end)
        }
    }
}
