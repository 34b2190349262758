import DragDrop
@testable import DragDropGTK
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
            app: "other",
            representations: [Representation(.utf8PlainText) { .stream(ClosureSource(size: nil, next: source)) }])
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
            // Ended by the deadline, not by the source (which never ends); the bound is loose, as
            // a busy machine (parallel tests, two cores) delays the timer by seconds.
            #expect(Date().timeIntervalSince(started) < 30)
            let failure = DropLoading.failure(try #require(error), adding: .text)
            #expect(failure.message == "The text was not added: it was still arriving after 0.4 seconds.")
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
                "The text was not added: it is not valid text (invalid UTF-8 near byte 2)."
            ),
            (
                .tooLarge(type: "text/plain", limit: 800_000, size: 800_001),
                "The text was not added: it is larger than the 800 KB that can be taken here."
            ),
            (.cancelled, "The text was not added: the transfer was cancelled."),
        ]
        for (error, message) in cases {
            #expect(DropLoading.failure(error, adding: .text).message == message)
        }
        #expect(DropLoading.count(1_234_567) == "1,234,567" && DropLoading.count(999) == "999")
    }

    @Test("L1: a failed drop's sentence is a whole sentence of each language's catalog, its reason too")
    func messagesInOtherLanguages() {
        let large = TransferError.tooLarge(type: "text/plain", limit: 800_000, size: 800_001)
        let silent = TransferError.sourceUnavailable(
            Localization.withLanguage("ru") { ReadSilence.reason(after: 15) })
        let korean = Localization.withLanguage("ko") { DropLoading.failure(large, adding: .text).message }
        let russian = Localization.withLanguage("ru") { DropLoading.failure(silent, adding: .fileList).message }
        let japanese = Localization.withLanguage("ja") {
            DroppedImage.Problem.tooLarge(width: 30_000, height: 30_000).dropFailure.message
        }
        for (language, sentence) in [("ko", korean), ("ru", russian), ("ja", japanese)] {
            // Nothing of the English sentences is left: no English word of three letters or more.
            let english = sentence.split { !$0.isASCII || !$0.isLetter }.filter { $0.count >= 3 && $0 != "KB" }
            #expect(english.isEmpty, "\(language): \(sentence)")
            #expect(sentence.filter { $0 == "." || $0 == "。" }.count == 1, "\(language): one full stop: \(sentence)")
        }
        #expect(korean.contains("800KB"))
        // Russian counts its seconds with the form 15 takes: 15 секунд.
        #expect(russian.contains("15 секунд"))
        #expect(japanese.contains("30,000 × 30,000"))
    }

    @Test("L1: no sentence a person reads is written in English inside the engine's or the widgets' code")
    func noEnglishLiteralsInFailures() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        // A failure's message, an error's reason, a fallback: each must come from the catalogs.
        let patterns = [
            #"DropFailure\(\.[a-z]+, "[A-Za-z]"#, #"\.sourceUnavailable\("[A-Za-z]"#, #"reason: "[A-Za-z]"#,
            #"GIOFailure\(message: "[A-Za-z]"#, #"GIOFailure\(.*fallback: "[A-Za-z]"#,
        ]
        var found: [String] = []
        for folder in ["Sources/DragDrop", "Sources/DragDropGTK"] {
            let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            while let file = enumerator?.nextObject() as? String {
                guard file.hasSuffix(".swift") else { continue }
                let text = try String(contentsOf: root.appendingPathComponent("\(folder)/\(file)"), encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    for pattern in patterns where line.range(of: pattern, options: .regularExpression) != nil {
                        found.append("\(folder)/\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
        }
        #expect(found.isEmpty, "English written in code: \(found.joined(separator: "\n"))")
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
