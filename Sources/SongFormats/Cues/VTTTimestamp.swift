enum VTTTimestamp {
    /// `hh:mm:ss.ttt` or `mm:ss.ttt` (a comma is accepted for SRT-style files).
    static func seconds(_ s: Substring) -> Double? {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        var total = 0.0
        for (i, part) in parts.enumerated() {
            let isLast = i == parts.count - 1
            if isLast {
                let pieces = part.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "." || $0 == "," })
                guard pieces.count <= 2, pieces[0].count == 2, let secs = digits(pieces[0]), secs < 60 else { return nil }
                total = total * 60 + Double(secs)
                if pieces.count == 2 {
                    guard (1...3).contains(pieces[1].count), let f = digits(pieces[1]) else { return nil }
                    total += Double(f) / [1, 10, 100, 1000][pieces[1].count]
                }
            } else {
                guard part.count <= 4, let v = digits(part), i == 0 || v < 60 else { return nil }
                total = total * 60 + Double(v)
            }
        }
        return total
    }

    private static func digits(_ s: Substring) -> Int? {
        guard !s.isEmpty, s.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(s)
    }
}
