import DragDrop
import Testing

/// A tiny document: an ordered list of item names, edited by moves.
private final class ItemList {
    var items: [String]
    init(_ items: [String]) { self.items = items }

    /// Removes the element at `from` and inserts it at `to` (an index in the resulting array).
    func move(from: Int, to: Int) {
        let item = items.remove(at: from)
        items.insert(item, at: to)
    }

    /// Applies the move and registers its inverse on `stack`.
    func registeredMove(from: Int, to: Int, on stack: UndoStack) {
        move(from: from, to: to)
        stack.register(UndoableAction(
            undo: { [unowned self] in self.move(from: to, to: from) },
            redo: { [unowned self] in self.move(from: from, to: to) }
        ))
    }
}

/// Records an `UndoStack`'s `onChange` timeline.
private final class Timeline {
    var events: [UndoStackChange] = []
    init(_ stack: UndoStack) {
        stack.onChange = { [unowned self] in self.events.append($0) }
    }
}

@Suite("UndoStack")
struct UndoStackTests {
    @Test("U1: undo restores exact positions and redo re-applies")
    func undoRestoresExactPositions() {
        let list = ItemList(["a", "b", "c", "d", "e"])
        let stack = UndoStack()

        list.registeredMove(from: 0, to: 4, on: stack)
        #expect(list.items == ["b", "c", "d", "e", "a"])
        list.registeredMove(from: 3, to: 1, on: stack)
        #expect(list.items == ["b", "e", "c", "d", "a"])
        list.registeredMove(from: 2, to: 0, on: stack)
        #expect(list.items == ["c", "b", "e", "d", "a"])
        #expect(stack.undoCount == 3)

        stack.undo()
        #expect(list.items == ["b", "e", "c", "d", "a"])
        stack.undo()
        #expect(list.items == ["b", "c", "d", "e", "a"])
        stack.redo()
        #expect(list.items == ["b", "e", "c", "d", "a"])
        stack.undo()
        #expect(list.items == ["b", "c", "d", "e", "a"])
        stack.undo()
        #expect(list.items == ["a", "b", "c", "d", "e"])
        #expect(!stack.canUndo)
        stack.undo()  // nothing left: no-op
        #expect(list.items == ["a", "b", "c", "d", "e"])

        stack.redo()
        #expect(list.items == ["b", "c", "d", "e", "a"])
        stack.redo()
        #expect(list.items == ["b", "e", "c", "d", "a"])
        stack.redo()
        #expect(list.items == ["c", "b", "e", "d", "a"])
        #expect(!stack.canRedo)
        stack.redo()  // nothing left: no-op
        #expect(list.items == ["c", "b", "e", "d", "a"])
        #expect(stack.undoCount == 3)
        #expect(stack.redoCount == 0)
    }

    @Test("U1: a grouped multi-item move is one step, restored exactly")
    func groupedMoveIsOneStep() {
        let list = ItemList(["a", "b", "c", "d", "e"])
        let stack = UndoStack()

        // Drop of 3 items (a, b, c) after e, applied as three moves.
        stack.beginGroup(named: "Move 3 Items")
        list.registeredMove(from: 0, to: 4, on: stack)
        list.registeredMove(from: 0, to: 4, on: stack)
        list.registeredMove(from: 0, to: 4, on: stack)
        stack.endGroup()
        #expect(list.items == ["d", "e", "a", "b", "c"])
        #expect(stack.undoCount == 1)

        stack.undo()
        #expect(list.items == ["a", "b", "c", "d", "e"])
        stack.redo()
        #expect(list.items == ["d", "e", "a", "b", "c"])
        stack.undo()
        #expect(list.items == ["a", "b", "c", "d", "e"])
    }

    @Test("Nested groups make one step; undos run in reverse order, redos in order")
    func nestedGroups() {
        var log: [String] = []
        let stack = UndoStack()
        func action(_ id: String) -> UndoableAction {
            UndoableAction(undo: { log.append("undo \(id)") }, redo: { log.append("redo \(id)") })
        }

        #expect(stack.groupingLevel == 0)
        stack.beginGroup(named: "Outer")
        stack.register(action("1"))
        stack.beginGroup(named: "Inner")
        #expect(stack.groupingLevel == 2)
        stack.register(action("2"))
        stack.register(action("3"))
        stack.endGroup()
        #expect(stack.groupingLevel == 1)
        #expect(!stack.canUndo)  // nothing completed yet, and a group is open
        stack.register(action("4"))
        stack.endGroup()
        #expect(stack.groupingLevel == 0)

        #expect(stack.undoCount == 1)
        #expect(stack.undoActionName == "Outer")  // the inner group's name does not override
        stack.undo()
        #expect(log == ["undo 4", "undo 3", "undo 2", "undo 1"])
        log.removeAll()
        stack.redo()
        #expect(log == ["redo 1", "redo 2", "redo 3", "redo 4"])
    }

    @Test("Group naming: inner name is a fallback, setActionName wins")
    func groupNaming() {
        let stack = UndoStack()
        let noop = UndoableAction(undo: {}, redo: {})

        stack.beginGroup()
        stack.beginGroup(named: "Insert Item")
        stack.register(noop)
        stack.endGroup()
        stack.endGroup()
        #expect(stack.undoActionName == "Insert Item")

        stack.beginGroup(named: "Paste")
        stack.beginGroup(named: "Insert Item")
        stack.setActionName("Paste 2 Items")
        stack.register(noop)
        stack.endGroup()
        stack.endGroup()
        #expect(stack.undoActionName == "Paste 2 Items")
    }

    @Test("An empty group adds nothing and keeps the redo stack")
    func emptyGroup() {
        let stack = UndoStack()
        let timeline = Timeline(stack)
        stack.register(UndoableAction(undo: {}, redo: {}))
        stack.undo()
        #expect(stack.canRedo)

        stack.beginGroup(named: "Nothing")
        stack.beginGroup()
        stack.endGroup()
        stack.endGroup()
        #expect(!stack.canUndo)
        #expect(stack.canRedo)
        #expect(stack.undoCount == 0)
        #expect(timeline.events == [.registered(name: ""), .undid(name: "")])
    }

    @Test("U1: the command is named")
    func commandIsNamed() {
        let stack = UndoStack()
        #expect(stack.undoMenuItemTitle == "Undo")
        #expect(stack.redoMenuItemTitle == "Redo")
        #expect(stack.undoActionName == "")

        stack.register(UndoableAction(undo: {}, redo: {}))
        #expect(stack.undoMenuItemTitle == "Undo")  // unnamed
        #expect(stack.undoActionName == "")

        stack.beginGroup()
        stack.register(UndoableAction(undo: {}, redo: {}))
        stack.setActionName("Move 3 Items")
        stack.endGroup()
        #expect(stack.undoActionName == "Move 3 Items")
        #expect(stack.undoMenuItemTitle == "Undo Move 3 Items")

        stack.undo()
        #expect(stack.redoActionName == "Move 3 Items")
        #expect(stack.redoMenuItemTitle == "Redo Move 3 Items")
        #expect(stack.undoMenuItemTitle == "Undo")  // the unnamed step is next
        stack.undo()
        #expect(stack.redoMenuItemTitle == "Redo")
        #expect(stack.undoMenuItemTitle == "Undo")
        stack.redo()
        stack.redo()
        #expect(stack.undoMenuItemTitle == "Undo Move 3 Items")
        #expect(stack.redoMenuItemTitle == "Redo")
    }

    @Test("setActionName outside a group renames the most recent step")
    func renameMostRecentStep() {
        let stack = UndoStack()
        stack.setActionName("Ignored")  // nothing to name: no-op
        #expect(stack.undoActionName == "")

        stack.register(UndoableAction(undo: {}, redo: {}))
        stack.setActionName("Cut")
        stack.register(UndoableAction(undo: {}, redo: {}))
        stack.setActionName("Paste")
        #expect(stack.undoMenuItemTitle == "Undo Paste")
        stack.undo()
        #expect(stack.undoMenuItemTitle == "Undo Cut")
        #expect(stack.redoMenuItemTitle == "Redo Paste")
    }

    @Test("A new registration clears the redo stack")
    func registrationClearsRedo() {
        let list = ItemList(["a", "b", "c"])
        let stack = UndoStack()
        list.registeredMove(from: 0, to: 2, on: stack)
        list.registeredMove(from: 0, to: 2, on: stack)
        stack.undo()
        stack.undo()
        #expect(stack.redoCount == 2)

        list.registeredMove(from: 2, to: 0, on: stack)
        #expect(list.items == ["c", "a", "b"])
        #expect(!stack.canRedo)
        #expect(stack.redoCount == 0)
        stack.redo()  // no-op
        #expect(list.items == ["c", "a", "b"])

        // Inside a group, the redo stack is cleared at registration time.
        stack.undo()
        #expect(stack.canRedo)
        stack.beginGroup()
        stack.register(UndoableAction(undo: {}, redo: {}))
        #expect(stack.redoCount == 0)
        stack.endGroup()
    }

    @Test("Registrations during undo and redo are ignored")
    func registrationDuringUndoIgnored() {
        let stack = UndoStack()
        var log: [String] = []
        var observed: [(undoing: Bool, redoing: Bool)] = []
        let noop = UndoableAction(undo: {}, redo: {})
        stack.register(UndoableAction(
            undo: { [unowned stack] in
                log.append("undo")
                observed.append((stack.isUndoing, stack.isRedoing))
                stack.register(noop)  // e.g. a model setter that registers
                stack.setActionName("Hijacked")
                stack.beginGroup(named: "Inner")
                stack.register(noop)
                stack.endGroup()
            },
            redo: { [unowned stack] in
                log.append("redo")
                observed.append((stack.isUndoing, stack.isRedoing))
                stack.register(noop)
            }
        ))
        stack.setActionName("Delete")

        stack.undo()
        #expect(log == ["undo"])
        #expect(stack.undoCount == 0)
        #expect(stack.redoCount == 1)
        #expect(stack.redoActionName == "Delete")
        #expect(!stack.isUndoing)

        stack.redo()
        #expect(log == ["undo", "redo"])
        #expect(stack.undoCount == 1)
        #expect(stack.redoCount == 0)
        #expect(stack.undoActionName == "Delete")
        #expect(!stack.isRedoing)

        #expect(observed.map(\.undoing) == [true, false])
        #expect(observed.map(\.redoing) == [false, true])
    }

    @Test("levelsOfUndo drops the oldest steps")
    func levelsOfUndo() {
        let stack = UndoStack(levelsOfUndo: 2)
        #expect(stack.levelsOfUndo == 2)
        var log: [String] = []
        for name in ["A", "B", "C"] {
            stack.beginGroup(named: name)
            stack.register(UndoableAction(undo: { log.append("undo \(name)") }, redo: {}))
            stack.endGroup()
        }
        #expect(stack.undoCount == 2)
        #expect(stack.undoActionName == "C")
        stack.undo()
        stack.undo()
        #expect(!stack.canUndo)
        stack.undo()  // "A" was dropped
        #expect(log == ["undo C", "undo B"])
        #expect(stack.redoCount == 2)

        let unlimited = UndoStack()
        for _ in 0..<500 { unlimited.register(UndoableAction(undo: {}, redo: {})) }
        #expect(unlimited.undoCount == 500)
    }

    @Test("onChange fires once per completed step, undo, redo and clear, as documented")
    func onChangeTimeline() {
        let stack = UndoStack(levelsOfUndo: 2)
        let timeline = Timeline(stack)
        let noop = UndoableAction(undo: {}, redo: {})

        stack.beginGroup(named: "Move 3 Items")
        stack.register(noop)
        stack.beginGroup()
        stack.register(noop)
        stack.endGroup()  // inner group: no event
        stack.register(noop)
        #expect(timeline.events.isEmpty)
        stack.endGroup()  // outermost group: one event

        stack.register(noop)  // lone register: its own unnamed step
        stack.setActionName("Cut")  // rename: no event

        stack.beginGroup()
        stack.setActionName("Paste")
        stack.register(noop)
        stack.endGroup()  // drops the oldest step: no extra event

        stack.beginGroup(named: "Empty")
        stack.endGroup()  // empty group: no event

        stack.undo()
        stack.undo()
        stack.undo()  // nothing left: no event
        stack.redo()
        stack.removeAllActions()
        stack.removeAllActions()  // already empty: still reported

        #expect(timeline.events == [
            .registered(name: "Move 3 Items"),
            .registered(name: ""),
            .registered(name: "Paste"),
            .undid(name: "Paste"),
            .undid(name: "Cut"),
            .redid(name: "Cut"),
            .cleared,
            .cleared,
        ])
    }

    @Test("onChange sees the updated state")
    func onChangeSeesUpdatedState() {
        let stack = UndoStack()
        var titles: [String] = []
        stack.onChange = { [unowned stack] _ in titles.append("\(stack.undoMenuItemTitle)|\(stack.redoMenuItemTitle)") }
        stack.beginGroup(named: "Delete")
        stack.register(UndoableAction(undo: {}, redo: {}))
        stack.endGroup()
        stack.undo()
        stack.redo()
        stack.removeAllActions()
        #expect(titles == ["Undo Delete|Redo", "Undo|Redo Delete", "Undo Delete|Redo", "Undo|Redo"])
    }

    @Test("removeAllActions empties both stacks and the open group's actions")
    func removeAllActions() {
        let stack = UndoStack()
        var log: [String] = []
        func action(_ id: String) -> UndoableAction {
            UndoableAction(undo: { log.append("undo \(id)") }, redo: { log.append("redo \(id)") })
        }
        stack.register(action("1"))
        stack.register(action("2"))
        stack.undo()
        #expect(stack.canUndo && stack.canRedo)

        stack.removeAllActions()
        #expect(!stack.canUndo)
        #expect(!stack.canRedo)
        #expect(stack.undoCount == 0 && stack.redoCount == 0)
        #expect(stack.undoMenuItemTitle == "Undo")
        #expect(stack.redoMenuItemTitle == "Redo")

        // Inside an open group: collected actions are discarded, the group stays open.
        stack.beginGroup(named: "Drop")
        stack.register(action("3"))
        stack.removeAllActions()
        #expect(stack.groupingLevel == 1)
        stack.register(action("4"))
        stack.endGroup()
        #expect(stack.undoCount == 1)
        #expect(stack.undoActionName == "Drop")
        log.removeAll()
        stack.undo()
        #expect(log == ["undo 4"])
    }

    @Test("canUndo and canRedo are false while a group is open")
    func canUndoWhileGroupOpen() {
        let stack = UndoStack()
        stack.register(UndoableAction(undo: {}, redo: {}))
        stack.register(UndoableAction(undo: {}, redo: {}))
        stack.undo()
        #expect(stack.canUndo && stack.canRedo)
        stack.beginGroup()
        #expect(!stack.canUndo && !stack.canRedo)
        stack.endGroup()
        #expect(stack.canUndo && stack.canRedo)
    }

    @Test("U1: edits registered the UndoManager way share the history with drops: undo, redo and undo again, grouped and named")
    func registerUndoWithTarget() {
        final class Note { var title = "Draft" }
        let stack = UndoStack()
        let note = Note()
        func retitle(_ note: Note, _ title: String) {
            let old = note.title
            stack.registerUndo(withTarget: note) { note in retitle(note, old) }
            note.title = title
        }
        retitle(note, "Plan")
        stack.setActionName("Rename")
        // A drop's step between two edits.
        let list = ItemList(["a", "b"])
        list.registeredMove(from: 0, to: 1, on: stack)
        stack.beginGroup(named: "Rename Twice")
        retitle(note, "Trip")
        retitle(note, "Trip plan")
        stack.endGroup()
        #expect(note.title == "Trip plan" && stack.undoCount == 3 && stack.undoActionName == "Rename Twice")

        stack.undo()
        #expect(note.title == "Plan", "both renames of the group, last first")
        stack.undo()
        #expect(list.items == ["a", "b"])
        stack.undo()
        #expect(note.title == "Draft" && !stack.canUndo)
        stack.redo()
        #expect(note.title == "Plan" && stack.undoMenuItemTitle == "Undo Rename")
        stack.redo()
        stack.redo()
        #expect(note.title == "Trip plan" && list.items == ["b", "a"])
        stack.undo()
        #expect(note.title == "Plan", "undo after redo: the redo registered its inverse")
        stack.redo()
        #expect(note.title == "Trip plan")
    }

    @Test("U1: a step whose target is gone does nothing; its neighbours still undo")
    func registerUndoWithGoneTarget() {
        final class Box { var value = 0 }
        let stack = UndoStack()
        var box: Box? = Box()
        stack.registerUndo(withTarget: box!) { $0.value = -1 }
        box = nil
        let kept = Box()
        stack.registerUndo(withTarget: kept) { $0.value = 7 }
        stack.undo()
        stack.undo()
        #expect(kept.value == 7 && box == nil && !stack.canUndo)
    }
}
