import COpenSSL

/// Why a certificate or key cannot be used; every case names the file.
public enum TLSCertificateError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case notPEM(path: String, what: String, detail: String)
    case keyDoesNotMatch(certificate: String, key: String)
    case cannotCreate(step: String, detail: String)
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): cannot read (\(reason))"
        case .notPEM(let path, let what, let detail): "\(path): not a PEM \(what) (\(detail))"
        case .keyDoesNotMatch(let certificate, let key): "\(key) is not the private key of \(certificate)"
        case .cannotCreate(let step, let detail): "cannot make the self-signed certificate: \(step) failed (\(detail))"
        case .cannotWrite(let path, let reason): "\(path): cannot write (\(reason))"
        }
    }

    /// OpenSSL's queued errors as one line (and clears the queue), or "unknown error".
    static func openSSLErrors() -> String {
        var lines: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            lines.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return lines.isEmpty ? "unknown error" : lines.joined(separator: "; ")
    }
}
