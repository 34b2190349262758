import CGtk4
import DragDrop

/// Dropping text into the field (C2) and dragging its selected text out (C3): inside the field a
/// drag moves the text, elsewhere it copies (S2).
extension DragEntry: GtkDragHostDelegate {
    public func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        var offset = text.unicodeScalars.count
        if let point = drop.point, let local = host.widgetPoint(point, inWidgetOf: id) {
            offset = self.offset(atWidgetX: local.x)
        }
        if drop.items.contains(where: { $0.id == selectionItem }), let range = dragRange,
            (range.start...range.end).contains(offset)
        {
            return .failed(DropFailure(.forbidden, WidgetText.textAlreadyThere))
        }
        return DroppedText.complete(
            drop, accepting: Self.acceptedTypes, host: host, name: name,
            maximumLength: maximumLength.map { max(0, $0 - text.unicodeScalars.count) }
        ) { [weak self] dropped in
            guard let self else { return .failed(DropFailure(.failed, Localization.format(.textFieldGone))) }
            // One line: line breaks between dropped items become spaces.
            var line = String(StyledHTML.plainText(of: dropped.runs).map { $0 == "\n" || $0 == "\r\n" ? " " : $0 })
            let at = min(offset, self.text.unicodeScalars.count)
            // L4: a word joiner keeps dropped text from fusing with a neighbour into one
            // character (a combining accent dropped after a letter).
            let scalars = Array(self.text.unicodeScalars)
            var before = String.UnicodeScalarView()
            before.append(contentsOf: scalars[..<at])
            var after = String.UnicodeScalarView()
            after.append(contentsOf: scalars[at...])
            let seams = ScriptText.seams(before: String(before).last, inserted: line, after: String(after).first)
            if seams.leading { line.unicodeScalars.insert(ScriptText.separator, at: line.unicodeScalars.startIndex) }
            if seams.trailing { line.unicodeScalars.append(ScriptText.separator) }
            self.lastDropInsert = (at, line.unicodeScalars.count)
            // L4: a composition under way at the caret (a dead key's accent waiting for its
            // letter) goes on where it was: the text arrives without moving the caret, and the
            // field takes the keyboard back (a drag from another widget took it).
            if !self.preedit.isEmpty {
                let undo = self.insertKeepingComposition(line, at: at)
                if let area = self.textArea, gtk_widget_has_focus(area) == 0 {
                    gtk_entry_grab_focus_without_selecting(gtkCast(self.entry.widget, to: GtkEntry.self))
                }
                return .committed(undo: undo)
            }
            return .committed(undo: self.replace((at, at), with: line, name: nil))
        }
    }

    public func dragHost(_ host: GtkDragHost, canStartDragOf item: TargetID, atWidgetX x: Double, y: Double) -> Bool {
        guard item == selectionItem, pressOnSelection, let selection = wholeClusterSelection() else { return false }
        dragRange = selection
        lastDropInsert = nil
        return true
    }

    public func dragHost(_ host: GtkDragHost, itemsForDragStartingAt item: TargetID) -> [TargetID] {
        // A keyboard pick-up (C4) drags the selection as it is now; a pointer drag marked it at
        // the press.
        guard host.isPickingUpByKeyboard else { return [selectionItem] }
        guard let selection = wholeClusterSelection() else { return [] }
        dragRange = selection
        lastDropInsert = nil
        return [selectionItem]
    }

    /// The selection widened to whole characters (L4: a selection whose edge fell inside a
    /// cluster drags the whole cluster); nil without a selection.
    func wholeClusterSelection() -> (start: Int, end: Int)? {
        guard let selection else { return nil }
        let whole = ScriptText.wholeClusters(selection.start..<selection.end, in: text)
        return (whole.lowerBound, whole.upperBound)
    }

    /// The text being dragged out.
    private var draggedText: String {
        guard let range = dragRange else { return "" }
        let scalars = Array(text.unicodeScalars)
        guard range.start <= range.end, range.end <= scalars.count else { return "" }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[range.start..<range.end])
        return String(view)
    }

    public func dragHost(_ host: GtkDragHost, itemProviderFor item: TargetID) -> ItemProvider? {
        guard item == selectionItem else { return nil }
        return ItemProvider(app: host.engine.app, representations: [.text(.utf8PlainText, draggedText)])
    }

    public func dragHost(_ host: GtkDragHost, exportedRepresentationsFor items: [TargetID]) -> [ExportedRepresentation]
    {
        [.text(draggedText)]
    }

    /// A move took the dragged text elsewhere: remove it, after the destination committed it
    /// (S4). A drop into this field before the dragged text shifted it.
    public func dragHost(_ host: GtkDragHost, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    {
        guard items.contains(where: { $0.id == selectionItem }), var range = dragRange else { return nil }
        if drop.destination == id, let insert = lastDropInsert, insert.offset <= range.start {
            range = (range.start + insert.length, range.end + insert.length)
        }
        dragRange = nil
        lastDropInsert = nil
        return replace(range, with: "", name: nil)
    }

    /// Another app took the dragged text with a move: it leaves the field (S4).
    public func dragHost(_ host: GtkDragHost, itemsMovedToOtherApp items: [DragItem], app: AppID?) -> [TargetID] {
        let item = selectionItem
        guard items.contains(where: { $0.id == item }), let range = dragRange else {
            return []
        }
        dragRange = nil
        lastDropInsert = nil
        _ = replace(range, with: "", name: nil)
        return [item]
    }

    /// Remembers whether each primary press on the text area landed on the selected text. Such
    /// a press is claimed (with the drag source grouped to it), so GTK's own text drag never
    /// starts; if it ends without a drag it places the caret, as a click does, and the clicks
    /// that follow it (a double click selects the word, a triple click everything) are done here,
    /// since GTK did not count the first. Other presses are left to GTK (caret, selection, double
    /// click).
    func trackPresses() {
        guard let area = textArea, let click = gtk_gesture_click_new() else { return }
        gtk_gesture_single_set_button(dd_gesture_single(UnsafeMutableRawPointer(click)), guint(GDK_BUTTON_PRIMARY))
        gtk_event_controller_set_propagation_phase(click, GTK_PHASE_CAPTURE)
        let bits = PointerBits(UnsafeMutableRawPointer(click))
        GSignal.connect(
            UnsafeMutableRawPointer(click), "pressed",
            click: { [weak self] presses, x, _ in
                guard let self else { return }
                let character = self.offset(atTextAreaX: x, trailing: false)
                self.pressOnSelection =
                    presses == 1 && self.selection.map { $0.start <= character && character < $0.end } ?? false
                if presses == 1 { self.clicksBeganOnSelection = self.pressOnSelection }
                self.host.diagnose("entry press n=\(presses) at=\(character) onSelection=\(self.pressOnSelection)")
                if self.pressOnSelection, let gesture = bits.pointer {
                    gtk_gesture_set_state(dd_gesture(gesture), GTK_EVENT_SEQUENCE_CLAIMED)
                }
                // GTK's gesture missed the first click (claimed above): a double click selects
                // the word and a triple click everything, here, as GTK does elsewhere (K2).
                if presses >= 2, self.clicksBeganOnSelection, let gesture = bits.pointer {
                    gtk_gesture_set_state(dd_gesture(gesture), GTK_EVENT_SEQUENCE_CLAIMED)
                    if presses == 2, let word = TextWords.word(at: character, in: self.text) {
                        gtk_editable_select_region(self.editable, Int32(word.start), Int32(word.end))
                    } else if presses >= 3 {
                        gtk_editable_select_region(self.editable, 0, -1)
                    }
                } else if presses == 2, let word = TextWords.word(at: character, in: self.text),
                    self.wordRange(at: character).map({ $0 != word.start..<word.end }) ?? true,
                    let gesture = bits.pointer
                {
                    // L4: where GTK's own double click would select another range than the word
                    // a reader sees (ICU's: a Japanese word, a hyphenated Russian compound), the
                    // press is claimed and the word selected here.
                    gtk_gesture_set_state(dd_gesture(gesture), GTK_EVENT_SEQUENCE_CLAIMED)
                    gtk_editable_select_region(self.editable, Int32(word.start), Int32(word.end))
                }
            })
        GSignal.connect(
            UnsafeMutableRawPointer(click), "released",
            click: { [weak self] _, x, _ in
                guard let self, self.pressOnSelection, !self.host.engine.isDragging else { return }
                self.pressOnSelection = false
                gtk_editable_set_position(self.editable, Int32(self.offset(atTextAreaX: x)))
            })
        pressTracker = GObjectRef(click)
        gtk_widget_add_controller(area, click)
    }
}
