import Foundation

/// What a client is told about a song that cannot be played. Hosts get the reason, with the
/// song's paths relative to the library (they can fix the file); guests and displays only that
/// it can't be played right now: the server's file paths and a parser's complaints are not
/// theirs to read.
struct SongProblems {
    /// Every guest's and display's word for a broken song (the library's `error`).
    static let forGuests = "can't be played right now"

    /// The songs folder (`SongCatalog.libraryRoot`); nil leaves messages as they are.
    let root: String?

    /// A guest's message about one song.
    static func forGuests(title: String) -> String { "“\(title)” \(forGuests)" }

    /// `message` with the songs folder taken out of every path in it.
    func forHosts(_ message: String) -> String {
        guard var folder = root, !folder.isEmpty else { return message }
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        guard folder != "/" else { return message }
        return message
            .replacingOccurrences(of: " song library \(folder)", with: " song library")
            .replacingOccurrences(of: folder + "/", with: "")
            .replacingOccurrences(of: folder, with: "the songs folder")
    }
}
