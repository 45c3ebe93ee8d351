/// Why a backing track could not be played (or the output could not be opened).
public struct PlaybackError: Error, Sendable, CustomStringConvertible {
    public var path: String?
    public var message: String
    public var description: String { path.map { "\($0): \(message)" } ?? message }

    public init(path: String?, message: String) {
        self.path = path
        self.message = message
    }
}
