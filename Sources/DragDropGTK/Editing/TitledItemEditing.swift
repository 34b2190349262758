import CGtk4
import DragDrop

/// An element of a list or grid that the edit menu can cut, copy and paste as a line of text.
public protocol TitledElement {
    /// The element's target identifier.
    var id: TargetID { get }
    /// Its title: what Copy puts on the clipboard.
    var title: String { get }
}

/// The edit menu shared by item collections (C1, K2): elements are cut, copied and pasted as
/// text lines, each change one undo step on the engine's stack. A widget provides its elements,
/// its selection and a setter; the commands and their undo come from here.
@MainActor
protocol TitledItemEditing: AnyObject {
    associatedtype Element: TitledElement
    /// The elements, in order.
    var editableElements: [Element] { get }
    /// The selected elements' identifiers.
    var selection: [TargetID] { get }
    /// Whether Cut, Paste and Delete are offered (false: a list whose rows the app keeps
    /// elsewhere, which only Copy and drops change).
    var allowsEditing: Bool { get }
    /// The widget the clipboard belongs to.
    var widget: UnsafeMutablePointer<GtkWidget> { get }
    /// The host whose undo stack records edits.
    var host: GtkDragHost { get }
    /// The view's registered identifier (its document's undo history).
    var id: TargetID { get }
    /// A fresh identifier for a pasted element.
    func newID() -> TargetID
    /// A new element titled `title` (pasted text).
    func makeElement(id: TargetID, title: String) -> Element
    /// Replaces the elements and the selection.
    func setEditableElements(_ elements: [Element], selecting: [TargetID])
    /// Selects every element.
    func selectAll()
}

extension TitledItemEditing {
    /// The commands that apply now: Undo/Redo when possible, Cut/Copy/Delete only with a
    /// selection, Paste only when the clipboard has text, Select All only when not every element
    /// is selected; no Cut, Paste or Delete unless ``allowsEditing``.
    func editCommands() -> [EditCommand] {
        var commands = EditMenu.undoCommands(host, for: id)
        if !selection.isEmpty {
            if allowsEditing { commands.append(EditCommand("Cut") { [weak self] in self?.cut() }) }
            commands.append(EditCommand("Copy") { [weak self] in self?.copy() })
        }
        if allowsEditing, EditClipboard.hasText(for: widget) {
            commands.append(EditCommand("Paste") { [weak self] in self?.paste() })
        }
        if allowsEditing, !selection.isEmpty {
            commands.append(EditCommand("Delete") { [weak self] in self?.deleteSelection() })
        }
        if !editableElements.isEmpty, selection.count < editableElements.count {
            commands.append(EditCommand("Select All") { [weak self] in self?.selectAll() })
        }
        return commands
    }

    /// Copies the selected elements' titles, one per line.
    func copy() {
        let titles = editableElements.filter { selection.contains($0.id) }.map(\.title)
        guard !titles.isEmpty else { return }
        EditClipboard.copy(text: titles.joined(separator: "\n"), from: widget)
    }

    /// Copies the selected elements and removes them: one undo step.
    func cut() {
        copy()
        removeSelection(named: "Cut")
    }

    /// Removes the selected elements: one undo step.
    func deleteSelection() { removeSelection(named: "Delete") }

    /// Adds an element per line of the clipboard's text after the selection (or at the end),
    /// selected.
    func paste() {
        EditClipboard.readText(for: widget) { [weak self] text in
            guard let self, let text else { return }
            let titles = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
            guard !titles.isEmpty else { return }
            let arriving = titles.map { self.makeElement(id: self.newID(), title: $0) }
            let last = self.editableElements.lastIndex { self.selection.contains($0.id) }
            var after = self.editableElements
            after.insert(contentsOf: arriving, at: last.map { $0 + 1 } ?? after.count)
            self.changeElements("Paste", to: after, selecting: arriving.map(\.id))
        }
    }

    private func removeSelection(named name: String) {
        let doomed = Set(selection)
        guard !doomed.isEmpty else { return }
        changeElements(name, to: editableElements.filter { !doomed.contains($0.id) }, selecting: [])
    }

    private func changeElements(_ name: String, to after: [Element], selecting: [TargetID]) {
        let before = editableElements
        let selected = selection
        setEditableElements(after, selecting: selecting)
        host.registerEdit(
            name, in: id, undo: { [weak self] in self?.setEditableElements(before, selecting: selected) },
            redo: { [weak self] in self?.setEditableElements(after, selecting: selecting) })
    }
}

extension DragGridView.Tile: TitledElement {}
