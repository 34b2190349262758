import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel

#if canImport(Glibc)
    import Glibc
#endif

extension Tour {
    /// The plain text of a note's HTML as the pane reports it.
    private func plain(_ html: String) -> String {
        html.replacingOccurrences(of: "<br>", with: "\n").replacingOccurrences(
            of: "</?[bi]>", with: "", options: .regularExpression
        ).replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The notes' text as saved in the store, by title.
    private func storedNotes() throws -> [String: NotePayload] {
        let store = try ShowcaseStore(path: databasePath, seed: false)
        let collection = try require(try store.collection(pane: .notes, key: "notes"), "the Notes collection")
        var notes: [String: NotePayload] = [:]
        for item in try store.items(in: collection.id ?? 0) {
            if let data = item.payload, let note = try? JSONDecoder().decode(NotePayload.self, from: data) {
                notes[item.title] = note
            }
        }
        return notes
    }

    /// Double-clicks `word` in `note` and waits until it is the note's selection.
    private func selectWord(_ word: String, in note: String) throws -> ScreenRect {
        let layout = try app.settledLayout(pane: "notes")
        let frame = try layout.row(word, in: note)
        usleep(400_000)  // past the double-click time of an earlier click
        let mark = app.lineCount
        try pointer.display.xdotool(
            [
                "mousemove", String(Int(frame.midX)), String(Int(frame.midY)), "sleep", "0.05", "click", "--repeat",
                "2",
                "--delay", "80", "1",
            ])
        try app.waitForState("'\(word)' selected in \(note)", after: mark) { $0.selected[note] == [word] }
        return frame
    }

    /// 1. Notes: a word dragged inside a note moves; a bold word dragged to the other note is
    /// copied there, still bold; both saved in the store.
    func notes(_ info: SituationInfo) throws -> Verdict {
        var layout = try open("notes")
        let original = try app.waitForState("the notes", after: 0) { $0.pane == "notes" && $0.lists.count == 2 }.lists
        let titles = layout.lists.keys.sorted()
        try check(titles.count == 2, "two notes expected, the pane shows \(titles)")
        // The note with a bold word is the source of the copy; the other one takes it.
        guard
            let source = titles.first(where: { (original[$0]?.first ?? "").contains("<b>") }),
            let other = titles.first(where: { $0 != source })
        else { throw CheckFailure("no note has a bold word: \(original)") }
        let sourceHTML = try require(original[source]?.first, source)
        let otherHTML = try require(original[other]?.first, other)
        let boldWord = try require(
            sourceHTML.range(of: "<b>([^<]+)</b>", options: .regularExpression).map {
                String(sourceHTML[$0].dropFirst(3).dropLast(4))
            }, "a bold word")
        try check(!boldWord.contains(" "), "the bold text '\(boldWord)' is not one word")

        // Move: a plain word of the source note dropped before its last word.
        let words = try require(layout.rows[source], "the words of \(source)").map(\.title)
        let plainWord = try require(
            words.first { word in
                word != boldWord && word.allSatisfy(\.isLetter) && words.filter { $0 == word }.count == 1
            },
            "a plain word")
        let lastWord = try require(words.last, "the last word")
        let picked = try selectWord(plainWord, in: source)
        layout = try app.settledLayout(pane: "notes")
        let before = try layout.row(lastWord, in: source)
        var mark = app.lineCount
        try pointer.drag(from: picked.center, to: (before.x + 1, before.midY))
        // A move inserts, then removes the source range: read the state once the drag ended.
        try settleAfterDrag(mark, pane: "notes")
        let moved = try require(app.state, "the notes' state")
        let movedText = plain(moved.lists[source]?.first ?? "")
        let originalText = plain(sourceHTML)
        try check(
            movedText.unicodeScalars.count == originalText.unicodeScalars.count,
            "S2: a drag inside the note should move, the text went from '\(originalText)' to '\(movedText)'")
        try check(
            movedText.components(separatedBy: plainWord).count == originalText.components(separatedBy: plainWord).count,
            "'\(plainWord)' should appear as often as before in '\(movedText)'")
        let movedAt = try require(movedText.range(of: plainWord + lastWord), "'\(plainWord)' before '\(lastWord)'")
        _ = movedAt
        try check(moved.lists[other] == original[other], "the other note changed: \(moved.lists)")
        let committed = events(from: mark, named: "committed")
        try check(committed.last?.operation == "move", "S2: the drop was not a move: \(committed)")
        var stored = try storedNotes()
        try check(stored[source]?.text == movedText, "the store's '\(source)' is '\(stored[source]?.text ?? "")'")

        // Copy: the bold word dropped at the end of the other note keeps bold.
        let bold = try selectWord(boldWord, in: source)
        layout = try app.settledLayout(pane: "notes")
        let otherLast = try require(layout.rows[other]?.last, "the last word of \(other)").frame
        let sourceNow = try require(app.state?.lists[source]?.first, source)
        mark = app.lineCount
        try pointer.drag(from: bold.center, to: (otherLast.maxX + 6, otherLast.midY), release: false)
        let otherID = try layout.target(other)
        try app.waitFor(FeedbackLine.self, "the highlight on \(other)", after: mark) {
            $0.event == "highlightOn" && $0.target == otherID
        }
        usleep(300_000)
        try screenshot(String(format: "%02d-%@", info.number, info.slug))
        let release = app.lineCount
        try pointer.release()
        try settleAfterDrag(mark, pane: "notes")
        _ = release
        let copied = try require(app.state, "the notes' state")
        let otherNow = copied.lists[other]?.first ?? ""
        try check(otherNow.hasSuffix("<b>\(boldWord)</b>"), "A7: '\(boldWord)' did not arrive bold: \(otherNow)")
        try check(copied.lists[source]?.first == sourceNow, "S2: the copy changed the source note")
        try check(otherNow.hasPrefix(otherHTML), "the rest of \(other) changed: \(otherNow)")
        try check(
            events(from: mark, named: "committed").last?.operation == "copy",
            "S2: the drop to the other note was not a copy")
        stored = try storedNotes()
        let storedOther = try require(stored[other], "the stored '\(other)'")
        try check(storedOther.text == plain(otherNow), "the store's '\(other)' is '\(storedOther.text)'")
        let boldStart = storedOther.text.unicodeScalars.count - boldWord.unicodeScalars.count
        try check(
            storedOther.runs.contains {
                $0.start <= boldStart && $0.start + $0.length >= boldStart + 1 && $0.styles.contains("bold")
            },
            "the store lost the bold of '\(boldWord)': \(storedOther.runs)")

        // U1: Ctrl+Z takes the copy back, a second Ctrl+Z the move; both notes read as at the
        // start, in the window and in the store.
        _ = try app.settledLayout(pane: "notes")
        mark = app.lineCount
        try pointer.key("ctrl+z")
        try app.waitForState("the copy undone", after: mark) { $0.lists[other] == original[other] }
        _ = try app.settledLayout(pane: "notes")
        mark = app.lineCount
        try pointer.key("ctrl+z")
        try app.waitForState("the move undone", after: mark) { $0.lists == original }
        stored = try storedNotes()
        try check(
            stored[source]?.text == plain(sourceHTML) && stored[other]?.text == plain(otherHTML),
            "after two undos the store holds '\(stored[source]?.text ?? "")' and '\(stored[other]?.text ?? "")'")
        return .ok(
            "moved '\(plainWord)' before '\(lastWord)' in '\(source)'; copied bold '\(boldWord)' to the end of "
                + "'\(other)', still bold; both saved; Ctrl+Z twice undid the copy, then the move, in the store too")
    }
}
