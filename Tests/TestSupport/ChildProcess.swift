import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program for a test with `posix_spawn` and `waitpid`, not Foundation's `Process`: under
/// `swift test` on Linux `Process.waitUntilExit` was seen to block for ever on a child that had
/// already exited (a zombie never reaped; PostgresOutageTests hung there, seen with gdb).
///
/// Output goes to files, not pipes: nothing can block on a full pipe, and a grandchild that keeps
/// the descriptors (the server `pg_ctl start` leaves running) cannot hold the call up either.
/// The wait is bounded: past `timeout` the child is killed (SIGKILL), reaped, and `Failure.timedOut`
/// thrown, so a stuck program fails its test instead of hanging the suite.
public enum ChildProcess {
    public struct Result: Sendable {
        /// The exit status, or 128 + the signal number if a signal ended it (as a shell reports it).
        public var status: Int32
        public var out: Data
        public var err: Data
        public var outText: String { String(decoding: out, as: UTF8.self) }
        public var errText: String { String(decoding: err, as: UTF8.self) }
    }

    public enum Failure: Error, CustomStringConvertible {
        case cannotStart(program: String, reason: String)
        case timedOut(program: String, arguments: [String], seconds: Double, out: String, err: String)

        public var description: String {
            switch self {
            case let .cannotStart(program, reason): "cannot start \(program): \(reason)"
            case let .timedOut(program, arguments, seconds, out, err):
                "\(program) \(arguments.joined(separator: " ")) did not end within \(seconds) s and was killed; stdout: \(out.suffix(2000)) stderr: \(err.suffix(2000))"
            }
        }
    }

    /// Runs `executable arguments…` (looked up in PATH when it has no slash), in `directory` if
    /// given, with stdin from /dev/null, and waits at most `timeout` seconds for it.
    public static func run(_ executable: String, _ arguments: [String], in directory: String? = nil,
                           timeout: Double = 300) throws -> Result {
        let scratch = NSTemporaryDirectory() + "child-\(getpid())-\(UUID().uuidString)"
        let outPath = scratch + ".out", errPath = scratch + ".err"
        defer {
            unlink(outPath)
            unlink(errPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let directory {
            guard let addchdir = addChdir, addchdir(&actions, directory) == 0 else {
                throw Failure.cannotStart(program: executable, reason: "cannot run it in \(directory) (posix_spawn_file_actions_addchdir_np)")
            }
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }

        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw Failure.cannotStart(program: executable, reason: String(cString: strerror(spawned)))
        }

        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(timeout)
        var pause: useconds_t = 1_000
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0, errno != EINTR {
                throw Failure.cannotStart(program: executable, reason: "waitpid: \(String(cString: strerror(errno)))")
            }
            if Date() >= deadline {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                throw Failure.timedOut(program: executable, arguments: arguments, seconds: timeout,
                                       out: read(outPath).map { String(decoding: $0, as: UTF8.self) } ?? "",
                                       err: read(errPath).map { String(decoding: $0, as: UTF8.self) } ?? "")
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG by hand (C macros).
        let signal = status & 0x7f
        let code = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        return Result(status: code, out: read(outPath) ?? Data(), err: read(errPath) ?? Data())
    }

    /// Starts a long-running program (a daemon the test stops itself) and returns its pid without
    /// waiting; stdin and stdout from/to /dev/null, stderr inherited. `environment` replaces the
    /// test's. The caller signals it and reaps it with `waitpid`.
    public static func start(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw Failure.cannotStart(program: executable, reason: String(cString: strerror(spawned)))
        }
        return pid
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29+), which the Glibc module leaves out.
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let addChdir: AddChdir? = dlsym(nil, "posix_spawn_file_actions_addchdir_np")
        .map { unsafeBitCast($0, to: AddChdir.self) }

    private static func read(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
}
