import SongModel

/// Collects what a reader assumed in lenient mode; in strict mode the same problem is thrown.
///
/// Readers call `assume(line:problem:assumption:)` where a file breaks a rule that players
/// work around. The strict error keeps the problem's wording; the lenient warning adds what
/// the reader did instead ("…; the line is skipped").
struct ReadingAssumptions {
    let path: String
    let mode: SongReadingMode
    private(set) var warnings: [SongFileWarning] = []
    /// The problems behind the warnings, as strict reading would word them.
    private(set) var problems: [(line: Int?, problem: String)] = []
    /// More than this many warnings are summarised: a broken file must not flood a log.
    static let maximumWarnings = 50
    private var dropped = 0

    init(path: String, mode: SongReadingMode) {
        self.path = path
        self.mode = mode
    }

    mutating func assume(line: Int?, problem: String, assumption: String) throws(SongFileError) {
        if mode == .strict { throw SongFileError(path: path, line: line, message: problem) }
        guard warnings.count < Self.maximumWarnings else { dropped += 1; return }
        problems.append((line, problem))
        warnings.append(SongFileWarning(path: path, line: line, message: "\(problem); \(assumption)"))
    }

    /// The warnings, with a last one counting those left out.
    var all: [SongFileWarning] {
        dropped == 0 ? warnings
            : warnings + [SongFileWarning(path: path, line: nil, message: "\(dropped) more warnings not shown")]
    }

    func error(line: Int?, _ message: String) -> SongFileError {
        SongFileError(path: path, line: line, message: message)
    }
}
