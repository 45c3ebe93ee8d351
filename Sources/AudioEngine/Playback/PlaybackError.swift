/// Why a backing track could not be played.
public struct PlaybackError: Error, Sendable, CustomStringConvertible {
    public var path: String?
    public var message: String
    public var description: String { path.map { "\($0): \(message)" } ?? message }
}
