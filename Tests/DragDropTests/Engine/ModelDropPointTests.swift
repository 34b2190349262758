import DragDrop
import DragDropTesting
import Testing

/// Keyboard drop points from a container's model (issue 12, C4): a virtualized list registers
/// only the rows on screen, yet a keyboard drag reaches every folder in it, in the model's
/// order, the ones scrolled out of view included: each is revealed (the list scrolls, the row
/// registers) and takes the focus then, spoken by name like any drop point.
@Suite("Engine: keyboard drop points from a container's model")
struct ModelDropPointTests {
    private static let fileType: ContentType = "application/x-file"
    private static let rowHeight = 30.0

    /// An "Archive" list of 40 items (folders at 2, 12, 25 and 38) showing 5 rows at a time,
    /// registered as they scroll into view, beside an "Inbox" list. Scrolling happens at the
    /// next ``layOut()``, as a toolkit binds rows at its next frame.
    private final class Archive: DragEngineDelegate {
        let count = 40
        let folders: Set<Int>
        let shown = 5
        private(set) var first = 0
        let engine: DragEngine
        /// The items the engine asked to bring into view, and those that needed a scroll.
        var revealed: [TargetID] = []
        var scrolledTo: [TargetID] = []
        /// The destination and the highlighted targets when each reveal was asked for.
        var atReveal: [(destination: TargetID?, highlighted: Set<TargetID>)] = []
        var dropped: DropRequest?
        var events: [FeedbackEvent] = []
        /// Answers the model's drop points (false: a delegate without the hook).
        var answers = true

        init(folders: Set<Int> = [2, 12, 25, 38]) throws {
            self.folders = folders
            engine = DragEngine(app: "Files", clock: VirtualClock())
            engine.delegate = self
            try engine.register(
                DragTarget(id: "window", name: "Files", frame: Rect(x: 0, y: 0, width: 800, height: 600)))
            var archive = DragTarget(
                id: "archive", name: "Archive", frame: Rect(x: 0, y: 0, width: 300, height: rowHeight * 5),
                parent: "window")
            archive.accepts = [fileType]
            archive.insertion = .vertical
            archive.clipsChildren = true
            archive.modelItems = ModelItems(offers: [fileType], kind: Noun("file"))
            try engine.register(archive)
            var inbox = DragTarget(
                id: "inbox", name: "Inbox", frame: Rect(x: 400, y: 0, width: 300, height: 600), parent: "window")
            inbox.accepts = [fileType]
            try engine.register(inbox)
            try registerRows()
        }

        static func id(_ index: Int) -> TargetID { TargetID("f\(index)") }
        static func index(_ id: TargetID) -> Int? { Int(id.rawValue.dropFirst()) }
        func name(_ index: Int) -> String { folders.contains(index) ? "Folder \(index)" : "File \(index)" }

        private func registerRows() throws {
            for index in first..<min(count, first + shown) {
                var row = DragTarget(
                    id: Self.id(index), name: name(index),
                    frame: Rect(x: 0, y: Double(index - first) * rowHeight, width: 300, height: rowHeight),
                    parent: "archive")
                row.offers = [fileType]
                row.kind = Noun("file")
                if folders.contains(index) {
                    row.accepts = [fileType]
                    row.operationPolicy = .preferMove
                }
                try engine.register(row)
            }
        }

        /// The rows registered now.
        var onScreen: [TargetID] { (first..<min(count, first + shown)).map(Self.id) }

        /// The next frame: scrolls the last item revealed into view (the rows that leave
        /// unregister, those that come register), then lets the engine see it.
        func layOut() throws {
            guard let item = revealed.last, let index = Self.index(item) else { return }
            let wanted = index < first ? index : (index >= first + shown ? index - shown + 1 : first)
            guard wanted != first else { return }
            scrolledTo.append(item)
            for row in onScreen { try engine.unregister(row) }
            first = wanted
            try registerRows()
            engine.tick()
        }

        func dragEngine(
            _ engine: DragEngine, keyboardDropPointIn container: TargetID, after item: TargetID?, forward: Bool
        ) -> TargetID? {
            guard answers, container == "archive" else { return nil }
            let from = item.flatMap(Self.index) ?? (forward ? -1 : count)
            let candidates = forward ? Array((from + 1)..<count) : Array((0..<max(0, from)).reversed())
            return candidates.first(where: folders.contains).map(Self.id)
        }

        func dragEngine(_ engine: DragEngine, reveal item: TargetID, in container: TargetID) {
            revealed.append(item)
            var highlighted: Set<TargetID> = []
            for case .highlight(let target, let on) in events {
                if on { highlighted.insert(target) } else { highlighted.remove(target) }
            }
            atReveal.append((engine.currentSession?.destination, highlighted))
        }

        func dragEngine(_ engine: DragEngine, nameOfItem item: TargetID, in container: TargetID) -> String? {
            Self.index(item).map(name)
        }

        func dragEngine(_ engine: DragEngine, perform drop: DropRequest) -> DropResult {
            dropped = drop
            return .committed(undo: nil)
        }

        func dragEngine(_ engine: DragEngine, emitted event: FeedbackEvent) { events.append(event) }

        /// Presses `key`, lets a frame pass, and returns where the focus went and what was said.
        func press(_ key: DragKey) throws -> (focus: TargetID?, said: [String]) {
            let mark = events.count
            engine.keyDown(key)
            try layOut()
            let new = events[mark...]
            let focus = new.compactMap { if case .keyboardFocus(let t, _) = $0 { t } else { nil } }.last
            let said = new.compactMap { if case .announcement(let a) = $0 { a.text } else { nil } }
            return (focus, said)
        }
    }

    @Test(
        "C4, F4: Tab reaches every folder of a virtualized list in the model's order, those off screen too, each revealed and spoken by name; then the drop points after the list; wrapping to the start"
    )
    func forwardThroughModel() throws {
        let archive = try Archive()
        try archive.engine.beginKeyboardDrag(items: ["f0"], from: "archive")
        var visited: [TargetID?] = []
        var said: [[String]] = []
        for _ in 0..<7 {
            let step = try archive.press(.nextDropPoint)
            visited.append(step.focus)
            said.append(step.said)
        }
        #expect(visited == ["archive", "f2", "f12", "f25", "f38", "inbox", "archive"])
        // Every folder was brought into view; only those off screen needed a scroll.
        #expect(archive.revealed == ["f2", "f12", "f25", "f38"])
        #expect(archive.scrolledTo == ["f12", "f25", "f38"])
        // F4: the point left is no destination and lit no more when the view scrolls it away.
        #expect(archive.atReveal.map(\.destination) == [nil, nil, nil, nil])
        #expect(archive.atReveal.allSatisfy { $0.highlighted.isEmpty })
        // Each landing is said once, by name, like a step to a drop point on screen: the row
        // that scrolled away with the focus says nothing.
        #expect(said[2] == ["Over Folder 12, will move."])
        #expect(said[3] == ["Over Folder 25, will move."])
        #expect(archive.engine.currentSession?.destination == "archive")
    }

    @Test(
        "C4: Shift+Tab goes backward through the same order: into the list from after it at its last folder, off screen"
    )
    func backwardThroughModel() throws {
        let archive = try Archive()
        try archive.engine.beginKeyboardDrag(items: ["f0"], from: "archive")
        var visited: [TargetID?] = []
        for _ in 0..<7 { visited.append(try archive.press(.previousDropPoint).focus) }
        #expect(visited == ["inbox", "f38", "f25", "f12", "f2", "archive", "inbox"])
        #expect(archive.scrolledTo == ["f38", "f25", "f12", "f2"])
    }

    @Test("C4: Return on a folder reached off screen drops into that folder; the drop carries the picked-up file")
    func dropIntoRevealedFolder() throws {
        let archive = try Archive()
        try archive.engine.beginKeyboardDrag(items: ["f0"], from: "archive")
        for _ in 0..<4 { _ = try archive.press(.nextDropPoint) }
        #expect(archive.engine.currentSession?.destination == "f25")
        _ = try archive.press(.drop)
        let drop = try #require(archive.dropped)
        #expect(drop.destination == "f25")
        #expect(drop.items.map(\.id) == ["f0"])
        #expect(drop.items.map(\.name) == ["File 0"])
        #expect(drop.operation == .move)
    }

    @Test(
        "C4: Return while the next folder is still on its way drops nothing, says to wait; the drag goes on and drops there once it shows"
    )
    func dropWhileRevealing() throws {
        let archive = try Archive()
        try archive.engine.beginKeyboardDrag(items: ["f0"], from: "archive")
        _ = try archive.press(.nextDropPoint)
        _ = try archive.press(.nextDropPoint)
        let mark = archive.events.count
        archive.engine.keyDown(.nextDropPoint)  // f12 is revealed; no frame yet
        #expect(archive.engine.keyDown(.drop) == .handled, "C4: Return waits; the drag goes on")
        #expect(archive.dropped == nil)
        #expect(archive.engine.isDragging)
        let said = archive.events[mark...].compactMap { if case .announcement(let a) = $0 { a.text } else { nil } }
        #expect(said == ["Wait for 'Folder 12' to show, then drop."])
        try archive.layOut()
        #expect(archive.engine.currentSession?.destination == "f12")
        let result = archive.engine.keyDown(.drop)
        guard case .ended(.completed(let destination, _)) = result else {
            Issue.record("C4: Return on a shown folder drops and ends the drag, got \(result)")
            return
        }
        #expect(destination == "f12")
        #expect(archive.dropped?.destination == "f12")
    }

    @Test("C4: the pick-up counts the drop points the keyboard reaches, the folders off screen included")
    func pickUpCountsModelPoints() throws {
        let archive = try Archive()
        try archive.engine.beginKeyboardDrag(items: ["f0"], from: "archive")
        let said = archive.events.compactMap { if case .announcement(let a) = $0 { a.text } else { nil } }
        #expect(said == ["Picked up 'File 0'. 6 drop points; press Tab to choose one."])

        let dragging = try Archive()
        try dragging.engine.beginKeyboardDrag(items: ["f0", "f12", "f25"], from: "archive")
        let counted = dragging.events.compactMap { if case .announcement(let a) = $0 { a.text } else { nil } }
        #expect(counted.first?.hasSuffix(" 4 drop points; press Tab to choose one.") == true, "\(counted)")

        let plain = try Archive()
        plain.answers = false
        try plain.engine.beginKeyboardDrag(items: ["f0"], from: "archive")
        let registered = plain.events.compactMap { if case .announcement(let a) = $0 { a.text } else { nil } }
        #expect(registered == ["Picked up 'File 0'. 3 drop points; press Tab to choose one."])
    }

    @Test("C4: a dragged folder is no drop point: the keyboard passes it, on screen or not")
    func draggedFolderSkipped() throws {
        let archive = try Archive()
        try archive.engine.beginKeyboardDrag(items: ["f0", "f12", "f25"], from: "archive")
        var visited: [TargetID?] = []
        for _ in 0..<4 { visited.append(try archive.press(.nextDropPoint).focus) }
        #expect(visited == ["archive", "f2", "f38", "inbox"])
        #expect(archive.revealed == ["f2", "f38"])
    }

    @Test("C4: a container whose delegate answers nothing keeps the registered drop points in reading order")
    func withoutTheHook() throws {
        let archive = try Archive()
        archive.answers = false
        try archive.engine.beginKeyboardDrag(items: ["f0"], from: "archive")
        var visited: [TargetID?] = []
        for _ in 0..<4 { visited.append(try archive.press(.nextDropPoint).focus) }
        #expect(visited == ["archive", "inbox", "f2", "archive"])
        #expect(archive.revealed.isEmpty)
    }
}
