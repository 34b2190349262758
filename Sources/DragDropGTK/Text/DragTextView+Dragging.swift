import CGtk4
import DragDrop

/// Dragging the selection out and taking drops in (C3, S2, P1, A7, U1).
extension DragTextView: GtkDragHostDelegate {
    public func dragHost(_ host: GtkDragHost, canStartDragOf item: TargetID, atWidgetX x: Double, y: Double) -> Bool {
        guard item == selectionItem, pressOnSelection, styled.selection != nil else { return false }
        markDragRange()
        return true
    }

    /// Marks the selection as the dragged range, widened to whole characters (L4: a selection
    /// whose edge fell inside a cluster, as GTK's Shift+arrow leaves it in a Devanagari
    /// conjunct, drags the whole cluster). False without a selection.
    @discardableResult
    func markDragRange() -> Bool {
        clearDragRange()
        guard let selection = styled.selection else { return false }
        let whole = styled.wholeClusters(from: selection.start, to: selection.end)
        guard let start = styled.makeMark(at: whole.start, leftGravity: true),
            let end = styled.makeMark(at: whole.end, leftGravity: false)
        else { return false }
        dragRange = (start, end)
        return true
    }

    public func dragHost(_ host: GtkDragHost, itemsForDragStartingAt item: TargetID) -> [TargetID] {
        // A keyboard pick-up (C4) drags the selection as it is now; a pointer drag marked it at
        // the press.
        guard host.isPickingUpByKeyboard else { return [selectionItem] }
        return markDragRange() ? [selectionItem] : []
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
                .text(.html, StyledHTML.exportedHTML(from: runs)),
                .text(.utf8PlainText, StyledHTML.plainText(of: runs)),
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
            offset = styled.nearestClusterBoundary(to: min(index, styled.count))  // L4
        }
        if drop.items.contains(where: { $0.id == selectionItem }), let range = dragRange,
            (styled.offset(of: range.start)...styled.offset(of: range.end)).contains(offset)
        {
            return .failed(DropFailure(.forbidden, WidgetText.textAlreadyThere))
        }
        // The insertion point survives whatever changes while the data loads.
        guard let mark = styled.makeMark(at: offset, leftGravity: true) else {
            return .failed(DropFailure(.failed, Localization.format(.insertionPointLost)))
        }
        return DroppedText.complete(
            drop, accepting: Self.acceptedTypes, host: host, name: name,
            maximumLength: maximumLength.map { max(0, $0 - styled.count) }
        ) { [weak self] dropped in
            guard let self else { return .failed(DropFailure(.failed, Localization.format(.textViewGone))) }
            let at = self.styled.offset(of: mark)
            self.styled.deleteMark(mark)
            let fromOtherApp = drop.items.allSatisfy { $0.app != host.engine.app }
            return self.insertDropped(dropped, at: at, spacedAsWords: fromOtherApp)
        }
    }

    /// Inserts dropped text and selects it; undo takes it out again (U1). `spacedAsWords` (text
    /// from another app): a phrase (one line) gets a space before it after a word, and after it
    /// before a word, so it never glues to its neighbours
    /// (``smartSpaces(before:first:last:after:)``); lines and paragraphs land as they are.
    private func insertDropped(_ dropped: DroppedText, at offset: Int, spacedAsWords: Bool) -> DropResult {
        let before = styled.snapshot
        var runs = dropped.runs
        let text = StyledHTML.plainText(of: runs)
        let neighbours = styled.characters(around: offset)
        var spaces = (leading: false, trailing: false)
        if spacedAsWords, !text.contains(where: \.isNewline) {
            spaces = Self.smartSpaces(
                before: neighbours.before, first: text.first, last: text.last, after: neighbours.after)
        }
        // L4: where the dropped text would fuse with its neighbour into one character (it starts
        // with a combining mark and lands after a letter, a lone regional indicator lands beside
        // a flag), a word joiner keeps them apart: each keeps the characters it showed.
        let seams = ScriptText.seams(
            before: spaces.leading ? " " : neighbours.before, inserted: text,
            after: spaces.trailing ? " " : neighbours.after)
        if seams.leading { runs.insert(StyledRun(String(ScriptText.separator)), at: 0) }
        if seams.trailing { runs.append(StyledRun(String(ScriptText.separator))) }
        if spaces.leading { runs.insert(StyledRun(" "), at: 0) }
        if spaces.trailing { runs.append(StyledRun(" ")) }
        // L4: an input method's composition under way at the caret (a dead key's accent
        // waiting for its letter) goes on where it was: the dropped text arrives without moving
        // the caret (moving it would end the composition) and the view takes the keyboard back
        // (a drag from another widget took it), so the next key finishes the character there.
        let composing = !preedit.isEmpty
        changeProgrammatically {
            let length = styled.insert(runs, at: offset, styled: dropped.styled)
            if composing { return }
            // The dropped text is selected, not the spaces and joiners added around it.
            let leading = (spaces.leading ? 1 : 0) + (seams.leading ? 1 : 0)
            let trailing = (spaces.trailing ? 1 : 0) + (seams.trailing ? 1 : 0)
            styled.select(offset + leading, offset + length - trailing)
        }
        let after = lastSnapshot
        if composing, gtk_widget_has_focus(view.widget) == 0 { gtk_widget_grab_focus(view.widget) }
        return .committed(
            undo: UndoableAction(
                undo: { [weak self] in self?.restore(before) }, redo: { [weak self] in self?.restore(after) }))
    }

    /// Whether a phrase dropped between `before` and `after` (the characters around the
    /// insertion point, nil at the text's ends) needs a space before it and after it to stand
    /// as words, as a Mac's smart insertion adds them: before, after a word or a sentence's end
    /// (not after a space or an opening bracket or quote, nor before punctuation that closes);
    /// after, before a letter or digit.
    static func smartSpaces(before: Character?, first: Character?, last: Character?, after: Character?)
        -> (leading: Bool, trailing: Bool)
    {
        let opening: Set<Character> = ["(", "[", "{", "\"", "'", "“", "‘", "«", "¿", "¡", "/", "-"]
        let closing: Set<Character> = [".", ",", ";", ":", "!", "?", ")", "]", "}", "\"", "'", "”", "’", "»", "…"]
        var leading = false
        if let before, let first, !before.isWhitespace, !opening.contains(before), !first.isWhitespace,
            !closing.contains(first)
        {
            leading = true
        }
        var trailing = false
        if let after, let last, after.isLetter || after.isNumber, !last.isWhitespace, !opening.contains(last) {
            trailing = true
        }
        return (leading, trailing)
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
