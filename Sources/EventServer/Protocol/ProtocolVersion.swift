/// Version of the JSON protocol in `docs/protocol.md`. Bump on incompatible changes;
/// additive fields keep the number.
public enum ProtocolVersion {
    public static let current = 1
}

/// What a client may do. Ordered: each role may do everything the ones before it may.
public enum ClientRole: String, Codable, Sendable, Comparable, CaseIterable {
    /// Read-only lyric screen.
    case display
    /// Browse songs, queue them, pick a singer slot.
    case guest
    /// Every control; needs the room PIN.
    case host

    private var rank: Int {
        switch self {
        case .display: 0
        case .guest: 1
        case .host: 2
        }
    }

    public static func < (a: ClientRole, b: ClientRole) -> Bool { a.rank < b.rank }
}

/// Pitch tolerance, as in UltraStar: easy ±2, medium ±1, hard exact semitone.
public enum Difficulty: String, Codable, Sendable, CaseIterable {
    case easy, medium, hard

    public var toleranceSemitones: Int {
        switch self {
        case .easy: 2
        case .medium: 1
        case .hard: 0
        }
    }
}
