/// What an HTTP `Range` request header asks of a file of known size (RFC 9110 §14.1.2).
/// Only one range is served: media players ask for one, and a multipart answer for several
/// is a way to make the server do work many times over; several ranges answer 416.
public enum ByteRange: Equatable, Sendable {
    /// No `Range` header: the whole file, 200.
    case whole
    /// Bytes `lower...upper` (inclusive), 206 with `Content-Range`.
    case part(lower: Int, upper: Int)
    /// Malformed, several ranges, or nothing of the file: 416 with `Content-Range: bytes */size`.
    case unsatisfiable

    /// Longest header value read; a longer one is refused (a single range fits in far less).
    static let maxHeaderLength = 200

    public static func parse(_ header: String?, fileSize: Int) -> ByteRange {
        guard let header else { return .whole }
        guard header.utf8.count <= maxHeaderLength, fileSize > 0 else { return .unsatisfiable }
        let trimmed = header.trimmingSpaces
        guard trimmed.lowercased().hasPrefix("bytes=") else { return .unsatisfiable }
        let spec = String(trimmed.dropFirst(6)).trimmingSpaces
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .unsatisfiable }
        let first = String(spec[..<dash]).trimmingSpaces
        let last = String(spec[spec.index(after: dash)...]).trimmingSpaces
        if first.isEmpty {
            // `bytes=-N`: the last N bytes.
            guard let suffix = digits(last), suffix > 0 else { return .unsatisfiable }
            return .part(lower: max(0, fileSize - suffix), upper: fileSize - 1)
        }
        guard let lower = digits(first), lower < fileSize else { return .unsatisfiable }
        if last.isEmpty { return .part(lower: lower, upper: fileSize - 1) }
        guard let upper = digits(last), upper >= lower else { return .unsatisfiable }
        return .part(lower: lower, upper: min(upper, fileSize - 1))
    }

    /// A decimal of ASCII digits only (no sign, no spaces); nil when not, or when it overflows.
    private static func digits(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(text)
    }
}

private extension String {
    var trimmingSpaces: String {
        var view = Substring(self)
        while view.first == " " || view.first == "\t" { view = view.dropFirst() }
        while view.last == " " || view.last == "\t" { view = view.dropLast() }
        return String(view)
    }
}
