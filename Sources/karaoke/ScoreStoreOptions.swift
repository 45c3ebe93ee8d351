import ArgumentParser
import Foundation

/// Where a command finds the scores, named as `serve` names it: `--scores DIR` (the folder
/// holding `karaoke.sqlite`) or `--store URL|FILE` (a venue's PostgreSQL, or a SQLite file).
/// `--database FILE`, the old spelling of `--store FILE`, still works with a note.
struct ScoreStoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Folder holding the results database (karaoke.sqlite), as for `serve --scores`.", valueName: "DIR"))
    var scores = "scores"

    @Option(help: ArgumentHelp("Score store: postgres://user@host/db (a venue's shared database) or a SQLite file; default: <scores>/karaoke.sqlite.",
                               valueName: "URL|FILE"))
    var store: String?

    @Option(help: .hidden)
    var database: String?

    /// The store to open: `--store`, else the old `--database`, else `<scores>/karaoke.sqlite`.
    var location: String {
        store ?? database ?? (scores as NSString).appendingPathComponent("karaoke.sqlite")
    }

    func validate() throws {
        if store != nil, database != nil {
            throw ValidationError("--database is the old spelling of --store: give one of them")
        }
    }

    /// Says so on standard error when the old spelling was used.
    func noteOldSpelling(command: String) {
        guard database != nil else { return }
        FileHandle.standardError.write(Data(
            "karaoke \(command): note: --database FILE is now --store FILE (or --scores DIR for the folder holding karaoke.sqlite)\n".utf8))
    }
}
