import DragDrop
import Foundation
@testable import ShowcaseModel
import Testing

/// How long the big collections' edits take: printed, never asserted (speed is measured, not
/// tested), and left out of `make test` like the benchmarks:
/// `DRAGDROP_STORE_TIMINGS=1 swift test --package-path Apps --filter BigDataTimings` prints one
/// line per step.
@Suite("Showcase store, big collections: timings (printed)")
struct BigDataTimings {
    @Test(
        "Measurement: a move out of All Mail's 100,000 and back, a drop at its top, its undo and redo, a page at offset 99,000",
        .enabled(if: ProcessInfo.processInfo.environment["DRAGDROP_STORE_TIMINGS"] == "1"))
    func timings() throws {
        let directory = try TemporaryDirectory()
        let store = try ShowcaseStore(path: directory.file("showcase.sqlite").path)
        try store.insertBigDataIfNeeded()
        let allMail = try #require(try store.collection(pane: .mail, key: ShowcaseBigData.allMailKey)).id!
        let archive = try #require(try store.collection(pane: .mail, key: "archive")).id!
        let ids = try store.itemIDs(in: allMail)
        let clock = ContinuousClock()
        var lines: [String] = []
        func time<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
            var result: T?
            let elapsed = try clock.measure { result = try body() }
            lines.append(
                "\(name): \(elapsed.formatted(.units(allowed: [.milliseconds], fractionalPart: .show(length: 2))))")
            return result!
        }
        _ = try time("read All Mail's 100,000 ids") { try store.itemIDs(in: allMail) }
        _ = try time("read 128 rows at offset 0") { try store.items(in: allMail, positions: 0..<128) }
        let page = try time("read 128 rows at offset 99,000") {
            try store.items(in: allMail, positions: 99_000..<99_128)
        }
        #expect(page.map(\.id) == Array(ids[99_000..<99_128]))
        _ = try time("move the first message to Archive") { try store.move([ids[0]], to: archive) }
        _ = try time("move it back to All Mail's top") { try store.move([ids[0]], to: allMail, at: 0) }
        let drop = try time("drop an Archive message at All Mail's top") {
            store.performDrop(
                .move, of: [try store.itemIDs(in: archive)[0]], on: ShowcaseTargets.collection(allMail), at: 0,
                newItems: [])
        }
        guard case .committed(let undo?, _) = drop else {
            Issue.record("the drop did not commit with an undo: \(drop)")
            return
        }
        time("undo the drop") { undo.undo() }
        time("redo the drop") { undo.redo() }
        time("undo it again") { undo.undo() }
        _ = try time("move the last message to All Mail's top") {
            try store.move([ids[ids.count - 1]], to: allMail, at: 0)
        }
        _ = try time("remove the message at index 50,000") { try store.remove([ids[50_000]]) }
        #expect(try store.itemIDs(in: allMail).count == ids.count - 1)
        let before = try store.itemIDs(in: allMail)
        let scattered = stride(from: 5, to: before.count, by: 100).map { before[$0] }
        let many = try time("move 1,000 messages, every 100th, to Archive") { try store.move(scattered, to: archive) }
        time("undo that move") { many.action.undo() }
        #expect(try store.itemIDs(in: allMail) == before)
        #expect(try store.integrityProblems().isEmpty)
        print("BigDataTimings\n  " + lines.joined(separator: "\n  "))
    }
}
