import Foundation
import Testing

@testable import DragDrop

/// Every message a person reads ends with exactly one full stop, whatever its parts end with:
/// the builders of announcements, failure reasons and transfer errors, fed parts that end with
/// nothing, a full stop, two, an exclamation mark, a question mark, an ellipsis, a colon or a
/// space (issue 11 showed "…for 15 s.." in the status line).
@Suite("Messages: exactly one full stop")
struct SentenceTests {
    /// Parts as other code writes them: clauses, sentences, and worse.
    static let parts = [
        "the other app sent nothing for 15 s", "the other app sent nothing for 15 s.", "it quit..", "Gone!",
        "Is it there?", "still waiting…", "read-only:", "full stop. ", "",
    ]

    /// Ends with one full stop and has no doubled or mixed stops where parts were joined.
    static func isOneSentence(_ text: String) -> Bool {
        guard text.hasSuffix("."), !text.hasSuffix(".."), !text.hasSuffix(" .") else { return false }
        return !["..", "!.", "?.", ":.", "….", ".:", ". :"].contains { text.contains($0) }
    }

    static let items = [
        DragItem(id: "a", name: "Quarterly", kind: Noun("text", plural: "texts"), types: [.plainText], app: "qt")
    ]
    static let pair = items + [DragItem(id: "b", name: "Beach", kind: Noun("text", plural: "texts"), types: [], app: "qt")]

    @Test("Sentence: a part becomes one sentence, or the reason of one, with exactly one full stop")
    func composition() {
        for part in Self.parts where !Sentence.clause(part).isEmpty {
            #expect(Self.isOneSentence(Sentence.finished(part)), "\(Sentence.finished(part).debugDescription)")
            let explained = Sentence.explaining("The text could not be read", part)
            #expect(Self.isOneSentence(explained), "\(explained.debugDescription)")
            #expect(explained.hasPrefix("The text could not be read: "))
        }
        #expect(Sentence.finished("") == "")
        #expect(Sentence.explaining("Could not save", "") == "Could not save.")
        #expect(Sentence.explaining("Could not save.", "the disk is full.") == "Could not save: the disk is full.")
        #expect(Sentence.clause(" Over Work, will move. ") == "Over Work, will move")
    }

    @Test("C4, F7, A6: every announcement ends with exactly one full stop, whatever the names and reasons end with")
    func announcements() {
        for part in Self.parts where !Sentence.clause(part).isEmpty {
            let failure = DropFailure(.failed, part)
            let texts = [
                Announcements.pickedUp(Self.items), Announcements.pickedUp(Self.pair),
                Announcements.added(Self.items, total: Self.pair),
                Announcements.over("Archive", .forbidden(reason: part)), Announcements.over("Work", .copy),
                Announcements.over(nil, .move), Announcements.completed(Self.items, .copy, to: part),
                Announcements.failed(Self.items, failure), Announcements.adding(Self.items, to: part),
                Announcements.confirm("Files", part), Announcements.sprang(part), Announcements.undid(part),
                Announcements.redid(part), Announcements.undid(""), Announcement.pickedUp(Self.items).text,
                Announcement.over("Book club: March", .forbidden(reason: part)).text, failure.message,
            ]
            for text in texts { #expect(Self.isOneSentence(text), "\(text.debugDescription) (part \(part.debugDescription))") }
        }
        // The message, built the way a text drop from another app builds it.
        let timedOut = TransferError.sourceUnavailable("the other app sent nothing for 15 s")
        let shown = Announcements.failed(
            Self.items, DropFailure(.failed, Sentence.explaining("The text could not be read", timedOut)))
        #expect(
            shown
                == "Not dropped: The text could not be read: The source stopped providing the data: the other app sent nothing for 15 s."
        )
    }

    @Test("A6: every transfer error reads as one sentence, whatever its reason ends with")
    func transferErrors() {
        for part in Self.parts where !Sentence.clause(part).isEmpty {
            let errors: [TransferError] = [
                .notDroppedYet, .accessFinished, .noAcceptableRepresentation(offered: ["a/b"], accepted: ["c/d"]),
                .ownAppOnly(type: "application/x-note"), .tooLarge(type: "image/png", limit: 1000, size: 2000),
                .malformed(type: "image/png", reason: part), .cancelled, .sourceUnavailable(part),
                .io(path: "/tmp/x", reason: part), .noSuchItem(2),
            ]
            for error in errors {
                #expect(Self.isOneSentence(error.description), "\(error.description.debugDescription)")
                #expect(Self.isOneSentence(error.dropFailure.message))
            }
        }
    }
}
