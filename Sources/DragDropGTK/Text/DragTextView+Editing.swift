import CGtk4
import DragDrop

/// Typing, the edit menu and the clipboard bindings of ``DragTextView``.
extension DragTextView {
    // MARK: Edit menu (C1, K2)

    /// The commands that apply now: Undo/Redo when there is something to undo or redo,
    /// Cut/Copy/Delete only with a selection, Paste only when the clipboard has text, Select (a
    /// whole word) only without a selection, Select All only when not everything is selected
    /// (C1, K6).
    public func editCommands() -> [EditCommand] {
        var commands = EditMenu.undoCommands(host, for: id)
        if let link = linkAtCursor {
            commands.append(EditCommand("Open Link") { [weak self] in self?.openLink(link) })
        }
        let editable = gtk_text_view_get_editable(dd_text_view(view.raw)) != 0
        let selection = styled.selection
        if selection != nil {
            if editable { commands.append(EditCommand("Cut") { [weak self] in self?.cut() }) }
            commands.append(EditCommand("Copy") { [weak self] in self?.copy() })
        }
        if editable, EditClipboard.hasText(for: view.widget) || EditClipboard.hasForeignHTML(for: view.widget) {
            commands.append(EditCommand("Paste") { [weak self] in self?.paste() })
        }
        if editable, selection != nil {
            commands.append(EditCommand("Delete") { [weak self] in self?.deleteSelection() })
        }
        let count = styled.count
        if count > 0, selection == nil {
            let point = editMenu?.openedAt
            commands.append(EditCommand("Select") { [weak self] in self?.selectWord(near: point) })
        }
        if count > 0, !(selection.map { $0.start == 0 && $0.end == count } ?? false) {
            commands.append(EditCommand("Select All") { [weak self] in self?.selectAll() })
        }
        return commands
    }

    /// Copies the selection (HTML then plain text) and removes it: one undo step.
    public func cut() {
        guard let selection = styled.selection else { return }
        copy()
        edit("Cut") {
            styled.delete(from: selection.start, to: selection.end)
            styled.select(selection.start, selection.start)
        }
    }

    /// Copies the selection as HTML then plain text.
    public func copy() {
        guard let selection = styled.selection else { return }
        EditClipboard.copy(runs: styled.runs(from: selection.start, to: selection.end), from: view.widget)
    }

    /// Replaces the selection with the clipboard's text: styled when this process copied it,
    /// otherwise plain text in the surrounding style (A7). One undo step.
    public func paste() {
        if let runs = EditClipboard.localRuns(for: view.widget) {
            replaceSelection(with: runs, styled: true, name: "Paste")
            return
        }
        // Another app's text, read as a drop from it is (DroppedText: its HTML with bold and
        // italic kept, A7, else plain text; a form that fails its checks gives way to the
        // next), in the background.
        guard let data = ClipboardData.access(for: view.widget, host: host) else { return }
        let room = maximumLength.map { max(0, $0 - styled.count) }
        Task { @MainActor [weak self] in
            defer { data.finish() }
            do throws(DroppedText.Problem) {
                let text = try await DroppedText.load(data, accepting: Self.acceptedTypes, maximumLength: room)
                guard let self, !text.runs.isEmpty else { return }
                self.replaceSelection(with: text.runs, styled: text.styled, name: "Paste")
            } catch {
                self?.host.announce(
                    Sentence.explaining(
                        WidgetText.notPasted, DroppedText.failure(error, name: self?.name ?? "the text").message))
            }
        }
    }

    /// Removes the selection: one undo step.
    public func deleteSelection() {
        guard let selection = styled.selection else { return }
        edit("Delete") {
            styled.delete(from: selection.start, to: selection.end)
            styled.select(selection.start, selection.start)
        }
    }

    /// Selects all the text.
    public func selectAll() { styled.select(0, styled.count) }

    func replaceSelection(with runs: [StyledRun], styled isStyled: Bool, name: String) {
        let range = styled.selection ?? (styled.cursor, styled.cursor)
        edit(name) {
            styled.delete(from: range.start, to: range.end)
            let length = styled.insert(runs, at: range.start, styled: isStyled)
            styled.select(range.start + length, range.start + length)
        }
    }

    // MARK: Input tracking

    /// Remembers whether each primary press landed on the selected text (only such presses
    /// drag; others select, as GTK does).
    func trackPresses() {
        guard let click = gtk_gesture_click_new() else { return }
        gtk_gesture_single_set_button(dd_gesture_single(UnsafeMutableRawPointer(click)), guint(GDK_BUTTON_PRIMARY))
        gtk_event_controller_set_propagation_phase(click, GTK_PHASE_CAPTURE)
        let bits = PointerBits(UnsafeMutableRawPointer(click))
        GSignal.connect(
            UnsafeMutableRawPointer(click), "pressed",
            click: { [weak self] presses, x, y in
                guard let self else { return }
                self.pressPoint = (x, y)
                let character = self.characterOffset(atWidgetX: x, y: y)
                let inSelection = self.styled.selection.map { $0.start <= character && character < $0.end } ?? false
                self.pressOnSelection = presses == 1 && inSelection
                // A double click selects the word under it (K2) as a reader of its language
                // expects (L4: ICU's words, a Japanese word from its dictionary where GTK takes a
                // whole run of kanji and kana). Where GTK's own double click would select
                // something else, or nothing (inside a selection it leaves the press to a possible
                // drag), the press is claimed and the word selected here.
                if presses == 1 { self.claimedDoubleClick = false }
                if presses >= 3, self.claimedDoubleClick, let gesture = bits.pointer {
                    // GTK missed the double click: the triple click selects the line, as GTK's does.
                    gtk_gesture_set_state(dd_gesture(gesture), GTK_EVENT_SEQUENCE_CLAIMED)
                    gtk_widget_grab_focus(self.view.widget)
                    self.selectDisplayLine(at: character)
                    self.claimedSelection = self.styled.selection.map { ($0.start, $0.end) }
                    return
                }
                guard presses == 2, let word = self.word(at: character) else { return }
                if inSelection {
                    // Inside a selection GTK's own gesture leaves the press to a possible drag
                    // and selects nothing: the word is selected here, and GTK's gestures go on
                    // (claiming the press made GTK end its selection drag at the release and
                    // put the caret there, undoing the word).
                    self.styled.select(word.start, word.end)
                    return
                }
                // Elsewhere, where GTK's own double click would select another range (a run of
                // kanji and kana, half a hyphenated word), the press is claimed.
                let claims = self.gtkWord(at: character).map({ $0 != word }) ?? true
                if claims, let gesture = bits.pointer {
                    gtk_gesture_set_state(dd_gesture(gesture), GTK_EVENT_SEQUENCE_CLAIMED)
                    // GTK's own press would have taken the keyboard focus (its first press may
                    // have been another gesture's: a Ctrl+click on a link); the menu key and
                    // typing go to the view whose word was selected.
                    gtk_widget_grab_focus(self.view.widget)
                    self.styled.select(word.start, word.end)
                    self.claimedDoubleClick = true
                    self.claimedSelection = word
                }
            })
        // GTK's own gestures, denied the claimed press, end their selection drag when the button
        // comes up and put the caret where the press was: the claimed selection is made again
        // once that is done (a Shift+click then extends it, as after GTK's own double click).
        GSignal.connect(
            UnsafeMutableRawPointer(click), "released",
            click: { [weak self] _, _, _ in
                guard let self, let range = self.claimedSelection else { return }
                self.claimedSelection = nil
                GLibSource.idle { [weak self] in self?.styled.select(range.start, range.end) }
            })
        pressTracker = GObjectRef(click)
        gtk_widget_add_controller(view.widget, click)
    }

    /// The word around character `offset` (``TextWords/word(at:in:)``, ICU's words, L4),
    /// looked for in its paragraph; nil when there is no word there.
    func word(at offset: Int) -> (start: Int, end: Int)? {
        var start = styled.iter(at: offset)
        gtk_text_iter_set_line_offset(&start, 0)
        var end = start
        if gtk_text_iter_ends_line(&end) == 0 { gtk_text_iter_forward_to_line_end(&end) }
        let from = styled.offset(of: start)
        let paragraph = styled.text(from: from, to: styled.offset(of: end))
        return TextWords.word(at: offset - from, in: paragraph).map { (from + $0.start, from + $0.end) }
    }

    /// Selects the line shown around character `offset` (as wrapped), as GTK's triple click does.
    func selectDisplayLine(at offset: Int) {
        let textView = dd_text_view(view.raw)
        var start = styled.iter(at: offset)
        if gtk_text_view_starts_display_line(textView, &start) == 0 {
            gtk_text_view_backward_display_line_start(textView, &start)
        }
        var end = start
        if gtk_text_view_forward_display_line(textView, &end) == 0 { gtk_text_buffer_get_end_iter(styled.buffer, &end) }
        styled.select(styled.offset(of: start), styled.offset(of: end))
    }

    /// The word GTK's own double click selects around character `offset` (Pango's word
    /// boundaries), nil when there is none.
    func gtkWord(at offset: Int) -> (start: Int, end: Int)? {
        var start = styled.iter(at: offset)
        var end = start
        if gtk_text_iter_starts_word(&start) == 0 { gtk_text_iter_backward_word_start(&start) }
        if gtk_text_iter_ends_word(&end) == 0 { gtk_text_iter_forward_word_end(&end) }
        let from = styled.offset(of: start)
        let to = styled.offset(of: end)
        guard from <= offset, offset < to else { return nil }
        return (from, to)
    }

    /// The offset of the character under `x`, `y` (widget coordinates).
    func characterOffset(atWidgetX x: Double, y: Double) -> Int {
        let textView = dd_text_view(view.raw)
        var bufferX: Int32 = 0
        var bufferY: Int32 = 0
        gtk_text_view_window_to_buffer_coords(
            textView, GTK_TEXT_WINDOW_WIDGET, Int32(x.rounded(.down)), Int32(y.rounded(.down)), &bufferX, &bufferY)
        var at = GtkTextIter()
        gtk_text_view_get_iter_at_location(textView, &at, bufferX, bufferY)
        return styled.offset(of: at)
    }

    /// Records what the user changes (typing, GTK's key bindings) as undo steps; consecutive
    /// typing grows one "Typing" step while it is the newest one.
    func trackChanges() {
        let buffer = UnsafeMutableRawPointer(styled.buffer)
        GSignal.connect(buffer, "changed") { [weak self] in
            guard let self, self.programmaticChanges == 0 else { return }
            self.recordUserEdit()
        }
        for property in ["notify::cursor-position", "notify::has-selection"] {
            GSignal.connect(
                buffer, property,
                pointer: { [weak self] _ in
                    guard let self, self.programmaticChanges == 0 else { return }
                    self.changed()
                })
        }
    }

    private func recordUserEdit() {
        let now = styled.snapshot
        let before = lastSnapshot
        lastSnapshot = now
        defer { changed() }
        let stack = host.engine.undoStack(for: id)
        let name = pendingEditName ?? "Typing"
        pendingEditName = nil
        if name == "Typing", let typing, typing.undoCount == stack.undoCount, stack.undoActionName == "Typing",
            !stack.canRedo
        {
            typing.step.after = now
            return
        }
        let step = EditStepBox(after: now)
        host.registerEdit(
            name, in: id, undo: { [weak self] in self?.restore(before) },
            redo: { [weak self] in self?.restore(step.after) })
        typing = name == "Typing" ? (step, stack.undoCount) : nil
    }

    /// Ctrl+X, Ctrl+C and Ctrl+V go through the same commands as the menu (styled copies,
    /// named undo steps).
    func interceptClipboardBindings() {
        let actions: [(String, @MainActor (DragTextView) -> Void)] = [
            ("cut-clipboard", { $0.cut() }), ("copy-clipboard", { $0.copy() }), ("paste-clipboard", { $0.paste() }),
        ]
        for (signal, action) in actions {
            GSignal.connect(view.raw, signal) { [weak self] in
                guard let self else { return }
                g_signal_stop_emission_by_name(self.view.raw, signal)
                action(self)
            }
        }
    }
}
