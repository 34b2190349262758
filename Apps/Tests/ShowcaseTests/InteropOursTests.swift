import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel
import Testing

/// Drags between two processes of ours (two showcases, each with its own data): the other app
/// is ourselves, so both ends are read from JSON lines and stores.
@Suite(
    "Interop: a second process of ours", .serialized,
    .enabled(if: Tools.xvfb != nil && Tools.xdotool != nil, "Xvfb or xdotool is not installed (run `make deps`).")
)
struct InteropOursTests: InteropTesting {
    @Test(
        "S1, S2, A7, P5: styled text dragged from a note in one showcase into a note in another arrives bold, as a copy; the source keeps it; only standard types cross"
    )
    func styledTextBetweenShowcases() throws {
        try withPeers(pane: "notes") { session, app, pointer, _ in
            try withOtherShowcase(on: session.display, pane: "notes", at: (1020, 0)) { other, otherData in
                let word = try app.settledLayout(pane: "notes").row("Bake", in: "Sourdough")
                try pointer.doubleClick(at: word.center)
                let note = "Book club: March"
                let target = try other.settledLayout(pane: "notes").list(note)
                let mark = app.lineCount
                let otherMark = other.lineCount
                try pointer.drag(from: word.center, to: (target.midX, target.maxY - 20))
                let state = try other.waitForState("the word in the other's note", after: otherMark, timeout: 8) {
                    noteHTML($0, note).contains("<b>Bake</b>")
                }
                #expect(noteHTML(state, note).contains("<b>Bake</b>"))
                let stored = try #require(try storedNote(otherData, note))
                #expect(stored.runs.contains { $0.styles.contains("bold") && $0.length == 4 })
                // This app offered only standard types and still has its word (a copy, S2).
                let offer = messages(app, from: mark).first { $0.hasPrefix("offer ") } ?? ""
                #expect(offer == "offer [\"text/html\", \"text/plain;charset=utf-8\", \"text/plain\"]", "\(offer)")
                let outcome = try app.waitFor(FeedbackLine.self, "our outcome", after: mark) { $0.event == "outcome" }
                #expect(outcome.outcome == "handedOff")
                #expect(noteHTML(app.state, "Sourdough").contains("<b>Bake</b>"))
                try other.waitFor(StatusLine.self, "the other's status", after: otherMark) {
                    $0.text.hasPrefix("Copied")
                }
                let committed = try committedEvent(in: other, from: otherMark)
                #expect(committed.operation == "copy")
                #expect(statuses(other, from: otherMark).allSatisfy(endsWithOneFullStop), "\(statuses(other, from: otherMark))")
            }
        }
    }
}
