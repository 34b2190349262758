import Foundation
import GRDB
import ShowcaseModel
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// "If the app is killed in the middle of a move, on restart the item is in exactly one place."
/// A child process (showcase-store-crash-helper) runs the move and is killed with SIGKILL inside
/// its transaction, or right after the commit; the test then reopens the database as the app
/// would on restart.
@Suite("Showcase store crash safety")
struct CrashTests {
    @Test("S4: killed inside a move's transaction, the item is in exactly one place: its source")
    func killedInsideTransaction() throws {
        let f = try Fixture()
        let before = try f.snapshot()
        let item = try f.id("a2")
        let output = try runHelperAndKill(f, mode: "inside", item: item, to: f.b, index: 1)
        #expect(output == "inside transaction")
        // The unfinished transaction left a hot journal behind.
        #expect(FileManager.default.fileExists(atPath: f.directory.file("showcase.sqlite-journal").path))

        let restarted = try ShowcaseStore(path: f.directory.file("showcase.sqlite").path, seed: false)
        #expect(try restarted.integrityProblems().isEmpty)
        let integrity = try restarted.database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        #expect(integrity == ["ok"])
        #expect(try places(of: "a2", in: restarted) == [ItemSlot(collection: f.a, position: 2)])
        #expect(try [f.a, f.b, f.readOnly].map { try restarted.items(in: $0) } == before)
    }

    @Test("S4: killed right after a move's commit, the item is in exactly one place: its destination")
    func killedAfterCommit() throws {
        let f = try Fixture()
        let item = try f.id("a2")
        let output = try runHelperAndKill(f, mode: "after", item: item, to: f.b, index: 1)
        #expect(output == "committed")

        let restarted = try ShowcaseStore(path: f.directory.file("showcase.sqlite").path, seed: false)
        #expect(try restarted.integrityProblems().isEmpty)
        #expect(try places(of: "a2", in: restarted) == [ItemSlot(collection: f.b, position: 1)])
        #expect(try restarted.items(in: f.a).map(\.title) == ["a0", "a1", "a3", "a4"])
        #expect(try restarted.items(in: f.b).map(\.title) == ["b0", "a2", "b1", "b2"])
    }

    /// Every slot holding an item titled `title`.
    private func places(of title: String, in store: ShowcaseStore) throws -> [ItemSlot] {
        try store.database.read { db in
            try Row.fetchAll(db, sql: "SELECT collectionId, position FROM item WHERE title = ?", arguments: [title])
                .map { ItemSlot(collection: $0["collectionId"], position: $0["position"]) }
        }
    }

    /// Starts the helper, waits (polling its output, at most 20 s) for its first line, kills it
    /// with SIGKILL, waits for it to end, and returns the line.
    private func runHelperAndKill(_ f: Fixture, mode: String, item: ItemID, to collection: CollectionID, index: Int)
        throws -> String
    {
        let process = Process()
        process.executableURL = try Self.helperURL()
        process.arguments = [f.directory.file("showcase.sqlite").path, mode, "\(item)", "\(collection)", "\(index)"]
        let stdout = Pipe()
        process.standardOutput = stdout
        try process.run()
        defer {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        let line = try Self.readLine(from: stdout.fileHandleForReading.fileDescriptor, timeout: .seconds(20))
        #expect(kill(process.processIdentifier, SIGKILL) == 0)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGKILL)
        return line
    }

    /// Reads one line from `fd`, waiting with poll(2) until it arrives or `timeout` passes.
    private static func readLine(from fd: Int32, timeout: Duration) throws -> String {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var bytes: [UInt8] = []
        while !bytes.contains(UInt8(ascii: "\n")) {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else { throw HelperError.timedOut(String(decoding: bytes, as: UTF8.self)) }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            let ready = poll(&descriptor, 1, max(1, milliseconds))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { throw HelperError.endedEarly(String(decoding: bytes, as: UTF8.self)) }
            bytes += buffer[0..<count]
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return String(text.prefix { $0 != "\n" })
    }

    /// The helper executable, built next to the test bundle.
    private static func helperURL() throws -> URL {
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
            case .endedEarly(let partial): "the helper ended before saying where it was (said: \(partial.debugDescription))"
            }
        }
    }
}
