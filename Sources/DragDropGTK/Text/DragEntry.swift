import CGtk4
import DragDrop

/// A one-line text field that takes dropped text at the insertion point under the pointer (C2,
/// C3), whose selected text drags out (moved within the field, copied elsewhere), and which shows
/// a placeholder hint while empty (K3).
///
/// Dropped styled text arrives as plain text in the field's own style (A7). Typing, Cut,
/// Paste, Delete and drops are undo steps on the engine's stack (Ctrl+Z, Ctrl+Shift+Z); the
/// edit menu lists only the commands that apply (C1, K2).
///
/// ```swift
/// let to = DragEntry(id: "to", name: "To", placeholder: "Name or email", host: host)
/// gtk_box_append(box, to.widget)
/// try to.register(in: "main")
/// ```
@MainActor
public final class DragEntry: GtkDragRegistering {
    /// What the field takes from drops.
    public static let acceptedTypes: [ContentType] = [.utf8PlainText, .plainText]

    /// The field's target identifier.
    public let id: TargetID
    /// The accessible name.
    public let name: String
    /// The most characters a drop may bring (default 1,000: a field asks for little, K11; nil:
    /// no limit); a longer drop is refused with the reason.
    public var maximumLength: Int? = 1_000
    /// Called after the text changed.
    public var onChange: (@MainActor () -> Void)?

    unowned let host: GtkDragHost
    let entry: GObjectRef
    private var programmaticChanges = 0
    private var lastText: String
    private var typing: (step: TextBox, undoCount: Int)?
    private var editMenu: EditMenu?
    /// The character range being dragged out of the field.
    var dragRange: (start: Int, end: Int)?
    /// Where the last drop into this field landed, for a move inside the field.
    var lastDropInsert: (offset: Int, length: Int)?
    /// Whether the last primary press landed on the selected text.
    var pressOnSelection = false
    /// Whether the clicks in progress began with a press claimed on the selection: GTK's own
    /// gesture did not see it and counts one click fewer.
    var clicksBeganOnSelection = false
    var pressTracker: GObjectRef?
    /// The input method's composition under way at the caret (its preedit), empty when none.
    var preedit = ""

    /// The entry, to put in a window.
    public var widget: UnsafeMutablePointer<GtkWidget> { entry.widget }

    var editable: OpaquePointer { dd_editable(entry.raw) }

    /// The field's text area (GTK's `GtkText` inside the entry), where the selection drags from.
    var textArea: UnsafeMutablePointer<GtkWidget>? {
        GtkWidgetSupport.descendant(of: entry.widget, type: gtk_text_get_type())
    }

    /// The item target that stands for the selected text in drags.
    public var selectionItem: TargetID { TargetID(id.rawValue + ".selection") }

    /// The hint shown while the field is empty (K3).
    public var placeholder: String {
        gtk_entry_get_placeholder_text(gtkCast(entry.raw, to: GtkEntry.self)).map { String(cString: $0) } ?? ""
    }

    /// The text.
    public var text: String { gtk_editable_get_text(editable).map { String(cString: $0) } ?? "" }

    /// Creates a field showing `placeholder` while empty (K3).
    public init(id: TargetID? = nil, name: String, placeholder: String, text: String = "", host: GtkDragHost) {
        self.id = id ?? GtkDragHost.uniqueID(name)
        self.name = name
        self.host = host
        entry = GObjectRef(newWidget: gtk_entry_new())
        lastText = text
        gtk_entry_set_placeholder_text(gtkCast(entry.raw, to: GtkEntry.self), placeholder)
        gtk_editable_set_text(editable, text)
        gtk_editable_set_enable_undo(editable, 0)
        dd_accessible_set_label(dd_accessible(entry.raw), name)
        GtkWidgetSupport.removeBuiltInDropTargets(from: entry.widget)
        GSignal.connect(entry.raw, "changed") { [weak self] in self?.textChanged() }
        for property in ["notify::cursor-position", "notify::selection-bound"] {
            GSignal.connect(
                entry.raw, property,
                pointer: { [weak self] _ in
                    guard let self, self.programmaticChanges == 0 else { return }
                    self.onChange?()
                })
        }
        editMenu = EditMenu(attachedTo: entry.widget, name: name) { [weak self] in self?.editCommands() ?? [] }
        editMenu?.anchor = { [weak self] in self?.editMenuAnchor() }  // beside the selection (K6)
        trackPresses()
        if let area = textArea {
            GSignal.connect(
                UnsafeMutableRawPointer(area), "preedit-changed",
                pointer: { [weak self] text in
                    guard let self else { return }
                    self.preedit = text.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
                    self.host.diagnose("preedit \"\(self.preedit)\" in \(self.id)")
                })
        }
        if id == nil { host.registerWhenPlaced(self) }
    }

    /// Registers the field as a drop destination, and its selected text as a draggable item,
    /// inside the registered window `window`.
    public func register(in window: TargetID) throws(GtkDragHostError) {
        var target = DragTarget(id: id, name: name, frame: .zero, parent: window)
        target.accepts = Self.acceptedTypes
        try host.register(entry.widget, as: target, delegate: self)
        guard let area = textArea else { return }
        var selection = DragTarget(id: selectionItem, name: WidgetText.selectedText(in: name), frame: .zero, parent: id)
        selection.offers = [.utf8PlainText]
        selection.kind = Noun("text", plural: "text")
        try host.register(area, as: selection, delegate: self)
        // Before GTK's own text drag: the drag source sees the press-and-move first, and shares
        // the claim the press tracker makes on presses on the selection.
        host.captureDragSource(of: selectionItem)
        if let tracker = pressTracker, let source = host.registered[selectionItem]?.dragSource {
            gtk_gesture_group(OpaquePointer(tracker.raw), OpaquePointer(source.raw))
        }
    }

    // MARK: Text

    /// The selection's character offsets, nil without a selection.
    var selection: (start: Int, end: Int)? {
        var start: Int32 = 0
        var end: Int32 = 0
        guard gtk_editable_get_selection_bounds(editable, &start, &end) != 0, start != end else { return nil }
        return (Int(min(start, end)), Int(max(start, end)))
    }

    /// The selected text, nil without a selection.
    public var selectedText: String? {
        guard let selection else { return nil }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: Array(text.unicodeScalars)[selection.start..<selection.end])
        return String(view)
    }

    /// The character offset nearest to `x` in the entry's coordinates (see
    /// ``offset(atTextAreaX:trailing:)``).
    func offset(atWidgetX x: Double) -> Int {
        guard let area = textArea else { return text.unicodeScalars.count }
        var local = graphene_point_t(x: Float(x), y: 0)
        var inArea = graphene_point_t()
        _ = gtk_widget_compute_point(entry.widget, area, &local, &inArea)
        return offset(atTextAreaX: Double(inArea.x))
    }

    /// The character offset at `x` in the text area's coordinates: the nearest caret position
    /// (a grapheme-cluster boundary, L4), or with `trailing` false the character under `x`. The text is measured from the start of
    /// the text area; a field scrolled sideways (text longer than the field) is not accounted
    /// for.
    func offset(atTextAreaX x: Double, trailing useTrailing: Bool = true) -> Int {
        let current = text
        guard let area = textArea, let layout = gtk_widget_create_pango_layout(area, current) else {
            return current.unicodeScalars.count
        }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var index: Int32 = 0
        var trailing: Int32 = 0
        _ = pango_layout_xy_to_index(layout, Int32(x * 1024), 0, &index, &trailing)
        let bytes = Array(current.utf8).prefix(Int(max(0, index)))
        let offset = String(decoding: bytes, as: UTF8.self).unicodeScalars.count
        guard useTrailing else { return offset }
        // Between two characters as a reader sees them (grapheme clusters, L4), never inside one.
        return ScriptText.nearestBoundary(to: offset + Int(trailing), in: current)
    }

    /// The word around character `offset` (Pango's word boundaries, as GTK's own double click
    /// uses), nil when there is no word there.
    func wordRange(at offset: Int) -> Range<Int>? {
        let current = text
        guard let area = textArea, let layout = gtk_widget_create_pango_layout(area, current) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var count: Int32 = 0
        guard let attrs = pango_layout_get_log_attrs_readonly(layout, &count), offset >= 0, offset < Int(count) - 1
        else { return nil }
        var start = offset
        while start > 0, attrs[start].is_word_start == 0 { start -= 1 }
        var end = offset + 1
        while end < Int(count) - 1, attrs[end].is_word_end == 0 { end += 1 }
        guard attrs[start].is_word_start != 0, attrs[end].is_word_end != 0, start <= offset, offset < end else {
            return nil
        }
        return start..<end
    }

    /// Replaces the text with `newText` as the view's own change.
    private func set(_ newText: String, caret: Int) {
        programmaticChanges += 1
        gtk_editable_set_text(editable, newText)
        gtk_editable_set_position(editable, Int32(caret))
        programmaticChanges -= 1
        lastText = newText
        typing = nil
        onChange?()
    }

    /// Inserts `insert` at `offset` without touching the caret or ending an input method's
    /// composition under way there (L4), unlike replacing the whole text; returns the action
    /// that undoes and redoes it.
    func insertKeepingComposition(_ insert: String, at offset: Int) -> UndoableAction {
        let before = text
        var position = Int32(offset)
        programmaticChanges += 1
        gtk_editable_insert_text(editable, insert, -1, &position)
        programmaticChanges -= 1
        let after = text
        lastText = after
        typing = nil
        onChange?()
        let caretAfter = Int(position)
        return UndoableAction(
            undo: { [weak self] in self?.set(before, caret: offset) },
            redo: { [weak self] in self?.set(after, caret: caretAfter) })
    }

    /// Replaces the whole text as the app's own change (a drop it completes, a command), not a
    /// typing step; returns the action that undoes and redoes it, for the caller's undo step.
    @discardableResult
    public func replaceText(with newText: String) -> UndoableAction {
        replace((0, Int.max), with: newText, name: nil)
    }

    /// Replaces `range` with `insert` and registers it as the undo step `name`, or returns the
    /// undo action when `name` is nil (a drop, which the engine registers).
    @discardableResult
    func replace(_ range: (start: Int, end: Int), with insert: String, name: String?) -> UndoableAction {
        let before = text
        let scalars = Array(before.unicodeScalars)
        let start = min(range.start, scalars.count)
        let end = min(max(range.end, start), scalars.count)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[..<start])
        view.append(contentsOf: insert.unicodeScalars)
        view.append(contentsOf: scalars[end...])
        let after = String(view)
        let caretAfter = start + insert.unicodeScalars.count
        set(after, caret: caretAfter)
        let action = UndoableAction(
            undo: { [weak self] in self?.set(before, caret: end) },
            redo: { [weak self] in self?.set(after, caret: caretAfter) })
        if let name { host.registerEdit(name, in: id, undo: action.undo, redo: action.redo) }
        return action
    }

    private func textChanged() {
        guard programmaticChanges == 0 else { return }
        let now = text
        let before = lastText
        lastText = now
        defer { onChange?() }
        let stack = host.engine.undoStack(for: id)
        if let typing, typing.undoCount == stack.undoCount, stack.undoActionName == "Typing", !stack.canRedo {
            typing.step.text = now
            return
        }
        let step = TextBox(now)
        host.registerEdit(
            "Typing", in: id, undo: { [weak self] in self?.set(before, caret: before.unicodeScalars.count) },
            redo: { [weak self] in self?.set(step.text, caret: step.text.unicodeScalars.count) })
        typing = (step, stack.undoCount)
    }

    // MARK: Edit menu (C1, K2)

    /// The commands that apply now (see ``DragTextView/editCommands()``): Select (a whole word)
    /// only without a selection (K6).
    public func editCommands() -> [EditCommand] {
        var commands = EditMenu.undoCommands(host, for: id)
        let selection = self.selection
        if let selection {
            commands.append(EditCommand("Cut") { [weak self] in self?.cut(selection) })
            commands.append(EditCommand("Copy") { [weak self] in self?.copy(selection) })
        }
        if EditClipboard.hasText(for: entry.widget) {
            commands.append(EditCommand("Paste") { [weak self] in self?.paste() })
        }
        if let selection {
            commands.append(EditCommand("Delete") { [weak self] in self?.replace(selection, with: "", name: "Delete") })
        }
        let count = text.unicodeScalars.count
        if count > 0, selection == nil {
            let point = editMenu?.openedAt
            commands.append(EditCommand("Select") { [weak self] in self?.selectWord(near: point) })
        }
        if count > 0, !(selection.map { $0.start == 0 && $0.end == count } ?? false) {
            commands.append(
                EditCommand("Select All") { [weak self] in
                    guard let self else { return }
                    gtk_editable_select_region(self.editable, 0, -1)
                })
        }
        return commands
    }

    private func substring(_ range: (start: Int, end: Int)) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: Array(text.unicodeScalars)[range.start..<range.end])
        return String(view)
    }

    private func copy(_ range: (start: Int, end: Int)) {
        EditClipboard.copy(text: substring(range), from: entry.widget)
    }

    private func cut(_ range: (start: Int, end: Int)) {
        copy(range)
        replace(range, with: "", name: "Cut")
    }

    private func paste() {
        EditClipboard.readText(for: entry.widget) { [weak self] pasted in
            guard let self, let pasted, !pasted.isEmpty else { return }
            let caret = Int(gtk_editable_get_position(self.editable))
            let line = String(pasted.map { $0 == "\n" || $0 == "\r\n" ? " " : $0 })
            self.replace(self.selection ?? (caret, caret), with: line, name: "Paste")
        }
    }
}

/// A typing step's latest text.
final class TextBox {
    var text: String
    init(_ text: String) { self.text = text }
}
