import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A failure with a message a person can act on.
public struct DriverError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A child process spawned with a clean signal mask and default signal dispositions (threads of
/// test runners block most signals, and Foundation's `Process` would pass that mask on, leaving a
/// child that ignores SIGTERM). The child is reaped by ``wait(timeout:)`` and ``stop(grace:)``.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    private let lock = NSLock()
    private var status: Int32?

    /// Spawns `executable` with `arguments` and `environment` merged over this process's.
    /// `stdin`, `stdout`, `stderr`: descriptors for the child's 0, 1 and 2 (nil: /dev/null).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], stdin: Int32? = nil,
        stdout: Int32? = nil, stderr: Int32? = nil
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, target, flags) in [(stdin, Int32(0), O_RDONLY), (stdout, 1, O_WRONLY), (stderr, 2, O_WRONLY)] {
            if let fd {
                posix_spawn_file_actions_adddup2(&actions, fd, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", flags, 0)
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw DriverError("Could not start \(executable): \(String(cString: strerror(result)))")
        }
        self.pid = pid
    }

    /// Whether the child is still running (reaps it once it exited).
    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        guard status == nil else { return false }
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid {
            status = raw
            return false
        }
        return true
    }

    /// The raw wait status, once the child exited.
    public var exitStatus: Int32? {
        _ = isRunning
        lock.lock()
        defer { lock.unlock() }
        return status
    }

    /// Sends `signal` to the child if it is still running.
    public func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits up to `timeout` seconds for the child to exit; returns whether it did.
    @discardableResult
    public func wait(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning {
            if Date() > deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// Ends the child: SIGTERM, then SIGKILL after `grace` seconds; always reaps it.
    public func stop(grace: Double = 2) {
        send(SIGTERM)
        if !wait(timeout: grace) {
            send(SIGKILL)
            wait(timeout: 5)
        }
    }
}

/// A pipe whose ends are closed on exec (a child gets its end through dup2).
public struct ProcessPipe {
    public let read: Int32
    public let write: Int32

    public init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw DriverError("pipe failed: \(String(cString: strerror(errno)))") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        read = fds[0]
        write = fds[1]
    }
}

/// External programs, found on PATH.
public enum Tools {
    public static var xvfb: String? { find("Xvfb") }
    public static var xdotool: String? { find("xdotool") }
    public static var imageMagickImport: String? { find("import") }

    public static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// An executable this package builds: `$<variable>` when set, else `.build/debug/<name>`
    /// under `packageRoot`, else next to the running executable (a test bundle built to another
    /// path). Throws, saying where it looked, when none exists: run `swift build` first.
    public static func built(_ name: String, variable: String, packageRoot: URL) throws -> String {
        if let explicit = ProcessInfo.processInfo.environment[variable] { return explicit }
        let candidates = [
            packageRoot.appendingPathComponent(".build/debug/\(name)").path,
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
                .path,
        ]
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) { return found }
        throw DriverError(
            "\(name) was not built (looked at \(candidates.joined(separator: ", "))). Run `swift build` "
                + "(or `make test`, which builds it) first.")
    }

    /// Runs a program to completion (at most `timeout` seconds) and returns its standard output;
    /// throws if it fails.
    @discardableResult
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 30
    ) throws -> Data {
        let out = try ProcessPipe()
        let process: ChildProcess
        do {
            process = try ChildProcess(executable, arguments, environment: environment, stdout: out.write)
        } catch {
            close(out.read)
            close(out.write)
            throw error
        }
        close(out.write)
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = Glibc.read(out.read, &buffer, buffer.count)
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        close(out.read)
        if !process.wait(timeout: timeout) {
            process.stop()
            throw DriverError("\(executable) \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        guard let status = process.exitStatus, status == 0 else {
            throw DriverError(
                "\(executable) \(arguments.joined(separator: " ")) failed (wait status \(process.exitStatus ?? -1))")
        }
        return data
    }
}
