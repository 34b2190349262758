import Foundation
import DriverProtocol
import WindowDriver
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
            try waitForDropStatus(app, after: mark, timeout: 8)
            #expect(Date().timeIntervalSince(start) < 6, "the drop took \(Date().timeIntervalSince(start)) s")
            let state = try app.waitForState("the word in the note", after: mark) { noteHTML($0, note).contains("Quarterly") }
            #expect(noteHTML(state, note).count > before.count)
            let committed = try committedEvent(in: app, from: mark)
            #expect(committed.operation == "copy")
            let said = statuses(app, from: mark)
            #expect(said.contains("Copied 'Text from draggabletext' to \(note)."), "\(said)")
            #expect(said.allSatisfy(endsWithOneFullStop), "\(said)")
            #expect(!said.contains { $0.hasPrefix("Not dropped") }, "\(said)")
            // Saved, and Qt was told the drop was taken (XdndFinished).
            #expect(try storedNote(data, note)?.text.contains("Quarterly") == true)
            #expect(qt.log.contains("received XdndFinished"), "\(qt.log.suffix(600))")
        }
    }

    /// The drop site's formats table as (format, content) rows, from its cells in reading order.
    func dropSiteRows(_ nodes: [AccessibleNode]) -> [(format: String, content: String)] {
        let cells = nodes.filter { $0.role == "table cell" }.map(\.shown)
        return stride(from: 0, to: cells.count - 1, by: 2).map { (cells[$0], cells[$0 + 1]) }
    }

    @Test(
        "S1, A2, A7, P5: styled text dragged from a note into Qt's drop site arrives as text/html (bold kept) and plain text, and no type private to our app reaches Qt"
    )
    func noteIntoQtDropSite() throws {
        try withPeers(pane: "notes") { session, app, pointer, _ in
            let qt = try session.launch(.qtDropSite, at: Self.peerOrigin)
            let area = try qt.find("its drop area") { $0.role == "label" && $0.name == "<drop content>" }
            let layout = try app.settledLayout(pane: "notes")
            let word = try layout.row("Bake", in: "Sourdough")
            try pointer.doubleClick(at: word.center)
            let mark = app.lineCount
            try pointer.drag(from: word.center, to: try #require(area.frame).center)
            let nodes = try qt.waitFor("the dropped formats") { nodes in
                dropSiteRows(nodes).contains { $0.format == "text/html" }
            }
            let rows = dropSiteRows(nodes)
            let formats = rows.map(\.format)
            #expect(formats.contains("text/plain"), "\(rows)")
            #expect(rows.first { $0.format == "text/html" }?.content.contains("<b>Bake</b>") == true, "\(rows)")
            #expect(rows.first { $0.format == "text/plain" }?.content == "Bake", "\(rows)")
            // P5: nothing but the standard types; no marker or native type of ours.
            #expect(!formats.contains { $0.hasPrefix("application/x-dragdrop") || $0.hasPrefix("application/x-showcase") }, "\(formats)")
            #expect(Set(formats).isSubset(of: ["text/html", "text/plain", "text/plain;charset=utf-8"]), "\(formats)")
            // Qt took it: the drop area shows the word, our side handed it off as a copy.
            try qt.waitFor("the word in its drop area") { $0.contains { $0.role == "label" && $0.shown.contains("Bake") } }
            let outcome = try app.waitFor(FeedbackLine.self, "our outcome", after: mark) { $0.event == "outcome" }
            #expect(outcome.outcome == "handedOff")
            #expect(outcome.app == "dropsite")
            #expect(try waitForDropStatus(app, after: mark) == "Copied 'Selected text in Sourdough' to dropsite.")
            let said = statuses(app, from: mark)
            #expect(said.allSatisfy(endsWithOneFullStop), "\(said)")
        }
    }

    @Test(
        "S1, A2, P5: a photo from our Web Page (its own process) and a file from Files reach Qt's drop site as image/png (a PNG's bytes) and text/uri-list (the file's URL), with no private type"
    )
    func photoAndFileIntoQtDropSite() throws {
        try withPeers(pane: "files") { session, app, pointer, data in
            let qt = try session.launch(.qtDropSite, at: Self.peerOrigin)
            let area = try #require(try qt.find("its drop area") { $0.role == "label" && $0.name == "<drop content>" }.frame)
            // A file from the Files pane.
            let layout = try app.settledLayout(pane: "files")
            let name = "Budget 2026.csv"
            var mark = app.lineCount
            try pointer.drag(from: try layout.row(name, in: "Documents").center, to: area.center)
            var rows = dropSiteRows(
                try qt.waitFor("the dropped file") { dropSiteRows($0).contains { $0.format == "text/uri-list" } })
            // Qt shows the URL decoded.
            let url = "file://" + URL(fileURLWithPath: data).appendingPathComponent("Files/Documents/\(name)").path
            #expect(rows.first { $0.format == "text/uri-list" }?.content.trimmingCharacters(in: .whitespaces) == url, "\(rows)")
            #expect(Set(rows.map(\.format)).isSubset(of: ["text/uri-list", "text/plain"]), "\(rows)")
            #expect(try app.waitFor(FeedbackLine.self, "our outcome", after: mark) { $0.event == "outcome" }.outcome == "handedOff")

            // A photo from the Web Page, a second process of ours.
            try withWebPage(on: session.display, at: (1400, 20)) { page in
                let photo = try page.settledLayout(pane: "page").list("Beach")
                mark = page.lineCount
                try pointer.drag(from: photo.center, to: area.center)
                rows = dropSiteRows(try qt.waitFor("the dropped photo") { dropSiteRows($0).contains { $0.format == "image/png" } })
                #expect(rows.first { $0.format == "image/png" }?.content.hasPrefix("89 50 4E 47 0D 0A 1A 0A") == true, "\(rows)")
                // Qt adds its own application/x-qt-image for any image; nothing of ours.
                #expect(
                    !rows.contains { $0.format.hasPrefix("application/x-dragdrop") || $0.format.hasPrefix("application/x-showcase") },
                    "\(rows.map(\.format))")
                let outcome = try page.waitFor(FeedbackLine.self, "the page's outcome", after: mark) { $0.event == "outcome" }
                #expect(outcome.outcome == "handedOff")
                #expect(outcome.app == "dropsite")
            }
        }
    }

    @Test(
        "A7, S1: a rich document selected in Qt's text editor arrives in a note with its bold and italic (Qt writes them as CSS in spans)"
    )
    func styledTextFromQtIntoNote() throws {
        try withPeers(pane: "notes") { session, app, pointer, data in
            let qt = try session.launch(.qtTextEdit, at: Self.peerOrigin)
            let editor = try qt.find("its document") { $0.role == "text" && ($0.text ?? "").hasPrefix("QTextEdit") }
            let frame = try #require(editor.frame)
            try pointer.click(at: (frame.x + 40, frame.y + 120))
            try pointer.key("ctrl+a")
            let note = "Book club: March"
            let target = try app.settledLayout(pane: "notes").list(note)
            let mark = app.lineCount
            try pointer.drag(from: (frame.x + 60, frame.y + 120), to: (target.midX, target.maxY - 20))
            let state = try app.waitForState("the document in the note", after: mark, timeout: 10) {
                noteHTML($0, note).contains("advanced editor")
            }
            let html = noteHTML(state, note)
            #expect(html.contains("<b>QTextEdit</b>"), "\(html.prefix(400)) \(messages(app, from: mark).filter { $0.hasPrefix("external") })")
            #expect(html.contains("<i>textedit</i>"), "\(html.prefix(900))")
            #expect(!html.contains("font-weight") && !html.contains("<span"), "no markup as text")
            let stored = try #require(try storedNote(data, note))
            #expect(stored.runs.contains { $0.styles.contains("bold") && $0.length == "QTextEdit".count })
            let committed = try committedEvent(in: app, from: mark)
            #expect(committed.operation == "copy")
            #expect(try waitForDropStatus(app, after: mark) == "Copied 'Text from Rich Text' to \(note).")
        }
    }

    @Test(
        "S2, F4: Qt's dragdroprobot lets its swatches only be moved (QDrag::exec's default): nothing here lights up or takes them, since content from another app is only ever copied"
    )
    func moveOnlyDragIsNotTaken() throws {
        try withPeers(pane: "notes") { session, app, pointer, data in
            let qt = try session.launch(.qtRobot, at: Self.peerOrigin)
            let note = "Book club: March"
            let before = try storedNote(data, note)?.text
            let target = try app.settledLayout(pane: "notes").list(note)
            let mark = app.lineCount
            // The first swatch on the circle around the robot (window coordinates: the scene is
            // not read by assistive technology); its first drags are a colour and its name as text.
            try pointer.drag(from: qt.point(200, 50), to: (target.midX, target.maxY - 20))
            let refused = try app.waitFor(GtkLine.self, "the refusal", after: mark) {
                $0.message.hasPrefix("external drag refused")
            }
            #expect(refused.message == "external drag refused: dragdroprobot allows only moving it")
            usleep(300_000)
            #expect(events("lifted", in: app, from: mark).isEmpty)
            #expect(events("highlightOn", in: app, from: mark).isEmpty, "F4: nothing lit up")
            #expect(try storedNote(data, note)?.text == before)
            #expect(!qt.log.contains("sending drop to target"), "Qt saw the refusal: \(qt.log.suffix(400))")
        }
    }

    @Test(
        "F4, F7, S1: icons from Qt's draggableicons offer only Qt's private application/x-dnditemdata: no destination here lights up, the drop is refused, nothing changes and Qt keeps its icon"
    )
    func privateIconsAreRefused() throws {
        try withPeers(pane: "notes") { session, app, pointer, data in
            let qt = try session.launch(.qtDraggableIcons, at: Self.peerOrigin)
            let note = "Book club: March"
            let before = noteHTML(app.state, note)
            let storedBefore = try storedNote(data, note)?.text
            let target = try app.settledLayout(pane: "notes").list(note)
            let mark = app.lineCount
            try pointer.drag(from: qt.point(58, 48), to: (target.midX, target.maxY - 20))
            // Our windows told Qt they take none of its types (XdndStatus), so Qt never dropped.
            // (Qt entered its own window, then ours.)
            let entered = qt.log.components(separatedBy: "sending XdndEnter to target").count - 1
            #expect(entered >= 2, "\(qt.log.suffix(600))")
            #expect(!qt.log.contains("sending drop to target"), "\(qt.log.suffix(600))")
            usleep(300_000)
            #expect(events("lifted", in: app, from: mark).isEmpty, "no session for content nobody here takes")
            #expect(events("highlightOn", in: app, from: mark).isEmpty, "F4: nothing lit up")
            #expect(events("committed", in: app, from: mark).isEmpty)
            #expect(noteHTML(app.state, note) == before)
            #expect(try storedNote(data, note)?.text == storedBefore)
            #expect(qt.log.contains("received XdndFinished") || qt.log.contains("XdndStatus"), "\(qt.log.suffix(400))")
            let said = statuses(app, from: mark)
            #expect(said.allSatisfy(endsWithOneFullStop), "\(said)")
        }
    }
}
