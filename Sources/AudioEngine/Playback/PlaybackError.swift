/// Why a backing track could not be played (or the output could not be opened).
public struct PlaybackError: Error, Sendable, CustomStringConvertible {
    public var path: String?
    public var message: String
    public var description: String { path.map { "\($0): \(message)" } ?? message }

    public init(path: String?, message: String) {
        self.path = path
        self.message = message
    }

    /// A load given up because a newer one superseded it.
    public static func cancelled(path: String?) -> PlaybackError {
        PlaybackError(path: path, message: "loading cancelled (a newer load superseded it)")
    }
}
