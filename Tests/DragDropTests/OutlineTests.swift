import DragDropTesting
import Testing

@testable import DragDrop

/// The outline model (issue 23): where a drop between rows lands by the pointer's depth (T1),
/// refusals into an item's own subtree (T3), several items from different parents (T4), undo
/// (T6), and the invariants over random outlines.
@Suite("Outlines")
struct OutlineTests {
    /// Inbox; Work ▸ (Projects ▸ (2026 ▸ Q1, collapsed), Budget), Notes; Archive (empty,
    /// collapsed); Sent. Work and Projects are open.
    static func mailboxes() throws -> OutlineTree {
        var tree = OutlineTree()
        try tree.append("inbox", name: "Inbox", canHoldChildren: true)
        try tree.append("work", name: "Work", canHoldChildren: true)
        try tree.append("projects", name: "Projects", under: "work", canHoldChildren: true)
        try tree.append("2026", name: "2026", under: "projects", canHoldChildren: true)
        try tree.append("q1", name: "Q1", under: "2026")
        try tree.append("budget", name: "Budget", under: "projects")
        try tree.append("notes", name: "Notes", under: "work")
        try tree.append("archive", name: "Archive", canHoldChildren: true)
        try tree.append("sent", name: "Sent")
        tree.expanded = ["work", "projects"]
        return tree
    }

    static let indent = 20.0

    /// The x of a pointer asking for `depth`.
    static func x(_ depth: Int) -> Double { Double(depth) * indent + indent / 2 }

    @Test("T1: the rows that show are the open containers' children, indented one level each")
    func rows() throws {
        let rows = try Self.mailboxes().rows()
        #expect(rows.map(\.id.rawValue) == ["inbox", "work", "projects", "2026", "budget", "notes", "archive", "sent"])
        #expect(rows.map(\.depth) == [0, 0, 1, 2, 2, 1, 0, 0])
        #expect(
            rows.map { $0.parent?.rawValue ?? "-" } == ["-", "-", "work", "projects", "projects", "work", "-", "-"])
        #expect(rows.map(\.index) == [0, 1, 0, 0, 1, 1, 2, 3])
        #expect(rows[3].childCount == 1 && !rows[3].isExpanded, "2026 holds Q1, closed")
    }

    @Test(
        "T2, T7: a row whose children the app has not listed yet counts them (a triangle, spring loading) until they are listed; the count is part of the tree's equality"
    )
    func unlistedChildren() throws {
        var tree = try Self.mailboxes()
        let before = tree
        tree.unlistedChildren = ["archive": 99_000]
        #expect(tree != before, "a changed count reloads the view")
        var rows = tree.rows()
        #expect(rows.first { $0.id == "archive" }?.childCount == 99_000)
        #expect(rows.first { $0.id == "archive" }?.isExpanded == false)
        #expect(rows.count == before.rows().count, "nothing listed, nothing shows")
        // Listed: the listed children count, and show once the row opens.
        try tree.append("2025", name: "2025", under: "archive")
        tree.expanded.insert("archive")
        rows = tree.rows()
        #expect(rows.first { $0.id == "archive" }?.childCount == 1)
        #expect(rows.map(\.id).contains("2025"))
        #expect(tree.childCount(of: "sent") == 0)
    }

    @Test(
        "T1: between two rows the pointer's x picks the depth among those the gap allows: no deeper than one below a row above that holds children, no shallower than the row below"
    )
    func depthByPointer() throws {
        let tree = try Self.mailboxes()
        let projector = OutlineProjector(rows: tree.rows(), dragging: ["sent"], indent: Self.indent)
        // Between Budget (depth 2) and Notes (depth 1).
        #expect(projector.depths(before: 5) == 1...2)
        #expect(projector.drop(before: 5, x: Self.x(2)) == .between(parent: "projects", index: 2, depth: 2))
        #expect(projector.drop(before: 5, x: Self.x(1)) == .between(parent: "work", index: 1, depth: 1))
        #expect(projector.drop(before: 5, x: Self.x(0)) == .between(parent: "work", index: 1, depth: 1), "clamped")
        #expect(projector.drop(before: 5, x: -300) == .between(parent: "work", index: 1, depth: 1))
        // Between Notes (depth 1) and Archive (depth 0): back to the top level, or after Notes.
        #expect(projector.depths(before: 6) == 0...1)
        #expect(projector.drop(before: 6, x: Self.x(0)) == .between(parent: nil, index: 2, depth: 0))
        #expect(projector.drop(before: 6, x: Self.x(1)) == .between(parent: "work", index: 2, depth: 1))
        // Between Work and its first child: only as Work's first child.
        #expect(projector.depths(before: 2) == 1...1)
        #expect(projector.drop(before: 2, x: Self.x(0)) == .between(parent: "work", index: 0, depth: 1))
        // Below an empty closed container: after it, or as its first child.
        #expect(projector.depths(before: 7) == 0...1)
        #expect(projector.drop(before: 7, x: Self.x(1)) == .between(parent: "archive", index: 0, depth: 1))
        // Below a row that holds nothing (Budget): not one level deeper.
        #expect(projector.depths(before: 5).upperBound == 2)
        // The top and the end (Sent is dragged, so the end follows Archive).
        #expect(projector.drop(before: 0, x: Self.x(3)) == .between(parent: nil, index: 0, depth: 0))
        #expect(projector.drop(before: 8, x: Self.x(0)) == .between(parent: nil, index: 3, depth: 0))
        #expect(projector.drop(on: "archive") == .on("archive"))
        #expect(projector.drop(on: "budget") == nil, "Budget holds nothing")
    }

    @Test(
        "T3: a dragged item's own rows are no drop points, and a drop into itself or its subtree is refused with the reason, changing nothing"
    )
    func neverIntoItself() throws {
        var tree = try Self.mailboxes()
        let projector = OutlineProjector(rows: tree.rows(), dragging: ["work"], indent: Self.indent)
        #expect(projector.rows.map(\.id.rawValue) == ["inbox", "archive", "sent"])
        #expect(projector.drop(on: "projects") == nil)
        #expect(projector.drop(on: "work") == nil)
        // A gap inside the dragged rows is the gap before the next row left (Archive).
        #expect(projector.drop(before: 3, x: Self.x(1)) == .between(parent: "inbox", index: 0, depth: 1))
        #expect(tree.refusal(dropping: ["work"], into: "2026") == .intoDescendant(item: "Work", descendant: "2026"))
        #expect(
            tree.refusal(dropping: ["work"], into: "2026")?.description
                == "'Work' cannot go inside '2026', which is inside it.")
        #expect(tree.refusal(dropping: ["work"], into: "work")?.description == "'Work' cannot go inside itself.")
        #expect(tree.refusal(dropping: ["notes"], into: "sent") == .cannotHoldChildren("Sent"))
        let before = tree
        #expect(throws: OutlineRefusal.intoDescendant(item: "Work", descendant: "Projects")) {
            try tree.move(["inbox", "work"], into: "projects", at: 0)
        }
        #expect(tree == before, "a refused move changes nothing")
    }

    @Test(
        "T3, L1, L2: the reason for a refused drop into an item's own subtree reads whole in Korean, Japanese and Russian, with the names quoted as each language quotes them"
    )
    func refusalsInEveryLanguage() {
        let refusal = OutlineRefusal.intoDescendant(item: "Work", descendant: "2026")
        #expect(
            Localization.withLanguage("ko") { refusal.description }
                == "‘2026’은 ‘Work’ 안에 있어서 ‘Work’을(를) 그 안에 넣을 수 없습니다.")
        #expect(
            Localization.withLanguage("ja") { refusal.description } == "「2026」は「Work」の中にあるため、「Work」をそこに入れることはできません。")
        #expect(
            Localization.withLanguage("ru") { refusal.description }
                == "«Work» нельзя поместить в «2026»: «2026» находится внутри «Work».")
        #expect(
            Localization.withLanguage("ko") { OutlineRefusal.intoItself(item: "받은 편지함").description }
                == "‘받은 편지함’은 자기 자신 안에 넣을 수 없습니다.")
        #expect(
            Localization.withLanguage("en") { OutlineRefusal.cannotHoldChildren("Sent").description }
                == "'Sent' cannot hold other items.")
    }

    @Test(
        "T5: the keyboard reaches every drop point of an outline in reading order, each named by its parent and position"
    )
    func keyboardDropPoints() throws {
        let tree = try Self.mailboxes()
        let points = OutlineProjector(rows: tree.rows(), dragging: ["sent"], indent: Self.indent).dropPoints()
        let said = Localization.withLanguage("en") { points.map(tree.describe) }
        #expect(
            said == [
                "At the top of the list.", "Into Inbox.",
                "At the top of Inbox.", "After Inbox, at the top level.", "Into Work.",
                "At the top of Work.", "Into Projects.",
                "At the top of Projects.", "Into 2026.",
                "At the top of 2026.", "After 2026, inside Projects.",
                "After Budget, inside Projects.", "After Projects, inside Work.",
                "After Notes, inside Work.", "After Work, at the top level.", "Into Archive.",
                "At the top of Archive.", "After Archive, at the top level.",
            ])
        #expect(points[11] == .between(parent: "projects", index: 2, depth: 2))
        #expect(points.count == Set(points).count, "each drop point once")
        // Dragging Work: nothing inside it is offered.
        let fromWork = OutlineProjector(rows: tree.rows(), dragging: ["work"], indent: Self.indent).dropPoints()
        #expect(!fromWork.contains { $0.parent.map { tree.contains($0, inside: "work") } ?? false })
        #expect(
            Localization.withLanguage("ru") { tree.describe(.between(parent: "projects", index: 2, depth: 2)) }
                == "После «Budget» внутри «Projects».")
        #expect(Localization.withLanguage("ja") { tree.describe(.on("archive")) } == "Archiveの中へ。")
        #expect(
            Localization.withLanguage("ko") { tree.describe(.between(parent: nil, index: 0, depth: 0)) } == "목록의 맨 위.")
    }

    @Test(
        "T4: several items from different parents land together in their outline order, each with its subtree; a selected child of a selected parent moves once, inside it"
    )
    func severalFromDifferentParents() throws {
        var tree = try Self.mailboxes()
        // Chosen in another order than they stand: Notes, Inbox, Q1 (inside the closed 2026).
        try tree.move(["notes", "inbox", "q1"], into: "archive", at: 0)
        #expect(tree.children(of: "archive") == ["inbox", "q1", "notes"])
        #expect(tree.children(of: nil) == ["work", "archive", "sent"])
        #expect(tree.children(of: "work") == ["projects"])
        #expect(tree.children(of: "2026").isEmpty)
        #expect(tree.expanded.contains("archive"), "the parent opens to show what arrived")

        var other = try Self.mailboxes()
        try other.move(["q1", "2026"], into: nil, at: 1)
        #expect(other.children(of: nil) == ["inbox", "2026", "work", "archive", "sent"])
        #expect(other.children(of: "2026") == ["q1"], "Q1 stays inside 2026, which carried it")
        #expect(other.depth(of: "q1") == 1)
    }

    @Test("T1, T4: an index counts the siblings as they were before the move: moving down past two lands after them")
    func indexAsBefore() throws {
        var tree = OutlineTree()
        for name in ["A", "B", "C", "D"] { try tree.append(TargetID(name), name: name) }
        try tree.move(["A"], into: nil, at: 3)
        #expect(tree.children(of: nil) == ["B", "C", "A", "D"])
        try tree.move(["D", "B"], into: nil, at: 0)
        #expect(tree.children(of: nil) == ["B", "D", "C", "A"])
    }

    @Test(
        "T6: undo puts every item back under its former parent at its former index, and the rows that were open open again"
    )
    func undoRestores() throws {
        var tree = try Self.mailboxes()
        let original = tree
        let move = try tree.move(["budget", "inbox", "2026"], into: "archive", at: 0)
        #expect(move.items == ["inbox", "2026", "budget"])
        #expect(tree != original)
        tree.undo(move)
        #expect(tree == original)
        #expect(tree.rows() == original.rows())
    }

    @Test(
        "T3, T4, T6: over 2,000 random outlines (deep, wide, closed) and moves, every item keeps exactly one parent, no cycle forms, refused moves change nothing, and undo restores the outline exactly"
    )
    func randomOutlines() throws {
        var random = SeededRandom(seed: 0x5EED)
        for _ in 0..<2_000 {
            var tree = OutlineTree()
            let size = Int(random.next() % 40) + 2
            var ids: [TargetID] = []
            for n in 0..<size {
                let containers = ids.filter { tree.containers.contains($0) }
                let parent: TargetID? =
                    containers.isEmpty || random.next() % 4 == 0
                    ? nil : containers[Int(random.next() % UInt64(containers.count))]
                let id = TargetID("n\(n)")
                try tree.append(id, name: "Item \(n)", under: parent, canHoldChildren: random.next() % 3 != 0)
                if random.next() % 2 == 0 { tree.expanded.insert(id) }
                ids.append(id)
            }
            let original = tree
            let chosen = (0..<Int(random.next() % 4) + 1).map { _ in ids[Int(random.next() % UInt64(ids.count))] }
            let targets = [nil] + ids.filter { tree.containers.contains($0) }.map { Optional($0) }
            let parent = targets[Int(random.next() % UInt64(targets.count))]
            let index = Int(random.next() % 6)
            let refusal = tree.refusal(dropping: chosen, into: parent)
            do throws(OutlineRefusal) {
                let move = try tree.move(chosen, into: parent, at: index)
                #expect(refusal == nil)
                Self.expectWellFormed(tree, ids: ids)
                for item in chosen { #expect(tree.contains(item, inside: parent ?? item) || parent == nil) }
                tree.undo(move)
                #expect(tree == original, "undo restores the outline exactly")
            } catch {
                #expect(refusal == error)
                #expect(tree == original, "a refused move changes nothing")
            }
        }
    }

    /// Every item has exactly one parent that lists it once, and no item is inside itself.
    static func expectWellFormed(_ tree: OutlineTree, ids: [TargetID]) {
        var seen: [TargetID: Int] = [:]
        for parent in [nil] + ids.map(Optional.some) {
            for child in tree.children(of: parent) {
                seen[child, default: 0] += 1
                #expect(tree.parent(of: child) == parent)
            }
        }
        #expect(ids.allSatisfy { seen[$0] == 1 }, "each item listed once, under its one parent")
        for id in ids {
            // Walking up ends at the top level within as many steps as there are items.
            var steps = 0
            var current = tree.parent(of: id)
            while let next = current, steps <= ids.count {
                current = tree.parent(of: next)
                steps += 1
            }
            #expect(steps <= ids.count, "no cycle above \(id)")
        }
    }
}
