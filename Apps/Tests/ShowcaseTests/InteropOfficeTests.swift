import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Styled text dragged from LibreOffice Writer 7.4 (its GTK 3 plug-in, over X11 drag and drop)
/// into a note, with the real pointer. Writer offers its own formats, RTF, HTML and plain text;
/// its HTML and RTF end with a NUL byte (a C string's terminator), which refused every drop
/// until the terminator was left out and a form failing its checks gave way to the next
/// (docs/interop.md, "Text from LibreOffice").
@Suite(
    "Interop: office", .serialized,
    .enabled(if: PeerSession.missing == nil, "\(PeerSession.missing ?? ""): interop tests skipped.")
)
struct InteropOfficeTests: InteropTesting {
    static var soffice: String? { Tools.find("soffice") }

    /// A line of Writer text with a bold and an italic part, large enough to grab.
    static let document = #"{\rtf1\ansi\deff0 {\fonttbl {\f0 Liberation Serif;}}\f0\fs48 Plain then {\b bold words} and {\i italic}.\par}"#

    /// On Wayland Writer's window cannot be resized from outside: its profile gives the size
    /// (else it fills the screen).
    static let waylandWindow =
        #"<item oor:path="/org.openoffice.Setup/Office/Factories/org.openoffice.Setup:Factory['com.sun.star.text.TextDocument']"><prop oor:name="ooSetupFactoryWindowAttributes" oor:op="fuse"><value>1040,20,1000,700;1;0,0,0,0;</value></prop></item>"#

    /// Writer showing `document` in its own window at `peerOrigin`, 1000 × 700, with a private
    /// profile that shows no tip of the day; returns where its text is on the screen.
    private func withWriter(
        _ session: PeerSession, _ body: (_ text: ScreenRect, _ window: String) throws -> Void
    ) throws {
        let soffice = try #require(Self.soffice)
        let folder = session.runtime.appendingPathComponent("writer")
        let user = folder.appendingPathComponent("profile/user")
        try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
        <item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="ShowTipOfTheDay" oor:op="fuse"><value>false</value></prop></item>
        <item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="FirstRun" oor:op="fuse"><value>false</value></prop></item>
        \(session.display.backend == .wayland ? Self.waylandWindow : "")
        </oor:items>
        """.write(to: user.appendingPathComponent("registrymodifications.xcu"), atomically: true, encoding: .utf8)
        let document = folder.appendingPathComponent("Phrase.rtf")
        try Self.document.write(to: document, atomically: true, encoding: .utf8)
        let log = open(folder.appendingPathComponent("soffice.log").path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        defer { if log >= 0 { close(log) } }
        let writer = try ChildProcess(
            soffice,
            [
                "-env:UserInstallation=\(folder.appendingPathComponent("profile").absoluteString)", "--norestore",
                "--nologo", "--writer", document.path,
            ],
            environment: session.environment.merging(["SAL_USE_VCLPLUGIN": "gtk3"]) { $1 }, stdout: log, stderr: log)
        defer { writer.stop() }
        let name = "Phrase.rtf - LibreOffice Writer"
        _ = try session.display.placeWindow(named: "^\(name)$", at: Self.peerOrigin)
        // On X11 the window is sized here; on Wayland the profile's window attributes size it.
        if session.display.backend == .x11 {
            try session.display.xdotool(["search", "--name", "^\(name)$", "windowsize", "--sync", "1000", "700"])
        }
        let window = try session.display.placeWindow(named: "^\(name)$", at: Self.peerOrigin)
        // The text: the dark pixels on the white page, below the toolbars and rulers.
        let page = ScreenRect(x: window.x + 60, y: window.y + 190, width: 760, height: 220)
        try body(try darkText(on: session.display, in: page, minWidth: 300), name)
    }

    @Test(
        "S1, S2, A2, A7: a line selected in LibreOffice Writer and dragged to the end of a note arrives as a copy with its bold and italic, spaced from the word before it; Writer's HTML ends with a NUL byte",
        .enabled(if: soffice != nil, "LibreOffice is not installed (apt-get install libreoffice-writer libreoffice-gtk3).")
    )
    func styledLineFromWriterIntoNote() throws {
        try withPeers(pane: "notes") { session, app, pointer, data in
            try withWriter(session) { text, window in
                if session.display.backend == .wayland {
                    // weston gives the keyboard to the window clicked.
                    try pointer.click(at: (text.midX, text.maxY + 60))
                } else {
                    try session.display.xdotool(
                        ["mousemove", String(Int(text.midX)), String(Int(text.maxY + 60)), "search", "--name",
                         "^\(window)$", "windowfocus", "--sync"])
                }
                try pointer.key("ctrl+a")
                usleep(500_000)
                let note = "Book club: March"
                let before = try #require(try storedNote(data, note)?.text)
                let target = try app.settledLayout(pane: "notes").list(note)
                let mark = app.lineCount
                // Pressed on the selected words, dragged to the end of the note.
                try pointer.drag(
                    from: (text.x + text.width * 0.4, text.midY), to: (target.midX, target.maxY - 20), steps: 14,
                    pause: 0.4)
                let status = try app.waitFor(StatusLine.self, "the drop's status", after: mark, timeout: 15) {
                    $0.text.hasPrefix("Copied") || $0.text.hasPrefix("Not dropped")
                }
                // X11 names the app the drag came from; on Wayland nothing does.
                let from = session.display.backend == .wayland ? "another app" : "Soffice"
                #expect(status.text == "Copied 'Text from \(from)' to Book club: March.", "\(status.text)")
                let state = try app.waitForState("Writer's line in the note", after: mark) {
                    noteHTML($0, note).contains("<b>bold words</b>")
                }
                #expect(
                    noteHTML(state, note).hasSuffix("Stevens. Plain then <b>bold words</b> and <i>italic</i>."),
                    "A7: bold and italic kept, no NUL, no source white space, a space before it: \(noteHTML(state, note))")
                #expect(try committedEvent(in: app, from: mark).operation == "copy")
                #expect(try storedNote(data, note)?.text == before + " Plain then bold words and italic.")
            }
        }
    }

    /// Writer's paragraphs as assistive technology reads them (text and bold runs), once one
    /// of them satisfies `predicate`.
    private func writerParagraphs(
        _ session: PeerSession, _ what: String, timeout: Double = 15, where predicate: (AccessibleNode) -> Bool
    ) throws -> [AccessibleNode] {
        let deadline = Date().addingTimeInterval(timeout)
        var paragraphs: [AccessibleNode] = []
        while true {
            paragraphs = try AccessibleTree.read("soffice", environment: session.environment).filter { $0.role == "paragraph" }
            if paragraphs.contains(where: predicate) { return paragraphs }
            guard Date() < deadline else {
                throw DriverError("Writer never showed \(what) within \(timeout) s; its paragraphs: \(paragraphs)")
            }
            usleep(300_000)
        }
    }

    @Test(
        "S1, A2, A7: a note's text with a bold word and Korean, Japanese and Russian typed at its end, selected with Ctrl+A and dropped at the end of a line in LibreOffice Writer, arrives there character for character with only that word bold",
        .enabled(if: soffice != nil, "LibreOffice is not installed (apt-get install libreoffice-writer libreoffice-gtk3).")
    )
    func styledNoteIntoWriter() throws {
        try withPeers(pane: "notes") { session, app, pointer, data in
            try withWriter(session) { line, _ in
                let note = "Sourdough"
                let bake = try app.settledLayout(pane: "notes").row("Bake", in: note)
                // The three scripts typed at the end of the note.
                try app.focusWindow()
                try pointer.click(at: bake.center)
                try pointer.key("ctrl+End")
                var mark = app.lineCount
                try pointer.type(" 한국어 日本語 Русский")
                try app.waitForState("the words typed", after: mark) { noteHTML($0, note).hasSuffix(" 한국어 日本語 Русский") }
                let text = try #require(try storedNote(data, note)?.text)
                #expect(text.hasSuffix("220 °C. 한국어 日本語 Русский"), "\(text)")
                mark = app.lineCount
                try pointer.key("ctrl+a")
                try app.waitForState("the whole note selected", after: mark) { $0.selected[note]?.first == text }
                usleep(600_000)  // past the double-click time: the press below starts a drag
                mark = app.lineCount
                // Dropped right of the end of Writer's line: the end of its paragraph.
                try pointer.drag(from: bake.center, to: (line.maxX + 40, line.midY), steps: 14, pause: 0.5)
                let paragraphs = try writerParagraphs(session, "the note's text") { ($0.text ?? "").contains("Feed the starter") }
                let arrived = try #require(paragraphs.first { ($0.text ?? "").contains("Feed the starter") })
                let written = arrived.text ?? ""
                #expect(written.hasSuffix(text), "character for character: \(written.debugDescription)")
                // Bold where the note is bold, and nowhere else in what arrived.
                let start = written.unicodeScalars.count - text.unicodeScalars.count
                var boldHere = arrived
                boldHere.boldRanges = arrived.boldRanges.filter { $0.upperBound > start }
                #expect(boldHere.boldWords == ["Bake"], "A7: \(arrived)")
                let outcome = try app.waitFor(FeedbackLine.self, "our outcome", after: mark) { $0.event == "outcome" }
                #expect(outcome.outcome == "handedOff" && outcome.operation == "copy", "S2: \(outcome)")
                #expect(messages(app, from: mark).contains { $0.hasPrefix("export done mime=text/html") }, "A2: the richest form")
            }
        }
    }
}
