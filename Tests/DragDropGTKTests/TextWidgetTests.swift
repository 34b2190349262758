import DragDropGTK
import Foundation
import DriverProtocol
import WindowDriver
import Testing

/// Styled text views and a text field (`--scene text`): notes "Move **this** to the *end*:",
/// draft "Draft:", and an empty "To" field.
@Suite(
    "GTK: text views and text fields", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct TextWidgetTests {
    static let notesHTML = "Move <b>this</b> to the <i>end</i>:"

    /// Double-clicks `word` in `view` and waits until it is the selection.
    func select(_ word: String, in view: String, app: FixtureApp, pointer: Pointer) async throws -> ScreenRect {
        let frame = try await app.settledSceneLayout().word(word, in: view)
        let mark = app.lineCount
        try pointer.doubleClick(at: (frame.midX, frame.midY))
        try await app.waitFor(TextLine.self, "'\(word)' selected by a double click", after: mark) {
            $0.id == view && $0.selection == word
        }
        return frame
    }

    /// Double-clicks `point` in the text field and waits until `word` is the selection. The
    /// field logs each press with GTK's count; xdotool's two clicks are 80 ms apart, but on a
    /// loaded machine they have reached the app further apart than the double-click time (a CI
    /// run saw no selection). Only when the log shows exactly that, two first presses, is the
    /// double click tried once more; anything else fails.
    func doubleClickSelecting(_ word: String, at point: ScreenPoint, app: FixtureApp, pointer: Pointer) async throws {
        for attempt in 1...2 {
            let mark = app.lineCount
            try pointer.doubleClick(at: point)
            do {
                try await app.waitFor(EntryLine.self, "'\(word)' selected", after: mark, timeout: attempt == 1 ? 4 : 10) {
                    $0.selection == word
                }
                return
            } catch {
                // GTK took the two presses as two single clicks, or (seen once, right after a
                // drag out of the field, in a fresh-clone run) as a double click that selected
                // nothing: once more. Anything else is a failure.
                let presses = app.messages(from: mark).filter { $0.hasPrefix("entry press ") }
                guard attempt == 1, presses.count == 2 else { throw error }
            }
        }
    }

    /// The engine's `committed` event at or after `mark`, once printed. A drop that reads its data
    /// (a deferred one: from the text field, or any drop on Wayland) changes the text first and
    /// prints `committed` just after: reading the events as soon as the text changed raced it.
    func committed(in app: FixtureApp, after mark: Int) async throws -> FeedbackLine {
        try await app.waitFor(FeedbackLine.self, "the drop's committed event", after: mark) { $0.event == "committed" }
    }

    /// Clicks into the text field "To", types `text` and waits until the field holds it;
    /// returns the field's frame.
    func type(_ text: String, intoFieldOf app: FixtureApp, pointer: Pointer) async throws -> ScreenRect {
        let field = try await app.settledSceneLayout().frame("to")
        try pointer.click(at: (field.midX, field.midY))
        let mark = app.lineCount
        try pointer.type(text, delay: 30)
        try await app.waitFor(EntryLine.self, "the typed text", after: mark) { $0.text == text }
        return field
    }

    /// Just after the last character of `view`'s last word.
    func end(of view: String, layout: SceneLayout, lastWord: String) throws -> (x: Double, y: Double) {
        let word = try layout.word(lastWord, in: view)
        return (word.x + word.width + 6, word.midY)
    }

    @Test(
        "K2, C3, S2, U1: a double click selects a word; dragged inside the same text it moves, keeping bold; Ctrl+Z and Ctrl+Shift+Z undo and redo the move"
    )
    func moveInsideOneView() async throws {
        try await FixtureApp.withScene("text") { app, pointer in
            let this = try await select("this", in: "notes", app: app, pointer: pointer)
            let layout = try await app.settledSceneLayout()
            let mark = app.lineCount
            try pointer.drag(
                from: (this.midX, this.midY), to: try end(of: "notes", layout: layout, lastWord: "end:"), pause: 0.15)
            let moved = try await app.waitFor(TextLine.self, "the moved word", after: mark) {
                $0.id == "notes" && $0.text == "Move  to the end:this"
            }
            #expect(moved.html == "Move  to the <i>end</i>:<b>this</b>")
            #expect(moved.selection == "this", "the moved text stays selected where it landed")
            let committed = try await committed(in: app, after: mark)
            let events = app.events(from: mark)
            #expect(committed.destination == "notes")
            #expect(committed.operation == "move")
            #expect(events.contains { $0.event == "insertion" && $0.target == "notes" })
            #expect(app.latest(TextLine.self, id: "draft")?.text == "Draft:")

            try await app.settleAfterDrag(from: mark)
            try await app.press("ctrl+z", with: pointer, until: TextLine.self, "the undone move") {
                $0.id == "notes" && $0.html == Self.notesHTML
            }
            try await app.press("ctrl+shift+z", with: pointer, until: TextLine.self, "the redone move") {
                $0.id == "notes" && $0.html == "Move  to the <i>end</i>:<b>this</b>"
            }
        }
    }

    @Test("K2: a double click on a word inside a selection selects that word, as anywhere else")
    func doubleClickInsideSelection() async throws {
        try await FixtureApp.withScene("text") { app, pointer in
            let layout = try await app.settledSceneLayout()
            let move = try layout.word("Move", in: "notes")
            let end = try self.end(of: "notes", layout: layout, lastWord: "end:")
            // The whole line selected by a press-and-sweep, then a double click on "to" in it.
            var mark = app.lineCount
            try pointer.press(at: (move.x + 1, move.midY), movingBy: end.x - move.x - 1, 0)
            try await app.waitFor(TextLine.self, "the line selected", after: mark) {
                $0.id == "notes" && $0.selection == "Move this to the end:"
            }
            mark = app.lineCount
            let to = try layout.word("to", in: "notes")
            try pointer.doubleClick(at: (to.midX, to.midY))
            try await app.waitFor(TextLine.self, "'to' selected", after: mark) { $0.id == "notes" && $0.selection == "to" }
        }
    }

    @Test(
        "S2, P1, A7, F2: dragged to another text view the word (its image the word alone) is copied and keeps its bold")
    func copyToOtherViewKeepsBold() async throws {
        try await FixtureApp.withScene("text") { app, pointer in
            let this = try await select("this", in: "notes", app: app, pointer: pointer)
            let layout = try await app.settledSceneLayout()
            let draftFrame = try layout.frame("draft")
            let mark = app.lineCount
            try pointer.drag(
                from: (this.midX, this.midY), to: try end(of: "draft", layout: layout, lastWord: "Draft:"), pause: 0.15,
                release: false)
            try await app.waitFor(FeedbackLine.self, "the Draft highlight", after: mark) {
                $0.event == "highlightOn" && $0.target == "draft"
            }
            try await Task.sleep(for: .milliseconds(250))
            // F2, F4: the drag image is the dragged word, not the whole source view: the
            // destination's highlight stays visible around it.
            let lit = try Screenshot.capture(app.display).count(DragStyles.highlightFill, in: draftFrame)
            #expect(Double(lit) > draftFrame.width * draftFrame.height * 0.8, "highlight pixels in Draft: \(lit)")
            try pointer.release()
            let draft = try await app.waitFor(TextLine.self, "the copied word in Draft", after: mark) {
                $0.id == "draft" && $0.text == "Draft:this"
            }
            #expect(draft.html == "Draft:<b>this</b>", "A7: HTML was taken and bold kept")
            #expect(
                app.latest(TextLine.self, id: "notes")?.html == Self.notesHTML,
                "S2: a copy leaves the source")
            #expect(try await committed(in: app, after: mark).operation == "copy")
            let events = app.events(from: mark)
            #expect(events.contains { $0.event == "preview" && $0.badge == "copy" })
            #expect(!app.eventNames(from: mark).contains("sourceRemoved"))
        }
    }

    @Test("C2, A7, K3: the text field shows its placeholder and takes a dropped word as plain text at the pointer")
    func entryTakesDroppedText() async throws {
        try await FixtureApp.withScene("text") { app, pointer in
            let entry = try #require(app.latest(EntryLine.self))
            #expect(entry.text == "")
            #expect(entry.placeholder == "Name or email")
            let this = try await select("this", in: "notes", app: app, pointer: pointer)
            let field = try await app.settledSceneLayout().frame("to")
            let mark = app.lineCount
            try pointer.drag(from: (this.midX, this.midY), to: (field.midX, field.midY), pause: 0.15)
            try await app.waitFor(EntryLine.self, "the word in the field", after: mark) {
                $0.text == "this"
            }
            let committed = try await committed(in: app, after: mark)
            #expect(committed.destination == "to")
            #expect(committed.operation == "copy")
            #expect(app.latest(TextLine.self, id: "notes")?.html == Self.notesHTML)
        }
    }

    @Test(
        "C1, K2: the text edit menu lists Cut, Copy and Delete only with a selection and Paste only after a copy; a styled paste keeps bold and undoes"
    )
    func textEditMenu() async throws {
        try await FixtureApp.withScene("text") { app, pointer in
            let layout = try await app.settledSceneLayout()
            let notes = try layout.frame("notes")
            let draft = try layout.frame("draft")
            let blankNotes = (notes.midX, notes.midY + 60)
            var menu = try await app.openMenu(at: blankNotes, pointer: pointer, owner: "Notes")
            #expect(menu.items == ["Select", "Select All"], "K6: Select only without a selection")
            try pointer.key("Escape")

            _ = try await select("this", in: "notes", app: app, pointer: pointer)
            menu = try await app.openMenu(at: blankNotes, pointer: pointer, owner: "Notes")
            #expect(menu.items == ["Cut", "Copy", "Delete", "Select All"])
            guard let copy = menu.frames["Copy"] else { throw DriverError("no Copy") }
            try pointer.click(at: (copy.midX, copy.midY))
            try await Task.sleep(for: .milliseconds(200))

            // The draft: click at its end (caret there), then Paste from its menu.
            let blankDraft = (draft.midX, draft.midY + 60)
            try pointer.click(at: blankDraft)
            try await Task.sleep(for: .milliseconds(200))
            menu = try await app.openMenu(at: blankDraft, pointer: pointer, owner: "Draft")
            #expect(menu.items == ["Paste", "Select", "Select All"])
            guard let paste = menu.frames["Paste"] else { throw DriverError("no Paste") }
            var mark = app.lineCount
            try pointer.click(at: (paste.midX, paste.midY))
            try await app.waitFor(TextLine.self, "the styled paste", after: mark) {
                $0.id == "draft" && $0.html == "Draft:<b>this</b>"
            }
            try await Task.sleep(for: .milliseconds(200))
            menu = try await app.openMenu(at: blankDraft, pointer: pointer, owner: "Draft")
            #expect(menu.items.first == "Undo Paste")
            try pointer.key("Escape")
            try await Task.sleep(for: .milliseconds(200))
            mark = app.lineCount
            try pointer.key("ctrl+z")
            try await app.waitFor(TextLine.self, "the paste undone", after: mark) {
                $0.id == "draft" && $0.text == "Draft:"
            }
        }
    }

    @Test(
        "K2, U1: typing in a text view and in the text field is one undo step each; Ctrl+Z undoes the newest first, Ctrl+Shift+Z redoes"
    )
    func typingIsUndoable() async throws {
        try await FixtureApp.withScene("text") { app, pointer in
            let layout = try await app.settledSceneLayout()
            let draft = try layout.frame("draft")
            let field = try layout.frame("to")
            try pointer.click(at: (draft.midX, draft.midY + 60))
            var mark = app.lineCount
            try pointer.type(" hi", delay: 40)
            try await app.waitFor(TextLine.self, "the typed text", after: mark) {
                $0.id == "draft" && $0.text == "Draft: hi"
            }
            try pointer.click(at: (field.midX, field.midY))
            mark = app.lineCount
            try pointer.type("bob", delay: 40)
            try await app.waitFor(EntryLine.self, "the typed name", after: mark) { $0.text == "bob" }
            try await Task.sleep(for: .milliseconds(200))

            mark = app.lineCount
            try pointer.key("ctrl+z")
            try await app.waitFor(EntryLine.self, "the name undone", after: mark) { $0.text == "" }
            #expect(app.latest(TextLine.self, id: "draft")?.text == "Draft: hi")
            mark = app.lineCount
            try pointer.key("ctrl+z")
            try await app.waitFor(TextLine.self, "the typing undone", after: mark) {
                $0.id == "draft" && $0.text == "Draft:"
            }
            mark = app.lineCount
            try pointer.key("ctrl+shift+z")
            try await app.waitFor(TextLine.self, "the typing redone", after: mark) {
                $0.id == "draft" && $0.text == "Draft: hi"
            }
        }
    }

    @Test("K2: in the text field too, a double click on a word inside a selection selects that word, a triple click everything")
    func entryDoubleClickInsideSelection() async throws {
        try await FixtureApp.withScene("text") { app, pointer in
            let field = try await type("bob alice carol", intoFieldOf: app, pointer: pointer)
            var mark = app.lineCount
            try pointer.key("ctrl+a")
            try await app.waitFor(EntryLine.self, "everything selected", after: mark) {
                $0.selection == "bob alice carol"
            }
            // "alice": after "bob " (four of the field's characters, about 8 pixels each).
            let at = (field.x + 8 + 4 * 8 + 12, field.midY)
            mark = app.lineCount
            try pointer.doubleClick(at: at)
            try await app.waitFor(EntryLine.self, "'alice' selected", after: mark) { $0.selection == "alice" }
            mark = app.lineCount
            try pointer.click(at: at, count: 3)
            try await app.waitFor(EntryLine.self, "everything selected by a triple click", after: mark) {
                $0.selection == "bob alice carol"
            }
        }
    }

    @Test(
        "C3, S2, U1: a word selected in the text field drags out: to a text view it copies, inside the field it moves; Ctrl+Z undoes the move"
    )
    func entryTextDragsOut() async throws {
        try await FixtureApp.withScene("text") { app, pointer in
            let field = try await type("bob alice", intoFieldOf: app, pointer: pointer)
            let bob = (field.x + 16, field.midY)
            try await Task.sleep(for: .milliseconds(400))  // past the double-click time of the focusing click
            try await doubleClickSelecting("bob", at: bob, app: app, pointer: pointer)

            let notesEnd = try end(of: "notes", layout: try await app.settledSceneLayout(), lastWord: "end:")
            var mark = app.lineCount
            try pointer.drag(from: bob, to: notesEnd, pause: 0.15)
            try await app.waitFor(TextLine.self, "'bob' copied into the notes", after: mark) {
                $0.id == "notes" && $0.text == "Move this to the end:bob"
            }
            #expect(try await committed(in: app, after: mark).operation == "copy")
            #expect(app.latest(EntryLine.self)?.text == "bob alice")

            try await app.waitForDragEnd(after: mark)
            try await doubleClickSelecting("bob", at: bob, app: app, pointer: pointer)
            mark = app.lineCount
            try pointer.drag(from: bob, to: (field.x + 200, field.midY), pause: 0.15)
            try await app.waitFor(EntryLine.self, "'bob' moved to the end", after: mark) {
                $0.text == " alicebob"
            }
            #expect(try await committed(in: app, after: mark).operation == "move")

            try await app.settleAfterDrag(from: mark)
            try await app.press("ctrl+z", with: pointer, until: EntryLine.self, "the move undone") {
                $0.text == "bob alice"
            }
        }
    }
}

extension TextWidgetTests {
    /// Another app (xclip) owning the clipboard with `html` as `text/html`; stops it at the end.
    private func withForeignClipboard(
        html: String, on display: XDisplay, _ body: () async throws -> Void
    ) async throws {
        let xclip = try #require(Tools.find("xclip"), "xclip is not installed (make deps installs it)")
        let input = try ProcessPipe()
        let process = try ChildProcess(
            xclip, ["-quiet", "-selection", "clipboard", "-t", "text/html", "-i"],
            environment: display.appEnvironment, stdin: input.read)
        close(input.read)
        let bytes = Array(html.utf8)
        _ = bytes.withUnsafeBytes { write(input.write, $0.baseAddress, $0.count) }
        close(input.write)
        defer { process.stop() }
        try await Task.sleep(for: .milliseconds(300))  // xclip owns the selection once it read its input
        try await body()
    }

    @Test(
        "A7, C1, K2: styled text another app put on the clipboard pastes with its bold and italic, and nothing else of its HTML (no script text, no links); one undo step",
        .enabled(
            if: DisplayBackend.current == .x11,
            "X11 only: xclip owns the X11 clipboard, which apps on Wayland do not share (see docs/wayland.md).")
    )
    func richPasteFromAnotherApp() async throws {
        try await FixtureApp.withScene("text") { app, pointer in
            let html = "<meta charset=utf-8><script>alert(1)</script><b>Bold</b> and <i>it</i> <a href=\"x\">link</a>"
            try await withForeignClipboard(html: html, on: app.display) {
                let draft = try await app.settledSceneLayout().frame("draft")
                let blankDraft = (draft.midX, draft.midY + 60)
                try pointer.click(at: blankDraft)
                try await Task.sleep(for: .milliseconds(200))
                let menu = try await app.openMenu(at: blankDraft, pointer: pointer, owner: "Draft")
                #expect(menu.items.contains("Paste"))
                guard let paste = menu.frames["Paste"] else { throw DriverError("no Paste") }
                var mark = app.lineCount
                try pointer.click(at: (paste.midX, paste.midY))
                try await app.waitFor(TextLine.self, "the styled paste from another app", after: mark) {
                    $0.id == "draft" && $0.html == "Draft:<b>Bold</b> and <i>it</i> link"
                }
                try await Task.sleep(for: .milliseconds(200))
                mark = app.lineCount
                try pointer.key("ctrl+z")
                try await app.waitFor(TextLine.self, "the paste undone", after: mark) {
                    $0.id == "draft" && $0.text == "Draft:"
                }
            }
        }
    }
}
