import CGtk4
import DragDrop

/// Dragging the selection out and taking drops in (C3, S2, P1, A7, U1).
extension DragTextView: GtkDragHostDelegate, GtkDragStartGate {
    public func dragHost(_ host: GtkDragHost, canStartDragOf item: TargetID, atWidgetX x: Double, y: Double) -> Bool {
        guard item == selectionItem, pressOnSelection, let selection = styled.selection else { return false }
        clearDragRange()
        if let start = styled.makeMark(at: selection.start, leftGravity: true),
            let end = styled.makeMark(at: selection.end, leftGravity: false)
        {
            dragRange = (start, end)
        }
        return true
    }

    public func dragHost(_ host: GtkDragHost, itemsForDragStartingAt item: TargetID) -> [TargetID] {
        // A keyboard pick-up (C4) drags the selection as it is now; a pointer drag marked it at
        // the press.
        guard host.isPickingUpByKeyboard else { return [selectionItem] }
        clearDragRange()
        guard let selection = styled.selection, let start = styled.makeMark(at: selection.start, leftGravity: true),
            let end = styled.makeMark(at: selection.end, leftGravity: false)
        else { return [] }
        dragRange = (start, end)
        return [selectionItem]
    }

    /// The dragged runs, while a drag of this view's selection is under way.
    var draggedRuns: [StyledRun] {
        guard let range = dragRange else { return [] }
        return styled.runs(from: styled.offset(of: range.start), to: styled.offset(of: range.end))
    }

    public func dragHost(_ host: GtkDragHost, itemProviderFor item: TargetID) -> ItemProvider? {
        guard item == selectionItem else { return nil }
        let runs = draggedRuns
        return ItemProvider(
            app: host.engine.app,
            representations: [
                .text(.html, StyledHTML.exportedHTML(from: runs)), .text(.utf8PlainText, StyledHTML.plainText(of: runs)),
            ])
    }

    public func dragHost(_ host: GtkDragHost, exportedRepresentationsFor items: [TargetID]) -> [ExportedRepresentation]
    {
        let runs = draggedRuns
        return [
            ExportedRepresentation(mimeType: "text/html", bytes: Array(StyledHTML.exportedHTML(from: runs).utf8)),
            .text(StyledHTML.plainText(of: runs)),
        ]
    }

    public func dragHost(_ host: GtkDragHost, insertionIndexIn container: TargetID, at point: Point?) -> Int? {
        guard let point, let local = host.widgetPoint(point, inWidgetOf: id) else { return styled.count }
        return offset(atWidgetX: local.x, y: local.y)
    }

    public func dragHost(_ host: GtkDragHost, showInsertionAt index: Int?, in container: TargetID) {
        showDropCaret(at: index)
    }

    public func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        var offset = styled.count
        if let point = drop.point, let local = host.widgetPoint(point, inWidgetOf: id) {
            offset = self.offset(atWidgetX: local.x, y: local.y)
        } else if let index = drop.index {
            offset = min(index, styled.count)
        }
        if drop.items.contains(where: { $0.id == selectionItem }), let range = dragRange,
            (styled.offset(of: range.start)...styled.offset(of: range.end)).contains(offset)
        {
            return .failed(DropFailure(.forbidden, "The text is already there."))
        }
        // The insertion point survives whatever changes while the data loads.
        guard let mark = styled.makeMark(at: offset, leftGravity: true) else {
            return .failed(DropFailure(.failed, "The insertion point could not be kept."))
        }
        return DroppedText.complete(
            drop, accepting: Self.acceptedTypes, host: host, name: name, maximumLength: maximumLength.map { max(0, $0 - styled.count) }
        ) { [weak self] dropped in
            guard let self else { return .failed(DropFailure(.failed, "The text view is gone.")) }
            let at = self.styled.offset(of: mark)
            self.styled.deleteMark(mark)
            return self.insertDropped(dropped, at: at)
        }
    }

    /// Inserts dropped text and selects it; undo takes it out again (U1).
    private func insertDropped(_ dropped: DroppedText, at offset: Int) -> DropResult {
        let before = styled.snapshot
        changeProgrammatically {
            let length = styled.insert(dropped.runs, at: offset, styled: dropped.styled)
            styled.select(offset, offset + length)
        }
        let after = lastSnapshot
        return .committed(
            undo: UndoableAction(
                undo: { [weak self] in self?.restore(before) }, redo: { [weak self] in self?.restore(after) }))
    }

    /// A move took the dragged text elsewhere (in this view or another): remove it from here,
    /// after the destination committed it (S4).
    public func dragHost(_ host: GtkDragHost, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    {
        guard items.contains(where: { $0.id == selectionItem }), dragRange != nil else { return nil }
        let before = styled.snapshot
        removeDraggedText(keepingSelection: drop.destination == id)
        let after = lastSnapshot
        return UndoableAction(
            undo: { [weak self] in self?.restore(before) }, redo: { [weak self] in self?.restore(after) })
    }

    /// Another app took the dragged text with a move: it leaves the view (S4).
    public func dragHost(_ host: GtkDragHost, itemsMovedToOtherApp items: [DragItem], app: AppID?) -> [TargetID] {
        let item = selectionItem
        guard items.contains(where: { $0.id == item }), dragRange != nil else { return [] }
        removeDraggedText(keepingSelection: false)
        return [item]
    }

    /// Deletes the dragged range. `keepingSelection`: the text was moved inside this view, and
    /// stays selected where it landed.
    private func removeDraggedText(keepingSelection: Bool) {
        guard let range = dragRange else { return }
        let dropped = styled.selection
        changeProgrammatically {
            let start = styled.offset(of: range.start)
            let end = styled.offset(of: range.end)
            styled.delete(from: start, to: end)
            if keepingSelection, let dropped {
                let length = end - start
                let shift = dropped.start >= end ? length : 0
                styled.select(dropped.start - shift, dropped.end - shift)
            }
        }
        clearDragRange()
    }

    func clearDragRange() {
        guard let range = dragRange else { return }
        styled.deleteMark(range.start)
        styled.deleteMark(range.end)
        dragRange = nil
    }
}
