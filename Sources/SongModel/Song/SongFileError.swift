/// A problem in a song file, located precisely enough for the user to fix it.
public struct SongFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    /// 1-based line number, when the problem is on one line.
    public var line: Int?
    public var message: String

    public init(path: String, line: Int?, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { return "\(path):\(line): \(message)" }
        return "\(path): \(message)"
    }
}
