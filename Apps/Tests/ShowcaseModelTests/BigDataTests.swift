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
        let ends =
            try store.items(in: allMail.id!, positions: 0..<2)
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

    @Test(
        "T7: Shared holds 100,000 mailboxes (10 regions of 99 teams of 100 cases), read a row at a time: a row's mailboxes in order, child counts and item counts for many rows in one query each; a case moved into another team and back (T6) leaves every other mailbox in place"
    )
    func sharedMailboxTree() throws {
        let directory = try TemporaryDirectory()
        let store = try ShowcaseStore(path: directory.file("showcase.sqlite").path)
        try store.insertBigDataIfNeeded()
        let shared = try #require(try store.collection(pane: .mail, key: ShowcaseBigData.sharedKey))
        #expect(ShowcaseBigData.sharedMailboxCount == 100_000)
        let top = try store.collections(in: .mail, under: nil)
        #expect(top.last?.name == "Shared" && top.contains { $0.name == "All Mail" })
        let regions = try store.collections(in: .mail, under: shared.id)
        #expect(regions.map(\.name) == (1...10).map(ShowcaseBigData.regionName))
        let teams = try store.collections(in: .mail, under: regions[2].id)
        #expect(teams.count == 99)
        #expect(teams.first?.name == ShowcaseBigData.teamName(region: 3, team: 1))
        #expect(teams.last?.name == "Team 3-99")
        let cases = try store.collections(in: .mail, under: teams[0].id)
        // Region 3's first team is the 199th team: its cases start at 19,801.
        #expect(cases.map(\.name) == (19_801...19_900).map(ShowcaseBigData.caseName))
        #expect(cases.first?.name == "Case 19801")
        let lastTeam = try #require(try store.collections(in: .mail, under: regions[9].id).last)
        #expect(try store.collections(in: .mail, under: lastTeam.id).last?.name == "Case 99000")

        let counts = try store.childCounts(of: [shared.id!] + regions.map { $0.id! } + [cases[0].id!], in: .mail)
        #expect(counts[shared.id!] == 10)
        #expect(regions.allSatisfy { counts[$0.id!] == 99 })
        #expect(counts[cases[0].id!] == nil, "a case holds no mailboxes")
        let allMail = try #require(try store.collection(pane: .mail, key: ShowcaseBigData.allMailKey))
        let inbox = try #require(try store.collection(pane: .mail, key: "inbox"))
        let items = try store.itemCounts(in: [allMail.id!, inbox.id!, shared.id!])
        #expect(items[allMail.id!] == ShowcaseBigData.messageCount)
        #expect(items[inbox.id!] == (try store.itemCount(in: inbox.id!)))
        #expect(items[shared.id!] == nil)

        // A case into another team, at its top: only that team's mailboxes get new places.
        let other = try store.collections(in: .mail, under: teams[1].id)
        let moved = CollectionPlace(id: cases[5].id!, parent: teams[1].id, position: 0)
        let after =
            [moved] + other.enumerated().map { CollectionPlace(id: $1.id!, parent: teams[1].id, position: $0 + 1) }
        let before = try store.arrange(after)
        #expect(try store.collections(in: .mail, under: teams[1].id).map(\.name) == [cases[5].name] + other.map(\.name))
        #expect(
            try store.collections(in: .mail, under: teams[0].id).map(\.name)
                == cases.map(\.name).filter { $0 != cases[5].name })
        try store.arrange(before)
        #expect(try store.collections(in: .mail, under: teams[0].id) == cases)
        #expect(try store.collections(in: .mail, under: teams[1].id) == other)
    }
}
