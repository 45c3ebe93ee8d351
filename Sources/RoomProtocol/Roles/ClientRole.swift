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
