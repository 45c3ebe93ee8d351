/// Text encodings song files are found in, with the names `#ENCODING` tags use.
public enum SongTextEncoding: String, Sendable, CaseIterable {
    case utf8 = "UTF-8"
    case utf16LE = "UTF-16LE"
    case utf16BE = "UTF-16BE"
    case utf32LE = "UTF-32LE"
    case utf32BE = "UTF-32BE"
    case cp1252 = "CP1252"
    case cp1250 = "CP1250"
    case cp1251 = "CP1251"
    case koi8R = "KOI8-R"
    case cp865 = "CP865"
    case cp437 = "CP437"
    case latin1 = "ISO-8859-1"
    case latin2 = "ISO-8859-2"
    case latin9 = "ISO-8859-15"

    /// Looks up an encoding label case-insensitively, ignoring `-`, `_` and spaces
    /// (`utf8`, `UTF-8`, `windows-1252`, `koi8r`, `IBM865`, `latin1` …).
    public init?(label: String) {
        let key = String(label.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " })
        switch key {
        case "utf8": self = .utf8
        case "utf16le", "utf16": self = .utf16LE
        case "utf16be": self = .utf16BE
        case "utf32le", "utf32": self = .utf32LE
        case "utf32be": self = .utf32BE
        case "cp1252", "windows1252", "win1252", "ansi", "auto": self = .cp1252
        case "cp1250", "windows1250", "win1250": self = .cp1250
        case "cp1251", "windows1251", "win1251": self = .cp1251
        case "koi8r", "koi8": self = .koi8R
        case "cp865", "ibm865", "865": self = .cp865
        case "cp437", "ibm437", "437": self = .cp437
        case "iso88591", "latin1", "l1": self = .latin1
        case "iso88592", "latin2", "l2": self = .latin2
        case "iso885915", "latin9", "l9": self = .latin9
        default: return nil
        }
    }

    /// The name iconv knows the encoding by.
    public var iconvName: String {
        switch self {
        case .utf8: "UTF-8"
        case .utf16LE: "UTF-16LE"
        case .utf16BE: "UTF-16BE"
        case .utf32LE: "UTF-32LE"
        case .utf32BE: "UTF-32BE"
        case .cp1252: "CP1252"
        case .cp1250: "CP1250"
        case .cp1251: "CP1251"
        case .koi8R: "KOI8-R"
        case .cp865: "CP865"
        case .cp437: "CP437"
        case .latin1: "ISO-8859-1"
        case .latin2: "ISO-8859-2"
        case .latin9: "ISO-8859-15"
        }
    }
}

extension SongTextEncoding {
    /// The code pages of DOS machines (box drawing in the high half), rare for lyric files.
    var isDOSCodePage: Bool { self == .cp437 || self == .cp865 }
}
