@testable import AudioEngine
import Foundation
import Glibc
import TestSupport

/// A PulseAudio daemon of the test's own (so a test may kill it): null sinks `out` (the
/// default) and `mic` (mono; its monitor `mic.monitor` serves as a microphone).
final class PrivateDaemon {
    let directory: String
    var server: String { "unix:\(directory)/run/native" }
    private var pid: pid_t?

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-pa-own-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: directory + "/run", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/state", withIntermediateDirectories: true)
        try """
        load-module module-native-protocol-unix auth-anonymous=1 socket=\(directory)/run/native
        load-module module-null-sink sink_name=out rate=48000 channels=2
        load-module module-null-sink sink_name=mic rate=48000 channels=1
        set-default-sink out
        """.write(toFile: directory + "/test.pa", atomically: true, encoding: .utf8)
    }

    func start() throws {
        var env = ProcessInfo.processInfo.environment
        env["PULSE_RUNTIME_PATH"] = directory + "/run"
        env["PULSE_STATE_PATH"] = directory + "/state"
        env.removeValue(forKey: "PULSE_SERVER")
        // Not Foundation's `Process`: it notices a child's exit through a socket the child
        // inherits, and pulseaudio closes every inherited descriptor when it starts. Foundation
        // then blocks in `wait4` on the live daemon, and no later `Process` (`pactl`) is seen to finish.
        pid = try ChildProcess.start("/usr/bin/pulseaudio", ["-n", "-F", directory + "/test.pa", "--daemonize=no", "--exit-idle-time=-1",
                                                              "--disallow-exit", "--realtime=no", "--high-priority=no", "--enable-memfd=no",
                                                              "--log-target=file:\(directory)/pulse.log"],
                                     environment: env)
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
        guard let pid else { return }
        Glibc.kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        self.pid = nil
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
