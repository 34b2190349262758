import DragDrop
import Foundation
import Testing

@testable import DragDropGTK

/// Text another app offers in several forms, read the one way drops and pastes read it
/// (`DroppedText`): a form that fails its checks gives way to the next, without a display.
@Suite("Other apps' text: forms tried in turn")
@MainActor
struct OtherAppTextTests {
    /// Data of one item offering `representations`, opened as at a drop.
    private func offering(_ representations: [Representation]) -> DropDataAccess {
        let access = DropDataAccess(
            providers: [ItemProvider(app: "soffice", representations: representations)], requester: "Notes")
        access.open()
        return access
    }

    private static let accepted = DragTextView.acceptedTypes

    @Test("A2, A7: LibreOffice's HTML ends with a NUL byte, a C string's terminator: it is left out and the bold kept")
    func trailingTerminatorIsNotText() async throws {
        let data = offering([
            .data(.html, Data("<p><b>Bold</b> word</p>\n\0".utf8)), .data("text/rtf", Data("{\\rtf1 x}\0".utf8)),
            .text(.utf8PlainText, "Bold word"),
        ])
        let text = try await DroppedText.load(data, accepting: Self.accepted, maximumLength: nil)
        #expect(text.styled)
        #expect(text.runs == [StyledRun("Bold", bold: true), StyledRun(" word")])
    }

    @Test("A6, A2: HTML with a NUL inside is not used; the plain text offered next arrives instead")
    func nulInsideFallsBackToTheNextForm() async throws {
        let data = offering([.data(.html, Data("<b>a\0b</b>".utf8)), .text(.utf8PlainText, "a b")])
        let text = try await DroppedText.load(data, accepting: Self.accepted, maximumLength: nil)
        #expect(!text.styled)
        #expect(text.runs == [StyledRun("a b")])
    }

    @Test("A6: invalid UTF-8 in the HTML gives way to the plain text; when no form is usable the first reason is given")
    func everyFormTriedThenTheFirstReason() async throws {
        let fallback = offering([.data(.html, Data([0x3C, 0x62, 0x3E, 0xFF, 0xFE])), .text(.utf8PlainText, "fine")])
        #expect(
            try await DroppedText.load(fallback, accepting: Self.accepted, maximumLength: nil).runs == [
                StyledRun("fine")
            ])

        let hopeless = offering([.data(.html, Data("x\0y".utf8)), .data(.utf8PlainText, Data("p\0q".utf8))])
        await #expect {
            _ = try await DroppedText.load(hopeless, accepting: Self.accepted, maximumLength: nil)
        } throws: { error in
            guard let problem = error as? DroppedText.Problem, case .nul = problem else { return false }
            return DroppedText.failure(problem, name: "Notes").message
                == "The text was not added: it contains a NUL character, which text never holds."
        }
    }

    @Test("A7: a phrase from another app dropped after a word is spaced as a word, never glued to its neighbours")
    func smartSpaces() {
        func spaces(_ before: Character?, _ text: String, _ after: Character?) -> String {
            let s = DragTextView.smartSpaces(before: before, first: text.first, last: text.last, after: after)
            return (s.leading ? " " : "") + text + (s.trailing ? " " : "")
        }
        #expect(spaces(".", "Plain then", nil) == " Plain then", "after a sentence's end, at the end of a note")
        #expect(spaces("d", "word", "n") == " word ", "between two words")
        #expect(spaces(" ", "word", " ") == "word", "spaces already there")
        #expect(spaces("(", "word", ")") == "word", "inside brackets")
        #expect(spaces("d", ", then", " ") == ", then", "punctuation that closes")
        #expect(spaces(nil, "First", "T") == "First ", "at the start, before a word")
        #expect(spaces(nil, "Only", nil) == "Only")
    }
}
