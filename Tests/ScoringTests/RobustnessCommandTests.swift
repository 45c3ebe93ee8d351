import AudioFiles
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 12 through the binary, as an operator meets it: faults end in a clear message within
/// seconds, never a hang and never a server that scores into nowhere.
@Suite(.serialized, .enabled(if: KaraokeCommand.isAvailable))
struct RobustnessCommandTests {
    let scratch = NSTemporaryDirectory() + "robust-command-\(UUID().uuidString)"

    struct Timed {
        var status: Int32?
        var out: String
        var err: String
    }

    /// Runs `karaoke arguments…`; kills it after `seconds` (then `status` is nil).
    func karaoke(_ arguments: [String], within seconds: Double, environment: [String: String] = [:],
                 signalAfter: Double? = nil) throws -> Timed {
        let process = Process()
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.executableURL = URL(fileURLWithPath: KaraokeCommand.binary ?? "karaoke")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: scratch)
        let outFile = scratch + "/out-\(UUID().uuidString).txt", errFile = outFile + ".err"
        for file in [outFile, errFile] where !FileManager.default.createFile(atPath: file, contents: nil) {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file])
        }
        process.standardOutput = FileHandle(forWritingAtPath: outFile)
        process.standardError = FileHandle(forWritingAtPath: errFile)
        try process.run()
        if let signalAfter {
            Thread.sleep(forTimeInterval: signalAfter)
            kill(process.processIdentifier, SIGTERM)
        }
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        var status: Int32?
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        } else {
            status = process.terminationStatus
        }
        return Timed(status: status, out: (try? String(contentsOfFile: outFile, encoding: .utf8)) ?? "",
                     err: (try? String(contentsOfFile: errFile, encoding: .utf8)) ?? "")
    }

    func makeSong(_ id: String) throws -> String {
        let folder = scratch + "/songs/" + id
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try """
            #TITLE:Robust
            #ARTIST:Tests
            #MP3:backing.ogg
            #BPM:120
            #GAP:0
            : 0 4 0 la
            : 4 4 2  la
            E

            """.write(toFile: folder + "/song.txt", atomically: true, encoding: .utf8)
        return folder
    }

    @Test func aCorruptScoreDatabaseStopsServeWithAMessageNamingIt() throws {
        try FileManager.default.createDirectory(atPath: scratch + "/scores", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch + "/songs", withIntermediateDirectories: true)
        let database = scratch + "/scores/karaoke.sqlite"
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        try garbage.write(to: URL(fileURLWithPath: database))
        let run = try karaoke(["serve", "--no-audio", "--port", "0", "--songs", "songs", "--scores", "scores",
                               "--public", TestPaths.packageRoot + "/public"], within: 20)
        #expect(run.status != nil, "serve kept running on a corrupt database: \(run.out)")
        #expect(run.status != 0)
        #expect(run.err.contains("scores/karaoke.sqlite"), "\(run.err)")
        #expect(run.err.contains("damaged") || run.err.contains("not a database"), "\(run.err)")
        #expect(run.err.contains("--scores"), "the message says how to go on")
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == garbage, "never overwritten")
    }

    @Test func aFIFONamedBackingOggDoesNotHangTheSongList() throws {
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let folder = try makeSong("pipe")
        #expect(mkfifo(folder + "/backing.ogg", 0o644) == 0)
        let run = try karaoke(["songs", "--songs", "songs"], within: 15)
        #expect(run.status == 0, "karaoke songs hung or failed on a FIFO: \(run.err)")
        #expect(run.out.contains("backing.ogg") && run.out.contains("FIFO"), "\(run.out)")
    }

    /// A real Ogg Vorbis track (encoded by libsndfile), cut to a third of its bytes.
    @Test func aTruncatedBackingTrackIsAWarning() throws {
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let folder = try makeSong("cut")
        let rate = 44100.0
        let tone = (0..<Int(rate * 6)).map { Float(0.3 * sin(2 * Double.pi * 440 * Double($0) / rate)) }
        let path = folder + "/backing.ogg"
        try AudioFile.write(AudioBuffer(samples: tone, sampleRate: rate, channels: 1), to: path)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        let fine = try karaoke(["songs", "--songs", "songs"], within: 15)
        #expect(fine.status == 0)
        #expect(!fine.out.contains("warning"), "an intact track is not flagged: \(fine.out)")
        try whole.prefix(whole.count / 3).write(to: URL(fileURLWithPath: path))
        let run = try karaoke(["songs", "--songs", "songs"], within: 15)
        #expect(run.status == 0)
        #expect(run.out.contains("warning:") && run.out.contains("backing.ogg") && run.out.contains("cut short"), "\(run.out)")
    }

    /// A sound server that takes the connection and never answers holds `serve` in start-up;
    /// SIGTERM must still end it (it was ignored until the room was running).
    @Test func sigtermDuringStartUpEndsServe() throws {
        try FileManager.default.createDirectory(atPath: scratch + "/songs", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let socketPath = scratch + "/hung-pulse.sock"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in socketPath.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        #expect(listen(listener, 4) == 0)
        let run = try karaoke(["serve", "--port", "0", "--songs", "songs", "--scores", "scores",
                               "--public", TestPaths.packageRoot + "/public"],
                              within: 10, environment: ["PULSE_SERVER": "unix:" + socketPath], signalAfter: 2)
        #expect(run.status != nil, "serve ignored SIGTERM during start-up")
        #expect(run.status == 128 + SIGTERM, "\(run.err)")
        #expect(run.err.contains("during start-up"))
        #expect(!run.out.contains("Listening"), "the test must catch serve still starting")
    }
}
