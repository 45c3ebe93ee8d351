/// An ASS/SSA event time. The format writes `h:mm:ss.cc`; libass (`%d:%d:%d.%d`) and Aegisub
/// also read fields of any number of digits (`0:0:5.0`, `0:00:05.5`, `00:01:02.345`), so those
/// are read too, with the fraction a decimal fraction as Aegisub, where the authors time their
/// files, reads it (libass takes its digits as centiseconds, which differs only for a fraction
/// that is not two digits).
struct ASSTime {
    var seconds: Double
    /// True when the time is written as the format says: `h:mm:ss.cc`.
    var isCanonical: Bool

    init?(_ raw: Substring) {
        let text = raw.trimmed
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 3 else { return nil }
        let secondsField = fields[2].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard secondsField.count == 2 else { return nil }
        let parts = [fields[0], fields[1], secondsField[0], secondsField[1]]
        guard parts.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let h = Int(parts[0]), let m = Int(parts[1]), let s = Int(parts[2]), let f = Int(parts[3]) else { return nil }
        var fraction = Double(f)
        for _ in 0..<parts[3].count { fraction /= 10 }
        seconds = Double(h * 3600 + m * 60 + s) + fraction
        isCanonical = parts[1].count == 2 && parts[2].count == 2 && parts[3].count == 2 && m < 60 && s < 60
    }
}
