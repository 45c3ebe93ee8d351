/// Something a reader assumed to read a file that does not follow its format to the letter
/// (a note at a negative beat, a `#YEAR` that is not a year …). The song still reads; the
/// warning names the file, the line and what was assumed, so an author can fix the file.
public struct SongFileWarning: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    /// 1-based line number, when the assumption concerns one line.
    public var line: Int?
    public var message: String

    public init(path: String, line: Int?, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { return "\(path):\(line): warning: \(message)" }
        return "\(path): warning: \(message)"
    }
}
