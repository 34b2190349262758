import DragDrop
import DragDropTesting
import Testing

private typealias F = EngineFixtures

/// Undo and redo of drops (U1), confirmation of irreversible drops (U2) and cancellation after
/// a drop (U3).
@Suite("Engine: undo, confirmation and cancellation")
struct UndoTests {
    private let original: [TargetID: [TargetID]] = [
        "groceries": ["milk", "eggs", "bread", "butter"], "work": ["report", "email", "call"],
    ]

    // MARK: U1

    @Test("U1: undo puts a reminder moved within its list back at its exact place; redo moves it again")
    func moveWithinList() throws {
        let h = try DragHarness(scene: F.remindersScene(policy: .preferMove))
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: Point(x: 100, y: 115))
        h.release()
        let moved: [TargetID: [TargetID]] = [
            "groceries": ["eggs", "bread", "milk", "butter"], "work": ["report", "email", "call"],
        ]
        #expect(h.scene.snapshot() == moved)
        #expect(h.engine.undoStack.undoMenuItemTitle == "Undo Move Reminder")

        var mark = h.engineMark
        h.undo()
        #expect(h.feedback[mark...] == [.undid("Move Reminder"), .announcement("Undid Move Reminder.")])
        #expect(h.scene.snapshot() == original)
        #expect(h.engine.undoStack.redoMenuItemTitle == "Redo Move Reminder")
        #expect(!h.engine.undoStack.canUndo)

        mark = h.engineMark
        h.redo()
        #expect(h.feedback[mark...] == [.redid("Move Reminder"), .announcement("Redid Move Reminder.")])
        #expect(h.scene.snapshot() == moved)
        #expect(h.engine.undoStack.undoMenuItemTitle == "Undo Move Reminder")
        try h.finish()
    }

    @Test(
        "U1: each document has its own history: a drop is registered in its destination's document, and undo in one window undoes that window's step, not the newer one in the other"
    )
    func historyPerDocument() throws {
        let h = try DragHarness(scene: F.twoWindowsScene())
        let left = UndoStack()
        let right = UndoStack()
        h.engine.useUndoStack(left, for: "left")
        h.engine.useUndoStack(right, for: "right")
        #expect(h.engine.undoStack(for: "milk") === left, "an item uses its window's history")
        #expect(h.engine.undoStack(for: "someday") === right)
        #expect(h.engine.undoStack(for: nil) === h.engine.undoStack)

        h.engineLift(at: F.row(0, x: 100))  // Milk, into the other window: a copy
        h.move(to: Point(x: 700, y: 100), steps: 4)
        h.release()
        #expect(right.undoMenuItemTitle == "Undo Copy Reminder" && !left.canUndo && !h.engine.undoStack.canUndo)
        h.engineLift(at: F.row(0, x: 100))  // Milk, below Eggs in its own list: a move
        h.move(to: Point(x: 100, y: 75), steps: 3)
        h.release()
        #expect(left.undoMenuItemTitle == "Undo Move Reminder")
        let copied = h.scene.snapshot()["someday"] ?? []
        #expect(h.scene.snapshot()["inbox"] == ["eggs", "milk"] && copied.count == 2)

        h.engine.undo(in: "someday")
        #expect(h.scene.snapshot()["someday"] == ["trip"], "the other window's older step undone")
        #expect(h.scene.snapshot()["inbox"] == ["eggs", "milk"], "this window's newer step untouched")
        #expect(!h.engine.canUndo(in: "trip") && h.engine.canRedo(in: "right"))
        #expect(h.engine.canUndo(in: "inbox") && !h.engine.canUndo)
        h.engine.undo(in: "inbox")
        #expect(h.scene.snapshot()["inbox"] == ["milk", "eggs"])
        h.engine.useUndoStack(nil, for: "left")
        #expect(h.engine.undoStack(for: "milk") === h.engine.undoStack)
        try h.finish()
    }

    @Test("U1: undo puts three reminders moved to another list back at their exact, scattered places")
    func moveBetweenLists() throws {
        let h = try DragHarness(scene: F.remindersScene(policy: .preferMove))
        h.select(["butter", "milk", "bread"])
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: F.row(0, x: 500))
        h.release()
        let moved: [TargetID: [TargetID]] = [
            "groceries": ["eggs"], "work": ["report", "butter", "milk", "bread", "email", "call"],
        ]
        #expect(h.scene.snapshot() == moved)
        #expect(h.engine.undoStack.undoMenuItemTitle == "Undo Move 3 Reminders")
        #expect(h.engine.undoStack.undoCount == 1, "one drop is one undo step")

        h.undo()
        #expect(h.scene.snapshot() == original)
        #expect(h.engine.undoStack.redoMenuItemTitle == "Redo Move 3 Reminders")
        h.redo()
        #expect(h.scene.snapshot() == moved)
        h.undo()
        #expect(h.scene.snapshot() == original)
        #expect(
            h.engineFeedback(since: 0).suffix(3) == [
                .undid("Move 3 Reminders"), .redid("Move 3 Reminders"), .undid("Move 3 Reminders"),
            ])
        try h.finish()
    }

    @Test("U1: undo removes a copied photo from the album and leaves the library; redo copies it again")
    func copy() throws {
        let h = try DragHarness(scene: F.photosScene())
        h.engineLift(at: F.photoCenter(0))
        h.move(to: Point(x: 100, y: 20))
        h.release()
        #expect(h.scene.snapshot()["trips"] == ["beach-copy1"])
        #expect(h.engine.undoStack.undoMenuItemTitle == "Undo Copy Photo")
        h.undo()
        #expect(h.scene.snapshot()["trips"] == [])
        #expect(h.scene.snapshot()["library"] == ["beach", "city", "forest", "lake"])
        h.redo()
        #expect(h.scene.snapshot()["trips"] == ["beach-copy1"])
        #expect(h.scene.snapshot()["library"] == ["beach", "city", "forest", "lake"])
        try h.finish()
    }

    @Test("U1: two drops undo one at a time, newest first")
    func twoDrops() throws {
        let h = try DragHarness(scene: F.remindersScene(policy: .preferMove))
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: F.row(0, x: 500))
        h.release()
        h.select(["eggs", "bread"])
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: F.row(1, x: 500))
        h.release()
        #expect(
            h.scene.snapshot() == [
                "groceries": ["butter"], "work": ["report", "milk", "eggs", "bread", "email", "call"],
            ])
        #expect(h.engine.undoStack.undoMenuItemTitle == "Undo Move 2 Reminders")
        h.undo()
        #expect(
            h.scene.snapshot() == [
                "groceries": ["eggs", "bread", "butter"], "work": ["report", "milk", "email", "call"],
            ])
        #expect(h.engine.undoStack.undoMenuItemTitle == "Undo Move Reminder")
        h.undo()
        #expect(h.scene.snapshot() == original)
        let mark = h.engineMark
        h.undo()
        #expect(h.feedback[mark...] == [], "nothing left to undo: nothing happens")
        try h.finish()
    }

    // MARK: U2

    /// Files (scenario 8): `downloads` (0, 0, 400×600) holds report and photo; `dropBox`
    /// (400, 0, 400×600) is a write-only folder whose drops cannot be taken back: it asks first.
    /// Files move between folders (preferMove).
    private func files() throws -> DragHarness {
        let downloads = F.list(
            "downloads", "Downloads", frame: Rect(x: 0, y: 0, width: 400, height: 600), accepts: [F.fileType],
            items: [("report", "Report.pdf"), ("picture", "Picture.png")].map {
                F.item($0.0, $0.1, offers: [F.fileType], kind: F.file)
            }, policy: .preferMove)
        var dropBox = F.list(
            "dropBox", "Drop Box", frame: Rect(x: 400, y: 0, width: 400, height: 600), accepts: [F.fileType], items: [],
            policy: .preferMove)
        dropBox.confirmation = dropBoxQuestion
        return try DragHarness(
            scene: Scene([
                F.window("finder", "Files", frame: Rect(x: 0, y: 0, width: 800, height: 600), [downloads, dropBox])
            ]))
    }

    private let dropBoxQuestion = "You will not be able to see or take back what you drop in Drop Box."
    private let filesBefore: [TargetID: [TargetID]] = ["downloads": ["report", "picture"], "dropBox": []]

    @Test("U2: a drop into a write-only folder asks first; declining changes nothing and returns the content")
    func declined() throws {
        let h = try files()
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: F.row(0, x: 600))
        var mark = h.engineMark
        h.release()
        #expect(
            h.feedback[mark...] == [
                .dropped(destination: "dropBox", operation: .move, index: 0),
                .highlight("dropBox", on: false),
                .insertion("dropBox", index: nil),
                .confirmationRequested("dropBox", message: dropBoxQuestion),
                .announcement("Drop on Drop Box? \(dropBoxQuestion)"),
            ])
        #expect(h.engine.currentSession?.awaitingConfirmation == true)
        #expect(h.scene.snapshot() == filesBefore, "nothing happens before the answer")
        let pending = #expect(throws: PendingWorkError.self) { try h.finish() }
        #expect(pending?.leftovers == ["a drop is waiting for confirmation"])

        mark = h.engineMark
        h.move(to: F.row(3, x: 100))
        h.key(.drop)
        #expect(h.feedback[mark...] == [], "the question holds the drag still")

        mark = h.engineMark
        let declined = h.confirm(false)
        let failure = DropFailure(.declined, "The drop on Drop Box was not confirmed.")
        #expect(declined == .returnToSource(failure), "the answer returns how the drag ended (issue 25)")
        #expect(
            h.feedback[mark...] == [
                .outcome(.returnToSource(failure)),
                .announcement("Not dropped: The drop on Drop Box was not confirmed."),
            ])
        #expect(h.scene.snapshot() == filesBefore)
        #expect(!h.engine.undoStack.canUndo)
        try h.finish()
    }

    @Test("U2: accepting the confirmation performs the drop, which then cannot be undone, not even half of it")
    func accepted() throws {
        let h = try files()
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: F.row(0, x: 600))
        h.release()
        let mark = h.engineMark
        #expect(h.confirm(true) == .completed(destination: "dropBox", operation: .move))
        #expect(
            h.engineFeedback(since: mark) == [
                .committed(destination: "dropBox", items: ["report"], operation: .move, index: 0),
                .sourceRemoved(["report"]),
                .outcome(.completed(destination: "dropBox", operation: .move)),
            ])
        #expect(h.scene.snapshot() == ["downloads": ["picture"], "dropBox": ["report"]])
        #expect(!h.engine.undoStack.canUndo, "the drop was confirmed as irreversible: Undo must not offer it")
        #expect(h.engine.undoStack.undoMenuItemTitle == "Undo")
        h.undo()
        #expect(h.scene.snapshot() == ["downloads": ["picture"], "dropBox": ["report"]])
        try h.finish()
    }

    @Test("U2: Escape while the question is open declines the drop")
    func escapeDeclines() throws {
        let h = try files()
        h.engineLift(at: F.row(1, x: 100))
        h.move(to: F.row(0, x: 600))
        h.release()
        let mark = h.engineMark
        h.key(.cancel)
        #expect(
            h.engineFeedback(since: mark) == [
                .outcome(.returnToSource(DropFailure(.declined, "The drop on Drop Box was not confirmed.")))
            ])
        #expect(h.scene.snapshot() == filesBefore)
        try h.finish()
    }

    // MARK: U3

    @Test("U3: a drop into a shared stream offers Stop Sharing afterwards, which takes the photo back")
    func cancellationAfterDrop() throws {
        let h = try DragHarness(scene: F.photosScene())
        h.engineLift(at: F.photoCenter(0))
        h.move(to: Point(x: 100, y: 100))
        var mark = h.engineMark
        h.release()
        #expect(
            h.engineFeedback(since: mark) == [
                .dropped(destination: "shared", operation: .copy, index: nil),
                .highlight("shared", on: false),
                .committed(destination: "shared", items: ["beach"], operation: .copy, index: nil),
                .cancellationOffered("shared", title: "Stop Sharing"),
                .outcome(.completed(destination: "shared", operation: .copy)),
            ])
        #expect(h.scene.snapshot()["shared"] == ["beach-copy1"])
        #expect(h.engine.availableCancellation?.title == "Stop Sharing")
        #expect(h.engine.availableCancellation?.target == "shared")

        mark = h.engineMark
        h.cancelAfterDrop()
        #expect(h.feedback[mark...] == [.cancellationUsed("shared"), .announcement("Stop Sharing: done.")])
        #expect(h.scene.snapshot()["shared"] == [])
        #expect(h.scene.snapshot()["library"] == ["beach", "city", "forest", "lake"])
        #expect(h.engine.availableCancellation == nil)

        mark = h.engineMark
        h.cancelAfterDrop()
        #expect(h.feedback[mark...] == [], "the way out is used once")
        try h.finish()
    }

    @Test("U3: a drop into a shared stream cannot be undone; Stop Sharing is the way out instead")
    func cancellationInsteadOfUndo() throws {
        let h = try DragHarness(scene: F.photosScene())
        h.engineLift(at: F.photoCenter(0))
        h.move(to: Point(x: 100, y: 100))
        h.release()
        #expect(!h.engine.undoStack.canUndo)
        #expect(h.engine.undoStack.undoMenuItemTitle == "Undo")
        h.cancelAfterDrop()
        #expect(h.engine.undoStack.undoMenuItemTitle == "Undo")
        #expect(!h.engine.undoStack.canRedo)
        h.undo()
        h.redo()
        #expect(h.scene.snapshot()["shared"] == [], "neither undo nor redo shares the photo again")
        try h.finish()
    }

    @Test("U3: stopping the sharing of a moved photo puts it back where it came from")
    func cancellationOfMoveRestoresSource() throws {
        let h = try DragHarness(scene: F.photosScene())
        h.engineLift(at: F.photoCenter(1))
        h.move(to: Point(x: 100, y: 100))
        h.setModifiers(.forceMove)
        h.release()
        #expect(h.scene.snapshot()["shared"] == ["city"])
        #expect(h.scene.snapshot()["library"] == ["beach", "forest", "lake"])
        h.cancelAfterDrop()
        #expect(h.scene.snapshot()["shared"] == [])
        #expect(
            h.scene.snapshot()["library"] == ["beach", "city", "forest", "lake"],
            "taking a move back must not lose the photo")
        try h.finish()
    }

    @Test("U3: the offer is withdrawn once the next drag starts")
    func offerWithdrawn() throws {
        let h = try DragHarness(scene: F.photosScene())
        h.engineLift(at: F.photoCenter(0))
        h.move(to: Point(x: 100, y: 100))
        h.release()
        h.engineLift(at: F.photoCenter(1))
        #expect(h.engine.availableCancellation == nil)
        h.key(.cancel)
        h.release()
        let mark = h.engineMark
        h.cancelAfterDrop()
        #expect(h.feedback[mark...] == [])
        #expect(h.scene.snapshot()["shared"] == ["beach-copy1"])
        try h.finish()
    }
}
