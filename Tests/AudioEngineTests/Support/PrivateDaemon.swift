@testable import AudioEngine
import Foundation

/// A PulseAudio daemon of the test's own (so a test may kill it): one null sink `out`.
final class PrivateDaemon {
    let directory: String
    var server: String { "unix:\(directory)/run/native" }
    private var process: Process?

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-pa-own-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: directory + "/run", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/state", withIntermediateDirectories: true)
        try """
        load-module module-native-protocol-unix auth-anonymous=1 socket=\(directory)/run/native
        load-module module-null-sink sink_name=out rate=48000 channels=2
        set-default-sink out
        """.write(toFile: directory + "/test.pa", atomically: true, encoding: .utf8)
    }

    func start() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/pulseaudio")
        p.arguments = ["-n", "-F", directory + "/test.pa", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit",
                       "--realtime=no", "--high-priority=no", "--enable-memfd=no", "--log-target=file:\(directory)/pulse.log"]
        var env = ProcessInfo.processInfo.environment
        env["PULSE_RUNTIME_PATH"] = directory + "/run"
        env["PULSE_STATE_PATH"] = directory + "/state"
        env.removeValue(forKey: "PULSE_SERVER")
        p.environment = env
        try p.run()
        process = p
        let end = Date().addingTimeInterval(10)
        while Date() < end {
            if let probe = try? PulseContext(name: "probe", server: server), (try? probe.connect()) != nil {
                probe.close()
                return
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw CocoaError(.fileReadUnknown)
    }

    func kill() {
        guard let p = process else { return }
        p.terminate()
        p.waitUntilExit()
        process = nil
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
