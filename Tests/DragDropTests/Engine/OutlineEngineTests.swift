import DragDrop
import DragDropTesting
import Testing

/// The engine over an outline (issue 23): a container with ``DragTarget/outline`` whose rows are
/// its registered children places a pointer's drop between rows at the depth its horizontal
/// position picks, or on a row that holds children (T1); refuses a drop inside a dragged item
/// with the reason (T3); moves several items from different parents together (T4); offers
/// every gap and row to the keyboard, named by parent and position (T5); and undoes a drop back
/// to the former parents, indexes and open rows (T6).
@Suite("Engine: outlines")
struct OutlineEngineTests {
    static let mailbox: ContentType = "application/x-mailbox"
    static let message: ContentType = "application/x-message"
    static let rowHeight = 24.0
    static let indent = 20.0

    /// A mail app whose mailboxes are an outline: each row that shows is registered under the
    /// outline at its place (24 points high, from the top); a drop moves the mailboxes in the
    /// tree, undoably.
    final class Mail: DragEngineDelegate {
        var tree: OutlineTree
        let engine: DragEngine
        var events: [FeedbackEvent] = []
        var drops: [DropRequest] = []
        var treeAsked = 0

        init(_ tree: OutlineTree? = nil, messagesOnRows: Bool = false, rowsOnly: Bool = false) throws {
            self.tree = try tree ?? OutlineTests.mailboxes()
            engine = DragEngine(app: "Mail", clock: VirtualClock())
            engine.delegate = self
            try engine.register(
                DragTarget(id: "window", name: "Mail", frame: Rect(x: 0, y: 0, width: 800, height: 600)))
            var outline = DragTarget(
                id: "mailboxes", name: "Mailboxes", frame: Rect(x: 0, y: 0, width: 300, height: 600), parent: "window")
            outline.accepts = [Self.type]
            outline.outline = OutlineLayout(indent: OutlineEngineTests.indent, dropsOnRowsOnly: rowsOnly)
            if messagesOnRows {
                // Messages from a list beside it drop on mailboxes.
                outline.accepts.append(OutlineEngineTests.message)
                outline.outline?.dropsFromOutsideOnRows = true
                var list = DragTarget(
                    id: "messages", name: "Messages", frame: Rect(x: 400, y: 0, width: 300, height: 600),
                    parent: "window")
                list.accepts = [OutlineEngineTests.message]
                try engine.register(list)
                var message = DragTarget(
                    id: "hello", name: "Hello", frame: Rect(x: 400, y: 0, width: 300, height: 24), parent: "messages")
                message.offers = [OutlineEngineTests.message]
                try engine.register(message)
            }
            try engine.register(outline)
            try layOut()
        }

        static var type: ContentType { OutlineEngineTests.mailbox }

        /// Registers the rows that show, in order, replacing the ones registered before.
        func layOut() throws {
            for id in engine.registry.allTargets.map(\.id) where engine.registry.ancestors(of: id).first == "mailboxes"
            {
                try engine.unregister(id)
            }
            for (position, row) in tree.rows().enumerated() {
                var target = DragTarget(
                    id: row.id, name: tree.name(of: row.id),
                    frame: Rect(x: 0, y: Double(position) * rowHeight, width: 300, height: rowHeight),
                    parent: "mailboxes")
                target.offers = [Self.type]
                try engine.register(target)
            }
        }

        /// The centre of row `id`'s band at `fraction` of its height, with the pointer at `x`.
        func point(_ id: TargetID, _ fraction: Double = 0.5, x: Double = 150) -> Point {
            let position = tree.rows().firstIndex { $0.id == id } ?? 0
            return Point(x: x, y: (Double(position) + fraction) * rowHeight)
        }

        func dragEngine(_ engine: DragEngine, outlineOf container: TargetID) -> OutlineTree? {
            treeAsked += 1
            return container == "mailboxes" ? tree : nil
        }

        func dragEngine(_ engine: DragEngine, perform drop: DropRequest) -> DropResult {
            drops.append(drop)
            guard let point = drop.outline else { return .failed(DropFailure(.failed, "no place")) }
            // A message onto a mailbox: the mailbox takes it; the tree does not change.
            if !drop.items.contains(where: { tree.holds($0.id) }) { return .committed(undo: nil) }
            do {
                let move = try tree.move(drop.items.map(\.id), to: point)
                try layOut()
                return .committed(
                    undo: UndoableAction(
                        undo: { [unowned self] in
                            tree.undo(move)
                            try? layOut()
                        },
                        redo: { [unowned self] in
                            _ = try? tree.move(move.items, to: point)
                            try? layOut()
                        }))
            } catch {
                return .failed(DropFailure(.failed, "\(error)"))
            }
        }

        func dragEngine(_ engine: DragEngine, emitted event: FeedbackEvent) { events.append(event) }

        /// The outline drop points shown since `mark`.
        func points(since mark: Int = 0) -> [OutlineDropPoint?] {
            events[mark...].compactMap { event in
                guard case .outlineDrop(_, let point) = event else { return nil }
                return .some(point)
            }
        }

        /// The operation proposed last since `mark`.
        func lastProposal(since mark: Int) -> DropOperation? {
            events[mark...].compactMap { event -> DropOperation? in
                if case .proposal(_, let operation) = event { return operation }
                return nil
            }.last
        }

        /// What was said since `mark`.
        func said(since mark: Int = 0) -> [String] {
            events[mark...].compactMap { event in
                guard case .announcement(let a) = event else { return nil }
                return a.text
            }
        }

        /// Lifts `id` from its row and brings the pointer to `point`.
        func drag(_ id: TargetID, to point: Point) {
            let start = self.point(id)
            engine.pointerDown(at: start)
            engine.pointerMoved(to: Point(x: start.x, y: start.y + 4))
            engine.pointerMoved(to: point)
        }

        /// Parent and position of every mailbox, for comparing outlines.
        var shape: [String] {
            func walk(_ parent: TargetID?, _ prefix: String) -> [String] {
                tree.children(of: parent).flatMap { [prefix + $0.rawValue] + walk($0, prefix + "  ") }
            }
            return walk(nil, "")
        }
    }

    @Test(
        "T1: between two rows the pointer's x picks the depth the gap allows; over the middle of a row that holds children the drop goes into it; the drop lands there, and the point goes away"
    )
    func pointerPicksDepthAndRow() throws {
        try Localization.withLanguage("en") {
            let mail = try Mail()
            // Sent, dragged to the line between Budget (depth 2) and Notes (depth 1).
            mail.drag("sent", to: mail.point("budget", 0.9, x: OutlineTests.x(2)))
            #expect(mail.points().last == .between(parent: "projects", index: 2, depth: 2))
            mail.engine.pointerMoved(to: mail.point("notes", 0.1, x: OutlineTests.x(1)))
            #expect(mail.points().last == .between(parent: "work", index: 1, depth: 1), "the same gap, one level out")
            #expect(mail.said().last == "After Projects, inside Work. Will move.")
            #expect(mail.engine.currentSession?.outlineDropPoint == .between(parent: "work", index: 1, depth: 1))
            // Over Archive's middle: into it.
            mail.engine.pointerMoved(to: mail.point("archive", 0.5))
            #expect(mail.points().last == .on("archive"))
            #expect(mail.said().last == "Into Archive. Will move.")
            // Over the middle of Budget, which holds nothing: the gap nearest the pointer.
            mail.engine.pointerMoved(to: mail.point("budget", 0.45, x: OutlineTests.x(2)))
            #expect(mail.points().last == .between(parent: "projects", index: 1, depth: 2))
            mail.engine.pointerMoved(to: mail.point("archive", 0.5))
            let outcome = mail.engine.pointerUp(at: mail.point("archive", 0.5))
            #expect(outcome == .completed(destination: "mailboxes", operation: .move))
            #expect(mail.drops.last?.outline == .on("archive"))
            #expect(mail.tree.parent(of: "sent") == "archive" && mail.tree.expanded.contains("archive"))
            #expect(mail.points().last == .some(nil), "the drop point goes away with the drag")
        }
    }

    @Test(
        "T3: over a row inside the dragged mailbox the drop is refused with the reason, nothing shows there, and releasing changes nothing; over its own row it goes back where it was"
    )
    func neverIntoItsOwnSubtree() throws {
        try Localization.withLanguage("en") {
            let mail = try Mail()
            let before = mail.shape
            // Work is dragged; its own row offers the place it left.
            mail.drag("work", to: mail.point("work", 0.3, x: OutlineTests.x(0)))
            #expect(mail.points().last == .between(parent: nil, index: 1, depth: 0))
            let mark = mail.events.count
            mail.engine.pointerMoved(to: mail.point("2026", 0.5))
            let proposal = mail.lastProposal(since: mark)
            #expect(proposal == .forbidden(reason: "'Work' cannot go inside '2026', which is inside it."))
            #expect(mail.points(since: mark) == [nil], "the point shown before goes away, none shows inside Work")
            #expect(!mail.events[mark...].contains { if case .highlight(_, true) = $0 { true } else { false } })
            #expect(
                mail.said(since: mark).last
                    == "Over 2026, cannot drop: 'Work' cannot go inside '2026', which is inside it.")
            let outcome = mail.engine.pointerUp(at: mail.point("2026", 0.5))
            #expect(outcome?.failure?.message == "'Work' cannot go inside '2026', which is inside it.")
            #expect(mail.drops.isEmpty && mail.shape == before, "nothing changed")
        }
    }

    @Test(
        "T4, T6: Inbox and Notes, from two parents, land together in Archive in outline order; undo puts each back under its parent at its index and closes what the drop opened; redo moves them again"
    )
    func severalThenUndo() throws {
        try Localization.withLanguage("en") {
            let mail = try Mail()
            let before = mail.shape
            let open = mail.tree.expanded
            // Notes is selected with Inbox: the drag carries both (in outline order at the drop).
            mail.engine.pointerDown(at: mail.point("notes"))
            mail.engine.pointerMoved(to: Point(x: 150, y: mail.point("notes").y + 4))
            _ = try mail.engine.addItems(["inbox"])
            mail.engine.pointerMoved(to: mail.point("archive", 0.5))
            #expect(mail.points().last == .on("archive"))
            #expect(
                mail.engine.pointerUp(at: mail.point("archive", 0.5))
                    == .completed(destination: "mailboxes", operation: .move))
            #expect(mail.tree.children(of: "archive") == ["inbox", "notes"], "outline order, not pick-up order")
            #expect(mail.engine.undoStack.undoMenuItemTitle == "Undo Move 2 Items")
            mail.engine.undo()
            #expect(mail.shape == before, "every mailbox back under its parent at its index")
            #expect(mail.tree.expanded == open, "Archive, opened by the drop, closed again")
            mail.engine.redo()
            #expect(mail.tree.children(of: "archive") == ["inbox", "notes"])
        }
    }

    @Test(
        "T5: a keyboard drag reaches every gap at every depth and every mailbox that holds children, says each by parent and position, never one inside the dragged mailbox; Return drops there"
    )
    func keyboardReachesEveryPoint() throws {
        try Localization.withLanguage("en") {
            let mail = try Mail()
            try mail.engine.beginKeyboardDrag(items: ["projects"], from: "mailboxes")
            let points = mail.engine.keyboardDropPoints
            let expected = OutlineProjector(rows: mail.tree.rows(), dragging: ["projects"], indent: 20).dropPoints()
            #expect(points.map(\.outline) == expected.map(Optional.some), "the outline's points, in its order")
            #expect(!points.contains { $0.outline?.parent.map { mail.tree.contains($0, inside: "projects") } ?? false })
            #expect(
                Array(points.prefix(3).map(\.name)) == [
                    "At the top of the list.", "Into Inbox.", "At the top of Inbox.",
                ])
            var said: [String] = []
            for _ in 0..<points.count {
                let mark = mail.events.count
                _ = mail.engine.keyDown(.nextDropPoint)
                said.append(mail.said(since: mark).last ?? "")
                if mail.points().last == .between(parent: "work", index: 2, depth: 1) { break }
            }
            #expect(said.first == "At the top of the list. Will move.")
            #expect(said.last == "After Notes, inside Work. Will move.")
            let result = mail.engine.keyDown(.drop)
            #expect(result == .ended(.completed(destination: "mailboxes", operation: .move)))
            #expect(
                mail.tree.children(of: "work") == ["notes", "projects"], "Projects after Notes, with 2026 inside it")
            #expect(mail.tree.parent(of: "2026") == "projects")
        }
    }

    @Test(
        "T2, T7: the tree is read on every move, and a row opened mid-drag (sprung open) offers its children's gaps at once"
    )
    func followsATreeChangedMidDrag() throws {
        let mail = try Mail()
        mail.drag("sent", to: mail.point("budget", 0.9))
        let revision = mail.tree.revision
        for step in 0..<50 { mail.engine.pointerMoved(to: mail.point("inbox", Double(step % 10) / 10)) }
        #expect(mail.treeAsked >= 50)
        // Opening 2026 mid-drag (a spring-loaded row): its child shows and can be dropped beside.
        mail.tree.expanded.insert("2026")
        #expect(mail.tree.revision != revision)
        try mail.layOut()
        mail.engine.pointerMoved(to: mail.point("q1", 0.9, x: OutlineTests.x(3)))
        #expect(mail.points().last == .between(parent: "2026", index: 1, depth: 3))
        _ = mail.engine.cancelDrag()
    }

    @Test(
        "T1, T3, T4, T6: 300 random sessions (pointer and keyboard, one or several items) over random outlines (deep, wide, closed): no point ever shows inside a dragged item, a refused or cancelled drop changes nothing, every item keeps one parent, undo restores the outline exactly and redo redoes it"
    )
    func randomSessions() throws {
        var random = SeededRandom(seed: 0x0A71)
        func pick(_ n: Int) -> Int { Int(random.next() % UInt64(max(1, n))) }
        for session in 0..<300 {
            var tree = OutlineTree()
            var ids: [TargetID] = []
            for n in 0..<(pick(24) + 3) {
                let containers = ids.filter { tree.containers.contains($0) }
                let parent: TargetID? = containers.isEmpty || pick(4) == 0 ? nil : containers[pick(containers.count)]
                let id = TargetID("n\(n)")
                try tree.append(id, name: "Item \(n)", under: parent, canHoldChildren: pick(3) != 0)
                if pick(3) != 0 { tree.expanded.insert(id) }
                ids.append(id)
            }
            let mail = try Mail(tree)
            let original = mail.tree
            let rows = original.rows()
            let first = rows[pick(rows.count)].id
            var dragged: [TargetID] = [first]
            var outcome: DropOutcome?
            var joined = 0
            if pick(3) == 0 {
                // Keyboard: pick up one or two rows, go some points on, drop.
                if pick(2) == 0, let other = rows.map(\.id).filter({ $0 != first }).randomElement(using: &random) {
                    dragged.append(other)
                }
                try mail.engine.beginKeyboardDrag(items: dragged, from: "mailboxes")
                for _ in 0..<(pick(12) + 1) { _ = mail.engine.keyDown(.nextDropPoint) }
                outcome = mail.engine.keyDown(.drop).outcome
            } else {
                mail.drag(first, to: mail.point(first, 0.5))
                if pick(3) == 0, let other = rows.map(\.id).filter({ $0 != first }).randomElement(using: &random) {
                    if (try? mail.engine.addItems([other])) != nil { dragged.append(other) }
                }
                // Points shown before an item joined were right for the items dragged then.
                joined = mail.events.count
                for _ in 0..<(pick(8) + 1) {
                    let row = rows[pick(rows.count)].id
                    mail.engine.pointerMoved(
                        to: mail.point(row, Double(pick(100)) / 100, x: Double(pick(Int(OutlineTests.x(6))))))
                }
                outcome = mail.engine.pointerUp(at: mail.engine.currentSession?.pointer ?? Point(x: 0, y: 0))
            }
            // No point ever showed inside what was dragged (T3).
            for case .some(let point) in mail.points(since: joined) {
                #expect(
                    !dragged.contains { item in point.parent.map { original.contains($0, inside: item) } ?? false },
                    "session \(session): \(point) inside a dragged item of \(dragged), rows \(rows.map { "\($0.id)@\($0.depth)\($0.canHoldChildren ? "+" : "")" })"
                )
            }
            OutlineTests.expectWellFormed(mail.tree, ids: ids)
            if case .completed = outcome {
                let dropped = mail.tree
                mail.engine.undo()
                #expect(mail.tree == original, "session \(session): undo restores the outline")
                mail.engine.redo()
                #expect(mail.tree == dropped, "session \(session): redo moves them again")
            } else {
                #expect(mail.tree == original, "session \(session): \(String(describing: outcome)) changed nothing")
            }
        }
    }

    @Test(
        "T1: with dropsFromOutsideOnRows, a message dragged from a list beside the outline drops on the mailbox under the pointer, its edges too, never between rows; a row the tree refuses is forbidden with its reason; the keyboard reaches every row that takes it"
    )
    func itemsFromOutsideDropOnRows() throws {
        try Localization.withLanguage("en") {
            let mail = try Mail(messagesOnRows: true)
            mail.tree.refusals["sent"] = "Sent is read-only."
            mail.engine.pointerDown(at: Point(x: 500, y: 12))
            mail.engine.pointerMoved(to: Point(x: 500, y: 16))
            // The top edge of Budget (a leaf) and the bottom edge of Archive: still on the row.
            mail.engine.pointerMoved(to: mail.point("budget", 0.1, x: OutlineTests.x(0)))
            #expect(mail.points().last == .on("budget"))
            mail.engine.pointerMoved(to: mail.point("archive", 0.95))
            #expect(mail.points().last == .on("archive"))
            #expect(mail.said().last == "Into Archive. Will copy.")
            let mark = mail.events.count
            mail.engine.pointerMoved(to: mail.point("sent", 0.5))
            let proposal = mail.lastProposal(since: mark)
            #expect(proposal == .forbidden(reason: "Sent is read-only."))
            #expect(mail.said().last == "Over Sent, cannot drop: Sent is read-only.", "the row is named, not the outline")
            #expect(mail.points(since: mark) == [nil])
            let refused = mail.engine.pointerUp(at: mail.point("sent", 0.5))
            #expect(refused?.failure?.message == "Sent is read-only." && mail.drops.isEmpty)

            // Dropped on Inbox: the request names the row.
            mail.engine.pointerDown(at: Point(x: 500, y: 12))
            mail.engine.pointerMoved(to: Point(x: 500, y: 16))
            mail.engine.pointerMoved(to: mail.point("inbox", 0.2))
            _ = mail.engine.pointerUp(at: mail.point("inbox", 0.2))
            #expect(mail.drops.last?.outline == .on("inbox"))
            #expect(mail.drops.last?.items.map(\.id) == ["hello"])
            // Said of the row it went into, not of the outline ("to Mailboxes").
            #expect(mail.said().last?.hasSuffix(" to Inbox.") == true, "\(mail.said().suffix(2))")

            // The keyboard: every row that shows, but Sent.
            mail.tree = try OutlineTests.mailboxes()
            mail.tree.refusals["sent"] = "Sent is read-only."
            try mail.layOut()
            try mail.engine.beginKeyboardDrag(items: ["hello"], from: "messages")
            let names = mail.engine.keyboardDropPoints.compactMap(\.outline)
            let rows = mail.tree.rows().map(\.id).filter { $0 != "sent" }
            #expect(names == rows.map { OutlineDropPoint.on($0) })
            // Moved out of the tree? No: the message is not a row; the outline did not change.
            #expect(mail.tree.count == (try OutlineTests.mailboxes()).count)
        }
    }

    @Test(
        "T1, T3: with dropsOnRowsOnly (children the app sorts itself), a mailbox dragged over another that holds children goes into it, its edges too; over a row that holds none or over itself nothing shows; over a row inside it the drop is refused with the reason; the keyboard reaches only the rows it can go into"
    )
    func ownRowsDropOnRowsOnly() throws {
        try Localization.withLanguage("en") {
            let mail = try Mail(rowsOnly: true)
            mail.drag("projects", to: mail.point("archive", 0.05))
            #expect(mail.points().last == .on("archive"))
            mail.engine.pointerMoved(to: mail.point("inbox", 0.95))
            #expect(mail.points().last == .on("inbox"))
            mail.engine.pointerMoved(to: mail.point("sent", 0.5))
            #expect(mail.points().last == .some(nil), "Sent holds no mailboxes")
            mail.engine.pointerMoved(to: mail.point("projects", 0.5))
            #expect(mail.points().last == .some(nil), "over itself")
            let mark = mail.events.count
            mail.engine.pointerMoved(to: mail.point("2026", 0.5))
            let proposal = mail.lastProposal(since: mark)
            #expect(proposal == .forbidden(reason: "'Projects' cannot go inside '2026', which is inside it."))
            mail.engine.pointerMoved(to: mail.point("archive", 0.5))
            #expect(
                mail.engine.pointerUp(at: mail.point("archive", 0.5))
                    == .completed(destination: "mailboxes", operation: .move))
            #expect(mail.tree.parent(of: "projects") == "archive")
            mail.engine.undo()
            #expect(mail.tree.parent(of: "projects") == "work")

            try mail.engine.beginKeyboardDrag(items: ["projects"], from: "mailboxes")
            let points = mail.engine.keyboardDropPoints.compactMap(\.outline)
            let expected = mail.tree.rows().filter {
                $0.canHoldChildren && $0.id != "projects" && !mail.tree.contains($0.id, inside: "projects")
            }.map { OutlineDropPoint.on($0.id) }
            #expect(points == expected)
        }
    }
}
