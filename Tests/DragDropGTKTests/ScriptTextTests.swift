@testable import DragDropGTK
import DriverProtocol
import Foundation
import Testing
import WindowDriver

/// Characters a reader sees as one (grapheme clusters) in many scripts: Hangul precomposed and as
/// conjoining jamo, a letter with a combining accent, flags, an emoji with a skin tone, a ZWJ
/// family, a Devanagari conjunct.
enum Clusters {
    static let hangul = "한국"
    static let jamo = "\u{1112}\u{1161}\u{11AB}"  // ᄒ + ᅡ + ᆫ: 한 as three scalars
    static let accented = "e\u{301}"
    static let flags = "🇰🇷🇯🇵"
    static let family = "👩\u{200D}👩\u{200D}👧"
    static let wave = "👋🏽"
    static let conjunct = "क्षि"
    /// One line of all of them, without spaces: every pointer position falls between or inside them.
    static let line = "A" + hangul + jamo + accented + flags + family + wave + conjunct + "Z"
    /// Conjuncts first (GTK puts a cursor position inside each), then the rest.
    static let fieldLine = conjunct + conjunct + conjunct + line

    /// Whether `after` is `before` with `inserted` put in whole between two of its characters,
    /// every character of both kept (compared as Swift `Character`s; word joiners the drop put
    /// at a seam are left out).
    static func keepsEveryCluster(_ before: String, inserting inserted: String, gives after: String) -> Bool {
        let old = Array(before)
        let new = Array(after).filter { $0 != "\u{2060}" }
        let piece = Array(inserted)
        return (0...old.count).contains { k in Array(old[..<k]) + piece + Array(old[k...]) == new }
    }
}

@Suite("L4: grapheme clusters (unit)")
struct ScriptTextUnitTests {
    @Test("L4: cluster boundaries are Swift's Characters, in Unicode scalar offsets")
    func boundaries() {
        #expect(ScriptText.boundaries(of: "a" + Clusters.jamo + Clusters.family) == [0, 1, 4, 9])
        #expect(ScriptText.boundaries(of: Clusters.conjunct) == [0, 4])
        #expect(ScriptText.boundaries(of: Clusters.flags) == [0, 2, 4])
    }

    @Test("L4: a point inside a character snaps to its nearer edge; a range widens to whole characters")
    func snapping() {
        let text = "a" + Clusters.family + "b"  // boundaries 0, 1, 6, 7
        #expect(ScriptText.nearestBoundary(to: 2, in: text) == 1)
        #expect(ScriptText.nearestBoundary(to: 5, in: text) == 6)
        #expect(ScriptText.nearestBoundary(to: 6, in: text) == 6)
        #expect(ScriptText.nearestBoundary(to: 99, in: text) == 7)
        #expect(ScriptText.wholeClusters(2..<3, in: text) == 1..<6)
        #expect(ScriptText.wholeClusters(0..<2, in: text) == 0..<6)
        #expect(ScriptText.wholeClusters(6..<7, in: text) == 6..<7)
    }

    @Test("L4: dropped text that would fuse with a neighbour gets a word joiner on that side, and only there")
    func seams() {
        #expect(ScriptText.seams(before: "e", inserted: "\u{301}x", after: "y") == (true, false))
        #expect(ScriptText.seams(before: "a", inserted: "b", after: "c") == (false, false))
        #expect(ScriptText.seams(before: "🇰", inserted: "🇷", after: nil) == (true, false))
        #expect(ScriptText.seams(before: nil, inserted: "\u{1112}", after: "\u{1161}") == (false, true))
        #expect(ScriptText.seams(before: "x", inserted: "👋", after: "🏽") == (false, true))
    }
}

/// L4 with a real pointer: `--scene text` with the notes, the draft and the field holding
/// clusters of many scripts.
@Suite(
    "GTK: text in every script", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct ScriptTextTests {
    @Test(
        "L4: a drag swept across Hangul, jamo, accents, flags, emoji and a Devanagari conjunct shows its caret only between characters, and drops there keep every character whole"
    )
    func dropPointsInTextViewKeepClusters() async throws {
        try await FixtureApp.withScene(
            "text", size: (900, 420), arguments: ["--notes", Clusters.line, "--draft", "word"]
        ) { app, pointer in
            var layout = try await app.settledSceneLayout()
            let draft = try layout.word("word", in: "draft")
            var mark = app.lineCount
            try pointer.doubleClick(at: (draft.midX, draft.midY))
            try await app.waitFor(TextLine.self, "'word' selected", after: mark) {
                $0.id == "draft" && $0.selection == "word"
            }
            // One drag, swept slowly over the whole line: every caret the view shows.
            let line = try layout.word(Clusters.line, in: "notes")
            mark = app.lineCount
            try pointer.drag(
                from: (draft.midX, draft.midY), to: (line.x + 1, line.midY), pause: 0.15, release: false)
            try pointer.move(
                from: (line.x + 1, line.midY), to: (line.x + line.width + 4, line.midY),
                steps: Int(line.width / 2))
            try await Task.sleep(for: .milliseconds(300))
            let carets = app.events(from: mark).filter { $0.event == "insertion" && $0.target == "notes" }
                .compactMap(\.index)
            let edges = Set(ScriptText.boundaries(of: Clusters.line))
            #expect(Set(carets).count >= 8, "carets seen: \(carets)")
            #expect(carets.allSatisfy(edges.contains), "carets inside a character: \(carets), edges \(edges.sorted())")
            try pointer.move(from: (line.x + line.width + 4, line.midY), to: (line.x + line.width * 0.45, line.midY))
            try pointer.release()
            var text = try await app.waitFor(TextLine.self, "the first drop", after: mark) {
                $0.id == "notes" && $0.text != Clusters.line
            }.text
            #expect(
                Clusters.keepsEveryCluster(Clusters.line, inserting: "word", gives: text), "\(text.debugDescription)")
            try await app.settleAfterDrag(from: mark)

            // Drops at many points across the line: each keeps every character whole, and the
            // note holds what it shows.
            for fraction in [0.08, 0.2, 0.33, 0.5, 0.62, 0.75, 0.9] {
                layout = try await app.settledSceneLayout()
                let now = try layout.word(text, in: "notes")
                if app.latest(TextLine.self, id: "draft")?.selection != "word" {
                    mark = app.lineCount
                    try pointer.doubleClick(at: (draft.midX, draft.midY))
                    try await app.waitFor(TextLine.self, "'word' selected", after: mark) {
                        $0.id == "draft" && $0.selection == "word"
                    }
                }
                mark = app.lineCount
                try pointer.drag(
                    from: (draft.midX, draft.midY), to: (now.x + now.width * fraction, now.midY), pause: 0.15)
                let before = text
                text = try await app.waitFor(TextLine.self, "a drop at \(fraction)", after: mark) {
                    $0.id == "notes" && $0.text != before
                }.text
                #expect(
                    Clusters.keepsEveryCluster(before, inserting: "word", gives: text),
                    "drop at \(fraction): \(text.debugDescription)")
                try await app.settleAfterDrag(from: mark)
            }
            #expect(app.latest(TextLine.self, id: "notes")?.text == text)
        }
    }

    @Test("L4: drops into a text field of many scripts land between characters, never inside one")
    func dropPointsInFieldKeepClusters() async throws {
        try await FixtureApp.withScene(
            "text", size: (900, 420), arguments: ["--field", Clusters.fieldLine, "--draft", "word"]
        ) { app, pointer in
            let layout = try await app.settledSceneLayout()
            let draft = try layout.word("word", in: "draft")
            let field = try layout.frame("to")
            var text = Clusters.fieldLine
            // From right to left: the text left of each drop point is still the original.
            for step in 0..<10 {
                var mark = app.lineCount
                if app.latest(TextLine.self, id: "draft")?.selection != "word" {
                    try pointer.doubleClick(at: (draft.midX, draft.midY))
                    try await app.waitFor(TextLine.self, "'word' selected", after: mark) {
                        $0.id == "draft" && $0.selection == "word"
                    }
                    mark = app.lineCount
                }
                try pointer.drag(
                    from: (draft.midX, draft.midY), to: (field.x + 66 - Double(step) * 5, field.midY), pause: 0.15)
                let before = text
                text = try await app.waitFor(EntryLine.self, "drop \(step) in the field", after: mark) {
                    $0.text != before
                }.text
                #expect(
                    Clusters.keepsEveryCluster(before, inserting: "word", gives: text),
                    "drop \(step): \(text.debugDescription)")
                try await app.settleAfterDrag(from: mark)
            }
        }
    }

    @Test("L4: a selection ending inside a character drags the whole character")
    func partialSelectionDragsWholeCluster() async throws {
        try await FixtureApp.withScene(
            "text", size: (900, 420), arguments: ["--notes", Clusters.conjunct + " " + Clusters.family + " end"]
        ) { app, pointer in
            let layout = try await app.settledSceneLayout()
            let conjunct = try layout.word(Clusters.conjunct, in: "notes")
            var mark = app.lineCount
            // A click far from the press that follows (else GTK counts that press as a double click).
            let notes = try layout.frame("notes")
            try pointer.click(at: (notes.midX, notes.midY + 80))
            try pointer.key("ctrl+Home")
            try pointer.key("shift+Right")
            let selected = try await app.waitFor(TextLine.self, "a selection", after: mark) {
                $0.id == "notes" && $0.selection != nil
            }
            // GTK (Pango) puts a cursor position inside the conjunct: half of it is selected.
            #expect(selected.selection == "क्", "GTK's Shift+Right selected \(selected.selection.debugDescription)")
            let draft = try layout.frame("draft")
            mark = app.lineCount
            try pointer.drag(from: (conjunct.x + 3, conjunct.midY), to: (draft.midX, draft.midY), pause: 0.15)
            let copied = try await app.waitFor(TextLine.self, "the drop in Draft", after: mark) {
                $0.id == "draft" && $0.text != "Draft:"
            }
            #expect(copied.text == "Draft:" + Clusters.conjunct, "\(copied.text.debugDescription)")
            #expect(app.latest(TextLine.self, id: "notes")?.text == Clusters.conjunct + " " + Clusters.family + " end")
        }
    }

    @Test("L4: a dropped combining accent does not fuse with the letter before the drop point")
    func droppedMarkStaysApart() async throws {
        try await FixtureApp.withScene(
            "text", size: (900, 420), arguments: ["--notes", "cafe end", "--draft", "\u{301}ok"]
        ) { app, pointer in
            let layout = try await app.settledSceneLayout()
            let draft = try layout.frame("draft")
            let cafe = try layout.word("cafe", in: "notes")
            var mark = app.lineCount
            try pointer.click(at: (draft.midX, draft.midY))
            try pointer.key("ctrl+a")
            try await app.waitFor(TextLine.self, "the accent selected", after: mark) {
                $0.id == "draft" && $0.selection == "\u{301}ok"
            }
            mark = app.lineCount
            let start = try layout.word("\u{301}ok", in: "draft")
            try pointer.drag(
                from: (start.x + start.width * 0.7, start.midY), to: (cafe.x + cafe.width - 1, cafe.midY),
                pause: 0.15)
            let notes = try await app.waitFor(TextLine.self, "the accent in Notes", after: mark) {
                $0.id == "notes" && $0.text != "cafe end"
            }
            #expect(
                notes.text == "cafe\u{2060}\u{301}ok end",
                "\(notes.text.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(Array(notes.text).prefix(4) == ["c", "a", "f", "e"], "the e keeps no accent")
        }
    }
}

@Suite("L4: words as a reader of the language sees them (unit)")
struct WordBreakUnitTests {
    /// The word `TextWords.word(at:in:)` finds at the first occurrence of `at` in `text`.
    func word(at probe: String, in text: String, plus: Int = 0) -> String? {
        let scalars = Array(text.unicodeScalars)
        let target = Array(probe.unicodeScalars)
        guard
            let offset = (0...(scalars.count - target.count)).first(where: {
                Array(scalars[$0..<($0 + target.count)]) == target
            }),
            let word = TextWords.word(at: offset + plus, in: text)
        else { return nil }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[word.start..<word.end])
        return String(view)
    }

    @Test("L4: Japanese, which has no spaces, breaks into dictionary words (東京に行きます: 東京, に, 行き, ます)")
    func japanese() {
        let text = "東京に行きます"
        #expect(word(at: "東", in: text) == "東京")
        #expect(word(at: "京", in: text) == "東京")
        #expect(word(at: "に", in: text) == "に")
        #expect(word(at: "行", in: text) == "行き")
        #expect(word(at: "ま", in: text) == "ます")
    }

    @Test("L4: a Korean eojeol runs from space to space, particles and endings included")
    func korean() {
        let text = "한국어를 배우고 있어요."
        #expect(word(at: "국", in: text) == "한국어를")
        #expect(word(at: "배", in: text) == "배우고")
        #expect(word(at: "있", in: text) == "있어요")
    }

    @Test("L4: Russian words keep their hyphens (из-за, кто-нибудь) and leave guillemets, commas and dashes out")
    func russian() {
        let text = "Он пришёл из-за дождя, «кто-нибудь» — Ростов-на-Дону."
        #expect(word(at: "из", in: text) == "из-за")
        #expect(word(at: "за", in: text) == "из-за")
        #expect(word(at: "дож", in: text) == "дождя")
        #expect(word(at: "нибудь", in: text) == "кто-нибудь")
        #expect(word(at: "на", in: text) == "Ростов-на-Дону")
        #expect(word(at: "пришёл", in: text) == "пришёл")
    }

    @Test("L4: English keeps its apostrophes; a caret right after a word selects that word; spaces alone are no word")
    func english() {
        #expect(word(at: "don't", in: "I don't know", plus: 3) == "don't")
        #expect(word(at: " know", in: "I don't know") == "don't")
        #expect(TextWords.word(at: 1, in: "  ") == nil)
    }
}

/// Double clicks on Japanese, Korean and Russian text in a text view and a text field.
@Suite(
    "GTK: double click selects a word in every language", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct ScriptWordsTests {
    static let notes = "東京に行きます 한국어를 배우고 «кто-нибудь» из-за дождя,"

    @Test(
        "L4: a double click selects 東京 in 東京に行きます, an eojeol in Korean, and a hyphenated Russian word without its punctuation"
    )
    func doubleClickInTextView() async throws {
        try await FixtureApp.withScene(
            "text", size: (900, 420), arguments: ["--notes", Self.notes, "--field", "из-за дождя"]
        ) { app, pointer in
            let layout = try await app.settledSceneLayout()
            // (token shown, where in it to click (a fraction of its width), the word expected)
            let cases: [(String, Double, String)] = [
                ("東京に行きます", 0.07, "東京"), ("東京に行きます", 0.5, "行き"), ("한국어를", 0.3, "한국어를"),
                ("«кто-нибудь»", 0.7, "кто-нибудь"), ("из-за", 0.8, "из-за"), ("дождя,", 0.3, "дождя"),
            ]
            for (token, fraction, expected) in cases {
                let frame = try layout.word(token, in: "notes")
                let mark = app.lineCount
                try pointer.doubleClick(at: (frame.x + frame.width * fraction, frame.midY))
                try await app.waitFor(TextLine.self, "'\(expected)' selected by a double click", after: mark) {
                    $0.id == "notes" && $0.selection == expected
                }
                // Past the double-click time, so the next click starts afresh.
                try await Task.sleep(for: .milliseconds(500))
            }
            // A triple click still selects the whole line, after a double click taken from GTK.
            let japanese = try layout.word("東京に行きます", in: "notes")
            var mark = app.lineCount
            try pointer.click(at: (japanese.x + japanese.width * 0.5, japanese.midY), count: 3)
            // (The line as shown: on Wayland the text wraps before "дождя,".)
            try await app.waitFor(TextLine.self, "the line selected by a triple click", after: mark) {
                $0.id == "notes" && $0.selection?.hasPrefix("東京に行きます 한국어를 배우고") == true
            }
            try await Task.sleep(for: .milliseconds(500))
            // The text field: "из" double-clicked selects "из-за" (GTK's own double click: "из"),
            // and a triple click everything.
            let field = try layout.frame("to")
            mark = app.lineCount
            try pointer.doubleClick(at: (field.x + 12, field.midY))
            try await app.waitFor(EntryLine.self, "из-за selected in the field", after: mark) {
                $0.selection == "из-за"
            }
            try await Task.sleep(for: .milliseconds(500))
            mark = app.lineCount
            try pointer.click(at: (field.x + 12, field.midY), count: 3)
            try await app.waitFor(EntryLine.self, "everything selected in the field", after: mark) {
                $0.selection == "из-за дождя"
            }
        }
    }
}
