import DragDrop
import DragDropGTK
import Foundation
import Testing

/// Loading another app's data without trusting it to end (A6): `DropLoading` gives up at its
/// deadline whether bytes trickle in forever or a read never returns, and says so in one
/// sentence. (On X11 a GTK source's bytes arrive in one piece, so the hostile-app tests meet a
/// trickling source as a silent one; these are the sources that do stream.)
@MainActor
@Suite("DropLoading: deadlines and messages", .serialized)
struct DropLoadingTests {
    /// A drop whose one item offers text through `source`, open as after the drop.
    func access(_ source: @escaping @Sendable (Int) async throws -> Data) -> DropDataAccess {
        let provider = ItemProvider(
            app: "other", representations: [Representation(.utf8PlainText) { .stream(ClosureSource(size: nil, next: source)) }])
        let access = DropDataAccess(providers: [provider], requester: "Showcase")
        access.open()
        return access
    }

    func withDeadline(_ seconds: Double, _ body: () async throws -> Void) async rethrows {
        let saved = DropLoading.deadline
        DropLoading.deadline = seconds
        defer { DropLoading.deadline = saved }
        try await body()
    }

    @Test("A6: a source trickling a byte every 20 ms forever is given up at the deadline, with the reason")
    func trickleIsGivenUp() async throws {
        try await withDeadline(0.4) {
            let started = Date()
            let error = await #expect(throws: TransferError.self) {
                _ = try await DropLoading.load(
                    self.access { _ in
                        try await Task.sleep(for: .milliseconds(20))
                        return Data("x".utf8)
                    }, item: 0, accepting: [.utf8PlainText])
            }
            #expect(error == .sourceUnavailable("it was still arriving after 0.4 seconds"))
            #expect(Date().timeIntervalSince(started) < 3)
            let failure = DropLoading.failure(try #require(error), adding: "The text")
            #expect(failure.message == "The text was still arriving after 0.4 seconds.")
        }
    }

    @Test("A6: a read that never returns is given up at the deadline too")
    func silentReadIsGivenUp() async {
        await withDeadline(0.3) {
            let error = await #expect(throws: TransferError.self) {
                _ = try await DropLoading.load(
                    self.access { _ in
                        try? await Task.sleep(for: .seconds(3600))
                        return Data()
                    }, item: 0, accepting: [.utf8PlainText])
            }
            #expect(error == .sourceUnavailable("it was still arriving after 0.3 seconds"))
        }
    }

    @Test("A6: a source that ends in time is read whole")
    func finishedSourceLoads() async throws {
        let chunks = ChunkCounter()
        let loaded = try await DropLoading.load(
            access { _ in chunks.next() < 3 ? Data("abc".utf8) : Data() }, item: 0, accepting: [.utf8PlainText])
        #expect(loaded == .data(.utf8PlainText, Data("abcabcabc".utf8)))
    }

    @Test("Every failure is one sentence with one full stop, the reason in plain words")
    func messages() {
        let cases: [(TransferError, String)] = [
            (
                .sourceUnavailable("nothing arrived from the other app for 15 seconds"),
                "The text was not added: nothing arrived from the other app for 15 seconds."
            ),
            (
                .malformed(type: "text/plain;charset=utf-8", reason: "invalid UTF-8 near byte 2"),
                "The text is not valid text (invalid UTF-8 near byte 2)."
            ),
            (.tooLarge(type: "text/plain", limit: 800_000, size: 800_001), "The text is larger than the 800 KB that can be taken here."),
            (.cancelled, "The text was not added: the transfer was cancelled."),
        ]
        for (error, message) in cases {
            #expect(DropLoading.failure(error, adding: "The text").message == message)
        }
        #expect(DropLoading.count(1_234_567) == "1,234,567" && DropLoading.count(999) == "999")
    }
}

/// Counts the chunks a test source handed out.
final class ChunkCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count - 1
    }
}
