import Foundation
import ShowcaseDriver
import ShowcaseModel
import Testing

/// Drags between the showcase and Qt 5 apps nobody here wrote (qtbase5-examples), both ways,
/// with real pointer events over X11 drag and drop. Our side is read from the showcase's JSON
/// lines, status line and store; Qt's side through assistive technology (AT-SPI), the way a
/// screen reader reads its window.
@Suite(
    "Interop: Qt 5", .serialized,
    .enabled(if: PeerSession.missing == nil, "\(PeerSession.missing ?? ""): interop tests skipped."),
    .enabled(if: PeerProgram.qtDropSite.isInstalled, "qtbase5-examples is not installed (apt-get install qtbase5-examples).")
)
struct InteropQtTests: InteropTesting {
    @Test(
        "S1, S2, A6: a word dragged from Qt's draggabletext into a note arrives at once as a copy, named after its app (issue 11: it waited 15 s, then failed)"
    )
    func wordFromQtIntoNote() throws {
        try withPeers(pane: "notes") { session, app, pointer, data in
            let qt = try session.launch(.qtDraggableText, at: Self.peerOrigin)
            let word = try qt.find("the word 'Quarterly'") { $0.role == "label" && $0.name == "Quarterly" }
            let note = "Book club: March"
            let before = noteHTML(app.state, note)
            let target = try app.settledLayout(pane: "notes").list(note)
            let mark = app.lineCount
            let start = Date()
            try pointer.drag(from: try #require(word.frame).center, to: (target.midX, target.maxY - 20))
            try app.waitFor("the drop's outcome", after: mark, timeout: 8) {
                $0["kind"] as? String == "status" && ($0["text"] as? String)?.hasPrefix("Adding") == false
                    && ($0["text"] as? String)?.hasPrefix("Over") == false
            }
            #expect(Date().timeIntervalSince(start) < 6, "the drop took \(Date().timeIntervalSince(start)) s")
            let state = try app.waitForState("the word in the note", after: mark) { noteHTML($0, note).contains("Quarterly") }
            #expect(noteHTML(state, note).count > before.count)
            #expect(events("committed", in: app, from: mark).first?["operation"] as? String == "copy")
            let said = statuses(app, from: mark)
            #expect(said.contains("Copied 'Text from draggabletext' to \(note)."), "\(said)")
            #expect(said.allSatisfy(endsWithOneFullStop), "\(said)")
            #expect(!said.contains { $0.hasPrefix("Not dropped") }, "\(said)")
            // Saved, and Qt was told the drop was taken (XdndFinished).
            #expect(try storedNote(data, note)?.text.contains("Quarterly") == true)
            #expect(qt.log.contains("received XdndFinished"), "\(qt.log.suffix(600))")
        }
    }
}
