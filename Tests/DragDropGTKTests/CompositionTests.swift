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

    /// Double-clicks "word" in the draft until it is selected.
    func selectWordInDraft(_ frame: ScreenRect, app: FixtureApp, pointer: Pointer) async throws {
        let mark = app.lineCount
        try pointer.doubleClick(at: (frame.midX, frame.midY))
        try await app.waitFor(TextLine.self, "'word' selected", after: mark) {
            $0.id == "draft" && $0.selection == "word"
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
