import Foundation

/// Runs `pactl` against the test daemon (PULSE_SERVER from the environment or `server`).
@discardableResult
func pactl(_ arguments: [String], server: String? = nil) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/pactl")
    process.arguments = (server.map { ["-s", $0] } ?? []) + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

let pulseAvailable = ProcessInfo.processInfo.environment["PULSE_SERVER"] != nil

/// Collects events from a callback thread.
final class EventLog<Event: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Event] = []
    func append(_ e: Event) { lock.lock(); items.append(e); lock.unlock() }
    var all: [Event] { lock.lock(); defer { lock.unlock() }; return items }

    /// Waits up to `timeout` seconds for an event matching `predicate`.
    func wait(timeout: Double, for predicate: (Event) -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if all.contains(where: predicate) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return all.contains(where: predicate)
    }
}
