/// A reference note on the song's beat grid (UltraStar semantics).
public struct Note: Sendable, Equatable {
    public var kind: NoteKind
    /// Absolute start beat (relative-mode files are converted on reading).
    public var startBeat: Int
    public var lengthBeats: Int
    /// Half-steps relative to C4, as in UltraStar files: 0 = C4 = MIDI 60.
    public var pitch: Int

    public init(kind: NoteKind, startBeat: Int, lengthBeats: Int, pitch: Int) {
        self.kind = kind
        self.startBeat = startBeat
        self.lengthBeats = lengthBeats
        self.pitch = pitch
    }

    public var endBeat: Int { startBeat + lengthBeats }
    /// MIDI note number of the reference pitch.
    public var midi: Int { pitch + 60 }
}

public enum NoteKind: String, Sendable, Equatable, CaseIterable {
    /// `:` sing this pitch.
    case normal
    /// `*` double points.
    case golden
    /// `F` not judged.
    case freestyle
    /// `R` any voiced sound counts.
    case rap
    /// `G` golden rap.
    case goldenRap

    /// The UltraStar character for this kind.
    public var symbol: Character {
        switch self {
        case .normal: ":"
        case .golden: "*"
        case .freestyle: "F"
        case .rap: "R"
        case .goldenRap: "G"
        }
    }

    public init?(symbol: Character) {
        guard let kind = NoteKind.allCases.first(where: { $0.symbol == symbol }) else { return nil }
        self = kind
    }

    /// Pitch is ignored for rap and freestyle notes.
    public var isPitched: Bool { self == .normal || self == .golden }
}
