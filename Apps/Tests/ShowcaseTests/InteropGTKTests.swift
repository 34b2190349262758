import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel
import Testing

/// Drags between the showcase and GTK 3 and GTK 4 apps nobody here wrote (gtk3-demo and
/// gtk4-demo), both ways, with real pointer events over X11 drag and drop. Our side is read
/// from the showcase's JSON lines, status line and store; the demos' side through assistive
/// technology (AT-SPI).
@Suite(
    "Interop: GTK 3 and GTK 4", .serialized,
    .enabled(if: PeerSession.missing == nil, "\(PeerSession.missing ?? ""): interop tests skipped.")
)
struct InteropGTKTests: InteropTesting {
    static let gtk3Clipboard = PeerProgram.gtk3Demo("clipboard", window: "Clipboard")
    static let gtk4Clipboard = PeerProgram.gtk4Demo("clipboard", window: "Clipboard")

    // MARK: GTK 3

    @Test(
        "S1, S2: text typed and selected in gtk3-demo's entry, dragged into a note, arrives as a copy and is saved",
        .enabled(if: gtk3Clipboard.isInstalled, "gtk3-demo is not installed (apt-get install gtk-3-examples).")
    )
    func gtk3TextIntoNote() throws {
        try withPeers(pane: "notes") { session, app, pointer, data in
            let gtk = try session.launch(Self.gtk3Clipboard, at: Self.peerOrigin)
            let entry = try #require(try gtk.find("its first entry") { $0.role == "text" }.frame)
            try gtk.focus(session.display)
            try pointer.click(at: entry.center)
            try pointer.type("Hello from GTK 3")
            try pointer.key("ctrl+a")
            try gtk.waitFor("the typed text") { $0.contains { $0.role == "text" && $0.text == "Hello from GTK 3" } }
            usleep(600_000)  // past the double-click time: the press below starts a drag
            let note = "Book club: March"
            let target = try app.settledLayout(pane: "notes").list(note)
            let mark = app.lineCount
            try pointer.drag(from: (entry.x + 30, entry.midY), to: (target.midX, target.maxY - 20))
            try app.waitForState("the text in the note", after: mark, timeout: 8) {
                noteHTML($0, note).contains("Hello from GTK 3")
            }
            let committed = try committedEvent(in: app, from: mark)
            #expect(committed.operation == "copy")
            #expect(try storedNote(data, note)?.text.contains("Hello from GTK 3") == true)
            try app.waitFor(StatusLine.self, "the status", after: mark) {
                $0.text.hasPrefix("Copied 'Text from ")
            }
            let said = statuses(app, from: mark)
            #expect(said.last?.lowercased() == "copied 'text from gtk3-demo' to book club: march.", "\(said)")
            #expect(said.allSatisfy(endsWithOneFullStop), "\(said)")
        }
    }

    @Test(
        "S1, A7: a word dragged from a note into gtk3-demo's entry appears there as plain text (an entry has no styles)",
        .enabled(if: gtk3Clipboard.isInstalled, "gtk3-demo is not installed (apt-get install gtk-3-examples).")
    )
    func noteIntoGtk3Entry() throws {
        try withPeers(pane: "notes") { session, app, pointer, _ in
            let gtk = try session.launch(Self.gtk3Clipboard, at: Self.peerOrigin)
            let entries = try gtk.waitFor("its two entries") { $0.filter { $0.role == "text" }.count == 2 }
                .filter { $0.role == "text" }
            let paste = try #require(entries[1].frame)
            let word = try app.settledLayout(pane: "notes").row("Bake", in: "Sourdough")
            try pointer.doubleClick(at: word.center)
            let mark = app.lineCount
            try pointer.drag(from: word.center, to: paste.center)
            try gtk.waitFor("the word in its second entry") { nodes in
                nodes.filter { $0.role == "text" }.dropFirst().first?.text == "Bake"
            }
            let outcome = try app.waitFor(FeedbackLine.self, "our outcome", after: mark) { $0.event == "outcome" }
            #expect(outcome.outcome == "handedOff")
            #expect((outcome.app)?.lowercased() == "gtk3-demo")
            #expect(messages(app, from: mark).contains { $0.hasPrefix("export done mime=text/plain;charset=utf-8") })
        }
    }

    @Test(
        "S1, A2: gtk3-demo's warning icon dragged into the message arrives as an image/png of the icon",
        .enabled(if: gtk3Clipboard.isInstalled, "gtk3-demo is not installed (apt-get install gtk-3-examples).")
    )
    func gtk3ImageIntoMessage() throws {
        try withPeers(pane: "web-mail") { session, app, pointer, _ in
            let gtk = try session.launch(Self.gtk3Clipboard, at: Self.peerOrigin)
            let icon = try #require(try gtk.find("its warning icon") { $0.role == "icon" && $0.name == "Warning" }.frame)
            let body = try app.settledLayout(pane: "web-mail").list("Body")
            let mark = app.lineCount
            try pointer.drag(from: icon.center, to: body.center)
            let state = try app.waitFor(StateLine.self, "the image in the message", after: mark, timeout: 8) {
                $0.received?.type == "image/png"
            }
            let received = try #require(state.received)
            #expect(received.size > 100)
            #expect((received.from)?.lowercased() == "gtk3-demo")
            #expect(received.operation == "copy")
            #expect(statuses(app, from: mark).allSatisfy(endsWithOneFullStop), "\(statuses(app, from: mark))")
        }
    }

    @Test(
        "S1, A2: a photo from our Web Page dropped on gtk3-demo's stop icon replaces it with the photo (160×110)",
        .enabled(if: gtk3Clipboard.isInstalled, "gtk3-demo is not installed (apt-get install gtk-3-examples).")
    )
    func photoIntoGtk3() throws {
        try withPeers(pane: "web-mail") { session, _, pointer, _ in
            let gtk = try session.launch(Self.gtk3Clipboard, at: Self.peerOrigin)
            let stop = try #require(try gtk.find("its stop icon") { $0.role == "icon" && $0.name == "Stop" }.frame)
            try withWebPage(on: session.display, at: (1040, 300)) { page in
                let photo = try page.settledLayout(pane: "page").list("Beach")
                let mark = page.lineCount
                try pointer.drag(from: photo.center, to: stop.center)
                try gtk.waitFor("the photo in place of its stop icon") { nodes in
                    nodes.contains { $0.role == "icon" && $0.imageSize.map { $0 == (160, 110) } == true }
                }
                let outcome = try page.waitFor(FeedbackLine.self, "the page's outcome", after: mark) { $0.event == "outcome" }
                #expect(outcome.outcome == "handedOff")
                #expect(page.messages(from: mark).contains { $0.hasPrefix("export done mime=image/png") })
            }
        }
    }

    @Test(
        "S1: a file dragged from Files onto gtk3-demo's file button (Pickers) is chosen there: the button shows its name",
        .enabled(if: gtk3Clipboard.isInstalled, "gtk3-demo is not installed (apt-get install gtk-3-examples).")
    )
    func fileIntoGtk3Picker() throws {
        try withPeers(pane: "files") { session, app, pointer, _ in
            let gtk = try session.launch(.gtk3Demo("pickers", window: "Pickers"), at: Self.peerOrigin)
            // The file button is the row labelled "File:" (the folder button above it looks alike).
            let label = try #require(try gtk.find("its File: label") { $0.role == "label" && $0.name == "File:" }.frame)
            let button = try #require(
                try gtk.find("its file button") { node in
                    node.role == "push button" && node.frame.map { abs($0.midY - label.midY) < 12 } == true
                }.frame)
            let name = "Budget 2026.csv"
            let row = try app.settledLayout(pane: "files").row(name, in: "Documents")
            let mark = app.lineCount
            try pointer.drag(from: row.center, to: button.center)
            try gtk.waitFor("the file chosen") { nodes in
                nodes.contains { $0.role == "push button" && $0.name == name && $0.frame.map { abs($0.midY - label.midY) < 12 } == true }
            }
            #expect(messages(app, from: mark).contains { $0.hasPrefix("export done mime=text/uri-list") })
            let outcome = try app.waitFor(FeedbackLine.self, "our outcome", after: mark) { $0.event == "outcome" }
            #expect(outcome.outcome == "handedOff")
        }
    }

    // MARK: GTK 4

    /// gtk4-demo's clipboard window shows what a drop brought below its separator: a label
    /// naming the kind ("Text", "Image", "File") and the content (GTK 4.8 names a label by its text).
    func gtk4Shows(_ nodes: [AccessibleNode], kind: String, _ content: ((String) -> Bool)? = nil) -> Bool {
        let labels = nodes.filter { $0.role == "label" }.map(\.name)
        guard labels.contains(kind) else { return false }
        guard let content else { return true }
        return labels.contains(where: content)
    }

    @Test(
        "S1, S2: gtk4-demo's text ('Copy this!') dragged into a note arrives as a copy and is saved",
        .enabled(if: gtk4Clipboard.isInstalled, "gtk4-demo is not installed (apt-get install gtk-4-examples).")
    )
    func gtk4TextIntoNote() throws {
        try withPeers(pane: "notes") { session, app, pointer, data in
            let gtk = try session.launch(Self.gtk4Clipboard, at: Self.peerOrigin)
            let entry = try #require(try gtk.find("its entry") { $0.role == "text" }.frame)
            try pointer.click(at: (entry.x + 20, entry.midY), count: 3)
            usleep(800_000)
            let note = "Book club: March"
            let target = try app.settledLayout(pane: "notes").list(note)
            let mark = app.lineCount
            try pointer.drag(from: (entry.x + 20, entry.midY), to: (target.midX, target.maxY - 20))
            try app.waitForState("the text in the note", after: mark, timeout: 8) { noteHTML($0, note).contains("Copy this!") }
            let committed = try committedEvent(in: app, from: mark)
            #expect(committed.operation == "copy")
            #expect(try storedNote(data, note)?.text.contains("Copy this!") == true)
            #expect(statuses(app, from: mark).allSatisfy(endsWithOneFullStop), "\(statuses(app, from: mark))")
        }
    }

    @Test(
        "S1, A2: a word from a note, a photo from our Web Page and a file from Files dropped on gtk4-demo arrive as text, an image and a file",
        .enabled(if: gtk4Clipboard.isInstalled, "gtk4-demo is not installed (apt-get install gtk-4-examples).")
    )
    func ourContentIntoGtk4() throws {
        try withPeers(pane: "notes") { session, app, pointer, data in
            let gtk = try session.launch(Self.gtk4Clipboard, at: Self.peerOrigin)
            // The row below the separator takes drops (right of its Paste button).
            let paste = try #require(try gtk.find("its Paste button") { $0.role == "push button" && $0.name.contains("Paste") }.frame)
            let dropRow: ScreenPoint = (paste.maxX + 120, paste.midY)

            let word = try app.settledLayout(pane: "notes").row("Bake", in: "Sourdough")
            try pointer.doubleClick(at: word.center)
            var mark = app.lineCount
            try pointer.drag(from: word.center, to: dropRow)
            try gtk.waitFor("the word as text") { gtk4Shows($0, kind: "Text") { $0 == "Bake" } }
            #expect(try app.waitFor(FeedbackLine.self, "our outcome", after: mark) { $0.event == "outcome" }.outcome == "handedOff")

            try withWebPage(on: session.display, at: (1040, 300)) { page in
                let photo = try page.settledLayout(pane: "page").list("Beach")
                let pageMark = page.lineCount
                try pointer.drag(from: photo.center, to: dropRow)
                try gtk.waitFor("the photo as an image") { gtk4Shows($0, kind: "Image") }
                #expect(page.messages(from: pageMark).contains { $0.hasPrefix("export done mime=image/png") })
            }

            try pointer.click(at: try app.settledLayout(pane: "notes").sidebar["files"].map(\.center) ?? (100, 440))
            let files = try app.settledLayout(pane: "files")
            let name = "Budget 2026.csv"
            mark = app.lineCount
            try pointer.drag(from: try files.row(name, in: "Documents").center, to: dropRow)
            let path = URL(fileURLWithPath: data).appendingPathComponent("Files/Documents/\(name)").path
            try gtk.waitFor("the file") { gtk4Shows($0, kind: "File") { $0.hasSuffix(name) || $0 == path } }
            #expect(messages(app, from: mark).contains { $0.hasPrefix("export done mime=text/uri-list") })
        }
    }
}
