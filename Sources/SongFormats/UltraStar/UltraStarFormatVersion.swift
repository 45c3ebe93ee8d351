import Foundation
/// Which edition of the UltraStar format a file follows; units of several headers differ.
enum UltraStarGeneration: Equatable {
    /// No `#VERSION`: the classic format (`#RELATIVE`, `#ENCODING`, `#START` in seconds).
    case unversioned
    /// `#VERSION:1.x.y`: times in seconds except `#END`, beat = 60 / (4·BPM).
    case v1
    /// `#VERSION:2.x.y`: all times in milliseconds and one beat = 60 / BPM.
    case v2

    /// Parses a `#VERSION` value; nil when it is not `major.minor.patch`.
    init?(versionValue: String) {
        let parts = versionValue.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count < 6 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let major = Int(parts[0]) else { return nil }
        switch major {
        case 0, 1: self = .v1
        case 2: self = .v2
        default: return nil
        }
    }

    /// What players make of a version that is not `x.y.z`: `v1.1.0`, `1.1`, `2` — the major
    /// number after an optional `v`; nil when there is none or it is unknown (≥ 3).
    init?(lenientVersionValue value: String) {
        var text = Substring(value.trimmingCharacters(in: .whitespaces))
        if text.first == "v" || text.first == "V" { text = text.dropFirst() }
        let major = text.prefix(while: { $0.isASCII && $0.isNumber })
        guard !major.isEmpty, major.count < 6, let n = Int(major) else { return nil }
        switch n {
        case 0, 1: self = .v1
        case 2: self = .v2
        default: return nil
        }
    }

    var name: String {
        switch self {
        case .unversioned: "unversioned"
        case .v1: "1.x"
        case .v2: "2.x"
        }
    }

    var timesInMilliseconds: Bool { self == .v2 }
}
