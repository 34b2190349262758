import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Text dragged between the showcase's notes and GNOME Text Editor 43 (GTK 4, over X11 drag and
/// drop), both ways, with the real pointer. The editor's text is read through assistive
/// technology (its source view's text), the note's from the showcase's state and its store.
@Suite(
    "Interop: GNOME Text Editor", .serialized,
    .enabled(if: PeerSession.missing == nil, "\(PeerSession.missing ?? ""): interop tests skipped.")
)
struct InteropTextEditorTests: InteropTesting {
    /// GNOME Text Editor showing `file` in a window of its own (`--standalone`: no other
    /// instance is asked to open it), named "NAME (FOLDER) - Text Editor".
    static func textEditor(_ file: URL) -> PeerProgram {
        PeerProgram(
            path: Tools.find("gnome-text-editor") ?? "/usr/bin/gnome-text-editor",
            arguments: ["--standalone", file.path],
            windowName: NSRegularExpression.escapedPattern(for: file.lastPathComponent) + " .* - Text Editor",
            accessibleName: "gnome-text-editor", toolkit: "GTK 4", windowRelativeExtents: true)
    }

    static var installed: Bool { textEditor(URL(fileURLWithPath: "/")).isInstalled }

    /// A line in three scripts (Korean, Japanese, Russian).
    static let words = "한국어 日本語 Русский"

    /// Runs `body` with the showcase on its Notes pane and the editor beside it showing a file
    /// holding `text` (without a final line break: the editor adds none); passes the editor and
    /// where its text view is.
    private func withEditor(
        holding text: String,
        _ body: (
            _ session: PeerSession, _ app: ShowcaseProcess, _ pointer: Pointer, _ data: String, _ editor: Peer,
            _ view: ScreenRect
        )
            throws -> Void
    ) throws {
        try withPeers(pane: "notes") { session, app, pointer, data in
            let file = session.runtime.appendingPathComponent("Words.txt")
            try text.write(to: file, atomically: true, encoding: .utf8)
            let editor = try session.launch(Self.textEditor(file), at: Self.peerOrigin)
            let view = try #require(
                try editor.find("its text") { $0.role == "text" && $0.name == "EditorSourceView" && $0.text == text }
                    .frame)
            try body(session, app, pointer, data, editor, view)
        }
    }

    /// The editor's text, once `predicate` holds for it.
    @discardableResult
    private func editorText(_ editor: Peer, _ what: String, where predicate: @escaping (String) -> Bool) throws
        -> String
    {
        let view = try editor.find(what) {
            $0.role == "text" && $0.name == "EditorSourceView" && predicate($0.text ?? "")
        }
        return view.text ?? ""
    }

    /// How the showcase names the editor: X11 says which app a window belongs to; on Wayland
    /// nothing says which app took or gave a drag.
    static var editorName: String { DisplayBackend.current == .wayland ? "another app" : "gnome-text-editor" }

    /// Our side of a drag into the editor: handed off to it as a copy, said in one sentence.
    private func expectHandedOffToEditor(_ app: ShowcaseProcess, after mark: Int, _ what: String) throws {
        let outcome = try app.waitFor(FeedbackLine.self, "our outcome", after: mark) { $0.event == "outcome" }
        #expect(outcome.outcome == "handedOff" && outcome.operation == "copy", "S2: \(outcome)")
        #expect(outcome.app == (DisplayBackend.current == .wayland ? nil : "gnome-text-editor"))
        let status = try app.waitFor(StatusLine.self, "the hand-off's status", after: mark, timeout: 10) {
            $0.text.hasPrefix("Copied") || $0.text.hasPrefix("Not dropped")
        }.text
        #expect(status == "Copied \(what) to \(Self.editorName).", "\(status)")
    }

    @Test(
        "S1, S2, A7: a note's whole text (a bold word, '°C'), selected with Ctrl+A and dragged into an empty GNOME Text Editor document, arrives there as its plain text, character for character; the note keeps it",
        .enabled(if: installed, "GNOME Text Editor is not installed (apt-get install gnome-text-editor).")
    )
    func noteTextIntoTextEditor() throws {
        try withEditor(holding: "") { _, app, pointer, data, editor, view in
            let note = "Sourdough"
            let text = try #require(try storedNote(data, note)?.text)
            let bake = try app.settledLayout(pane: "notes").row("Bake", in: note)
            try app.focusWindow()
            try pointer.click(at: bake.center)
            var mark = app.lineCount
            try pointer.key("ctrl+a")
            try app.waitForState("the whole note selected", after: mark) { $0.selected[note]?.first == text }
            usleep(600_000)  // past the double-click time: the press below starts a drag
            mark = app.lineCount
            try pointer.drag(from: bake.center, to: (view.x + 120, view.y + 60), steps: 14, pause: 0.4)
            try editorText(editor, "the note's text") { $0 == text }
            try expectHandedOffToEditor(app, after: mark, "'Selected text in Sourdough'")
            #expect(noteHTML(app.state, note).contains("<b>Bake</b>"), "S2: the note keeps its text")
            #expect(try storedNote(data, note)?.text == text)
        }
    }

    @Test(
        "S1, S2, A7: Korean, Japanese and Russian selected in GNOME Text Editor and dragged to the end of a note arrive character for character and are saved so; the same words selected in the note and dragged back to the end of the editor's line arrive there unchanged",
        .enabled(if: installed, "GNOME Text Editor is not installed (apt-get install gnome-text-editor).")
    )
    func wordsInEveryScriptWithTextEditor() throws {
        try withEditor(holding: Self.words) { session, app, pointer, data, editor, view in
            // The editor's line: its dark pixels (the view tells no line's place).
            let line = try darkText(on: session.display, in: view.insetBy(4, 4), minWidth: 40)
            try editor.focus(session.display)
            try pointer.key("ctrl+a")
            usleep(600_000)
            let note = "Sourdough"
            let before = try #require(try storedNote(data, note)?.text)
            let target = try app.settledLayout(pane: "notes").list(note)
            var mark = app.lineCount
            try pointer.drag(
                from: (line.maxX - 20, line.midY), to: (target.midX, target.maxY - 20), steps: 14, pause: 0.4)
            try app.waitForState("the words in the note", after: mark, timeout: 15) {
                noteHTML($0, note).hasSuffix(" " + Self.words)
            }
            #expect(try storedNote(data, note)?.text == before + " " + Self.words, "saved character for character")
            #expect(try committedEvent(in: app, from: mark).operation == "copy")
            #expect(
                try waitForDropStatus(app, after: mark) == "Copied 'Text from \(Self.editorName)' to Sourdough.",
                "\(statuses(app, from: mark))")
            try editorText(editor, "its line, still there (a copy)") { $0 == Self.words }

            // Back: the three words just dropped, selected from the first to the end of the
            // last (a double click, then Shift and a click), onto the end of the editor's line.
            let words = Self.words.split(separator: " ").map(String.init)
            try app.waitFor(LayoutLine.self, "the words laid out", after: mark) { layout in
                words.allSatisfy { word in layout.rows?[note]?.contains { $0.title == word } == true }
            }
            let rows = try #require(app.latestLayout?.rows[note])
            let first = try #require(rows.last { $0.title == words[0] }?.frame)
            let middle = try #require(rows.last { $0.title == words[1] }?.frame)
            let last = try #require(rows.last { $0.title == words[2] }?.frame)
            // The editor's line is still selected since the drag out, and GTK's text view takes
            // no drop inside or at the edges of its own selection (gtk_text_view_drag_motion).
            // On X11 the editor has let go of it by now; on weston it keeps it, and a person
            // would click in the editor first, as done here.
            try pointer.click(at: (line.maxX + 60, line.midY))
            usleep(300_000)
            try app.focusWindow()
            try pointer.doubleClick(at: first.center)
            try pointer.click(at: (last.maxX - 1, last.midY), holding: ["shift"])
            usleep(600_000)
            try app.waitForState("the words selected", after: mark) { $0.selected[note] == [Self.words] }
            mark = app.lineCount
            // Right of the line's end, on the line.
            try pointer.drag(from: middle.center, to: (line.maxX + 60, line.midY), steps: 14, pause: 0.4)
            try editorText(editor, "the words at the end of its line") { $0 == Self.words + Self.words }
            try expectHandedOffToEditor(app, after: mark, "'Selected text in Sourdough'")
        }
    }
}
