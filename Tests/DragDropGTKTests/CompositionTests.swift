import DriverProtocol
import Foundation
import Testing
import WindowDriver

// In a file of its own: the Wayland lane runs ScriptTextTests.swift's suites (a filter matches
// the file's name), and these are X11 only (docs/wayland.md).

/// An input method's composition (GTK's own "simple" one: a dead key, then its letter) while text
/// is dropped into the same view or field.
@Suite(
    "GTK: a drop never breaks a composition", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct CompositionTests {
    /// Presses a dead acute and waits until `widget` shows it as a composition under way.
    func startComposition(in widget: String, app: FixtureApp, pointer: Pointer) async throws {
        let mark = app.lineCount
        try pointer.key("dead_acute")
        try await app.waitFor(GtkLine.self, "the composition in \(widget)", after: mark) {
            $0.message.hasPrefix("preedit \"") && !$0.message.hasPrefix("preedit \"\"")
                && $0.message.hasSuffix(" in \(widget)")
        }
    }

    @Test(
        "L4: text dropped into a text view while a dead key composes there lands at the drop point, and the next key finishes é where the composition was"
    )
    func dropDuringCompositionInTextView() async throws {
        try await FixtureApp.withScene(
            "text", size: (900, 420), arguments: ["--notes", "cafe end", "--draft", "word"]
        ) { app, pointer in
            let layout = try await app.settledSceneLayout()
            let end = try layout.word("end", in: "notes")
            let cafe = try layout.word("cafe", in: "notes")
            let word = try layout.word("word", in: "draft")
            try await selectWordInDraft(word, app: app, pointer: pointer)
            try await Task.sleep(for: .milliseconds(500))  // past the double-click time
            try pointer.click(at: (end.x + end.width + 4, end.midY))
            try await startComposition(in: "notes", app: app, pointer: pointer)
            var mark = app.lineCount
            try pointer.drag(from: (word.midX, word.midY), to: (cafe.x + 1, cafe.midY), pause: 0.15)
            try await app.waitFor(TextLine.self, "the drop", after: mark) {
                $0.id == "notes" && $0.text == "wordcafe end"
            }
            try await app.settleAfterDrag(from: mark)
            mark = app.lineCount
            try pointer.key("e")
            try await app.waitFor(TextLine.self, "é where the composition was", after: mark) {
                $0.id == "notes" && $0.text == "wordcafe endé"
            }
            #expect(app.latest(TextLine.self, id: "draft")?.text == "word", "the letter went nowhere else")
        }
    }

    @Test(
        "L4: text dropped into a text field while a dead key composes there lands at the drop point, and the next key finishes é where the composition was"
    )
    func dropDuringCompositionInField() async throws {
        try await FixtureApp.withScene(
            "text", size: (900, 420), arguments: ["--field", "cafe end", "--draft", "word"]
        ) { app, pointer in
            let layout = try await app.settledSceneLayout()
            let field = try layout.frame("to")
            let word = try layout.word("word", in: "draft")
            try await selectWordInDraft(word, app: app, pointer: pointer)
            try await Task.sleep(for: .milliseconds(500))  // past the double-click time
            try pointer.click(at: (field.x + field.width - 20, field.midY))  // the caret after "end"
            try await startComposition(in: "to", app: app, pointer: pointer)
            var mark = app.lineCount
            try pointer.drag(from: (word.midX, word.midY), to: (field.x + 8, field.midY), pause: 0.15)
            try await app.waitFor(EntryLine.self, "the drop", after: mark) { $0.text == "wordcafe end" }
            try await app.settleAfterDrag(from: mark)
            mark = app.lineCount
            try pointer.key("e")
            try await app.waitFor(EntryLine.self, "é where the composition was", after: mark) {
                $0.text == "wordcafe endé"
            }
            #expect(app.latest(TextLine.self, id: "draft")?.text == "word", "the letter went nowhere else")
        }
    }
}

/// A real input method (IBus and its Hangul engine, as on a Korean desktop) composing a
/// syllable while text is dropped into the same view or field (L4).
@Suite(
    "GTK: a drop never breaks a Korean input method's composition", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped."),
    .enabled(if: InputMethod.missing == nil, "\(InputMethod.missing ?? ""): the IBus tests are skipped.")
)
struct KoreanInputMethodTests {
    /// The text scene with IBus's Hangul engine: `body` gets the app and the pointer.
    private func withHangul(
        _ arguments: [String], _ body: (_ app: FixtureApp, _ pointer: Pointer) async throws -> Void
    ) async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let method = try InputMethod.hangul(on: display)
        defer { method.stop() }
        let app = try await FixtureApp.launch(
            on: display, size: (900, 420), arguments: ["--scene", "text"] + arguments,
            environment: method.environment.merging(["GTK_A11Y": "none"]) { $1 })
        defer { app.stop() }
        try await body(app, Pointer(display: display))
    }

    /// Switches the engine to Hangul and types ㅎ ㅏ ㄴ: 한 is composed, not yet committed.
    private func compose한(in widget: String, app: FixtureApp, pointer: Pointer) async throws {
        let mark = app.lineCount
        // The engine learns of the focus through the daemon, and the switch to Hangul must be
        // in effect before the letters: a person types at this pace too.
        try await Task.sleep(for: .milliseconds(400))
        try pointer.key("Hangul")
        try await Task.sleep(for: .milliseconds(300))
        try pointer.key("g")
        try pointer.key("k")
        try pointer.key("s")
        try await app.waitFor(GtkLine.self, "한 composing in \(widget)", after: mark) {
            $0.message == "preedit \"한\" in \(widget)"
        }
    }

    @Test(
        "L4: while IBus's Hangul engine composes 한 in a text view, text dragged from another view lands at its drop point: the press that starts the drag ends the composition as on any desktop, 한 committed whole where it was composed, never split or moved by the drop"
    )
    func dropDuringHangulInTextView() async throws {
        try await withHangul(["--notes", "cafe end", "--draft", "word"]) { app, pointer in
            let layout = try await app.settledSceneLayout()
            let end = try layout.word("end", in: "notes")
            let cafe = try layout.word("cafe", in: "notes")
            let word = try layout.word("word", in: "draft")
            try await selectWordInDraft(word, app: app, pointer: pointer)
            try await Task.sleep(for: .milliseconds(500))  // past the double-click time
            try pointer.click(at: (end.x + end.width + 4, end.midY))
            try await compose한(in: "notes", app: app, pointer: pointer)
            let mark = app.lineCount
            try pointer.drag(from: (word.midX, word.midY), to: (cafe.x + 1, cafe.midY), pause: 0.15)
            try await app.waitFor(TextLine.self, "the drop before cafe, 한 where it was", after: mark) {
                $0.id == "notes" && $0.text == "wordcafe end한"
            }
            try await app.settleAfterDrag(from: mark)
            let notes = app.lines(from: mark).compactMap { $0.decode(TextLine.self) }.filter { $0.id == "notes" }
                .map(\.text)
            // 한 was committed whole before the drop, and no line ever had it split or doubled.
            #expect(notes.first == "cafe end한", "\(notes)")
            #expect(notes.allSatisfy { $0.filter { $0 == "한" }.count == 1 && !$0.contains("ㅎ") }, "\(notes)")
            #expect(app.latest(TextLine.self, id: "draft")?.text == "word", "the draft keeps its word (a copy)")
        }
    }

    @Test(
        "L4: while IBus's Hangul engine composes 한 in a text field, text dragged from a view lands at its drop point, and 한 stays whole where it was composed"
    )
    func dropDuringHangulInField() async throws {
        try await withHangul(["--field", "cafe end", "--draft", "word"]) { app, pointer in
            let layout = try await app.settledSceneLayout()
            let field = try layout.frame("to")
            let word = try layout.word("word", in: "draft")
            try await selectWordInDraft(word, app: app, pointer: pointer)
            try await Task.sleep(for: .milliseconds(500))  // past the double-click time
            try pointer.click(at: (field.x + field.width - 20, field.midY))  // the caret after "end"
            try await compose한(in: "to", app: app, pointer: pointer)
            let mark = app.lineCount
            try pointer.drag(from: (word.midX, word.midY), to: (field.x + 8, field.midY), pause: 0.15)
            try await app.waitFor(EntryLine.self, "the drop before cafe, 한 where it was", after: mark) {
                $0.text == "wordcafe end한"
            }
            try await app.settleAfterDrag(from: mark)
            let texts = app.lines(from: mark).compactMap { $0.decode(EntryLine.self) }.map(\.text)
            #expect(texts.allSatisfy { $0.filter { $0 == "한" }.count == 1 && !$0.contains("ㅎ") }, "\(texts)")
            #expect(app.latest(TextLine.self, id: "draft")?.text == "word", "the draft keeps its word (a copy)")
        }
    }
}

/// Double-clicks "word" in the text scene's draft until it is selected.
func selectWordInDraft(_ frame: ScreenRect, app: FixtureApp, pointer: Pointer) async throws {
    let mark = app.lineCount
    try pointer.doubleClick(at: (frame.midX, frame.midY))
    try await app.waitFor(TextLine.self, "'word' selected", after: mark) {
        $0.id == "draft" && $0.selection == "word"
    }
}
