import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process spawned with a clean signal mask.
///
/// Foundation's `Process` spawns children with the signal mask of the thread that starts them;
/// test threads (libdispatch workers) block almost every signal, so such a child ignores
/// SIGTERM and lives on. This spawns with an empty mask and default dispositions, and reaps
/// the child itself.
final class ChildProcess {
    let pid: pid_t
    private var status: Int32?

    /// Spawns `executable` with `arguments` and `environment` added to this process's. `stdin`
    /// and `stdout` become the child's descriptors 0 and 1 when given (otherwise /dev/null);
    /// standard error goes to /dev/null.
    init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], stdin: Int32? = nil,
        stdout: Int32? = nil
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin {
            posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let stdout {
            posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

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
            throw GtkTestError("Could not start \(executable): \(String(cString: strerror(result)))")
        }
        self.pid = pid
    }

    /// Whether the child is still running (reaps it once it exited).
    var isRunning: Bool {
        guard status == nil else { return false }
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid {
            status = raw
            return false
        }
        return true
    }

    /// The raw wait status, once the child exited.
    var exitStatus: Int32? {
        _ = isRunning
        return status
    }

    /// Sends `signal` to the child if it is still running.
    func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits up to `timeout` seconds for the child to exit; returns whether it did.
    @discardableResult
    func wait(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning {
            if Date() > deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// Ends the child: SIGTERM, then SIGKILL after `grace` seconds; always reaps it.
    func stop(grace: Double = 2) {
        send(SIGTERM)
        if !wait(timeout: grace) {
            send(SIGKILL)
            wait(timeout: 5)
        }
    }
}

/// A pipe whose ends are closed on exec (the child gets its end through dup2).
struct ProcessPipe {
    let read: Int32
    let write: Int32

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw GtkTestError("pipe failed: \(String(cString: strerror(errno)))") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        read = fds[0]
        write = fds[1]
    }
}
