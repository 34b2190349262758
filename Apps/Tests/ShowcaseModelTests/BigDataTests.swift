import DragDrop
import Foundation
@testable import ShowcaseModel
import Testing

@Suite("Showcase store, big collections")
struct BigDataTests {
    @Test(
        "S4, U1: All Mail (100,000 messages) and 20,000 more photos are inserted once, in order, with their generated titles; moving the first message out and another to the top keeps every other message in order, and the undo restores exactly"
    )
    func bigCollections() throws {
        let directory = try TemporaryDirectory()
        let store = try ShowcaseStore(path: directory.file("showcase.sqlite").path)
        #expect(try store.insertBigDataIfNeeded())
        #expect(try !store.insertBigDataIfNeeded(), "inserted once")
        let allMail = try #require(try store.collection(pane: .mail, key: ShowcaseBigData.allMailKey))
        let ids = try store.itemIDs(in: allMail.id!)
        #expect(ids.count == ShowcaseBigData.messageCount)
        let ends = try store.items(in: allMail.id!, positions: 0..<2)
            + store.items(in: allMail.id!, positions: (ids.count - 1)..<ids.count)
        #expect(
            ends.map(\.title)
                == [1, 2, ShowcaseBigData.messageCount].map(ShowcaseBigData.messageTitle))
        #expect(ends.first?.payload(as: MessagePayload.self)?.from.isEmpty == false)
        let library = try #require(try store.collection(pane: .photos, key: "library"))
        let photos = try store.items(in: library.id!)
        #expect(photos.count == 6 + ShowcaseBigData.photoCount)
        #expect(photos[6].title == ShowcaseBigData.photoTitle(1))
        #expect(photos.last?.title == ShowcaseBigData.photoTitle(ShowcaseBigData.photoCount))
        #expect(try store.integrityProblems().isEmpty)

        // The first message to the Archive: every other message moves up by one, in order.
        let archive = try #require(try store.collection(pane: .mail, key: "archive"))
        let archived = try store.itemIDs(in: archive.id!)
        let out = try store.move([ids[0]], to: archive.id!)
        #expect(try store.itemIDs(in: allMail.id!) == Array(ids.dropFirst()))
        #expect(try store.itemIDs(in: archive.id!) == archived + [ids[0]])
        // A message from the end to the top: every message in between moves down by one.
        let up = try store.move([ids[ids.count - 1]], to: allMail.id!, at: 0)
        #expect(try store.itemIDs(in: allMail.id!) == [ids[ids.count - 1]] + ids.dropFirst().dropLast())
        #expect(try store.integrityProblems().isEmpty)
        up.action.undo()
        out.action.undo()
        #expect(try store.itemIDs(in: allMail.id!) == ids)
        #expect(try store.itemIDs(in: archive.id!) == archived)
        #expect(try store.integrityProblems().isEmpty)
    }
}
