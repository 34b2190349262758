import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The crash helper (`showcase-store-crash-helper`, built next to the test bundle) running as a
/// child process: the tests read what it says, line by line, and kill it with SIGKILL.
final class HelperProcess {
    private let process = Process()
    private let output = Pipe()
    private var buffered: [UInt8] = []

    /// Starts the helper with `arguments`.
    init(_ arguments: [String]) throws {
        process.executableURL = try Self.url()
        process.arguments = arguments
        process.standardOutput = output
        try process.run()
    }

    deinit { kill() }

    /// The next line the helper writes, waiting (with poll(2)) at most `timeout`; nil when it
    /// closed its output (it exited).
    func nextLine(timeout: Duration = .seconds(20)) throws -> String? {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        let fd = output.fileHandleForReading.fileDescriptor
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                return line
            }
            let left = clock.now.duration(to: deadline)
            guard left > .zero else { throw HelperError.timedOut(String(decoding: buffered, as: UTF8.self)) }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(
                left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            let ready = poll(&descriptor, 1, max(1, milliseconds))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(fd, &chunk, chunk.count)
            guard count > 0 else { return nil }
            buffered += chunk[0..<count]
        }
    }

    /// Kills the helper with SIGKILL (if it still runs) and waits for it to end. Returns
    /// whether SIGKILL is what ended it.
    @discardableResult
    func kill() -> Bool {
        if process.isRunning {
            _ = Glibc.kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }

    /// The helper executable, built next to the test bundle.
    static func url() throws -> URL {
        let name = "showcase-store-crash-helper"
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
        candidates.append(Bundle.main.bundleURL)
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for directory in candidates {
            let url = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw HelperError.notBuilt(candidates.map(\.path))
    }

    enum HelperError: Error, CustomStringConvertible {
        case notBuilt([String])
        case timedOut(String)
        case endedEarly(String)

        var description: String {
            switch self {
            case .notBuilt(let places):
                "showcase-store-crash-helper was not found in \(places); build everything with `swift build --build-tests`"
            case .timedOut(let partial): "the helper said nothing in time (so far: \(partial.debugDescription))"
            case .endedEarly(let partial):
                "the helper ended before saying where it was (said: \(partial.debugDescription))"
            }
        }
    }
}
