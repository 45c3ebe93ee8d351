import Foundation

/// Runs the built `karaoke` binary as a user would; `scripts/test` sets `KARAOKE_BIN` to it.
public enum KaraokeCommand {
    public struct Run: Sendable {
        public var status: Int32
        public var out: String
        public var err: String
    }

    public static var binary: String? { ProcessInfo.processInfo.environment["KARAOKE_BIN"] }
    /// For `@Suite(.enabled(if: KaraokeCommand.isAvailable))`.
    public static var isAvailable: Bool { binary != nil }

    /// Runs `karaoke arguments…` (in `directory` if given) and waits for it.
    public static func run(_ arguments: [String], in directory: String? = nil) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary ?? "karaoke")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting, so a chatty process never blocks on a full pipe.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
                   err: String(decoding: errData, as: UTF8.self))
    }
}
