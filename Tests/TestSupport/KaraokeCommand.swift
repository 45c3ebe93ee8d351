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

    /// Runs `karaoke arguments…` (in `directory` if given) and waits for it, at most `timeout`
    /// seconds (then it is killed and `ChildProcess.Failure.timedOut` thrown).
    public static func run(_ arguments: [String], in directory: String? = nil, timeout: Double = 300) throws -> Run {
        let result = try ChildProcess.run(binary ?? "karaoke", arguments, in: directory, timeout: timeout)
        return Run(status: result.status, out: result.outText, err: result.errText)
    }
}
