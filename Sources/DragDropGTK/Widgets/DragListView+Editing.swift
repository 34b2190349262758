import CGtk4
import DragDrop

/// The list's edit menu (C1, K2): rows cut, copied and pasted as text lines, each change an
/// undo step on the engine's stack.
extension DragListView {
    /// The commands that apply now: Undo/Redo when possible, Cut/Copy/Delete only with a
    /// selection, Paste only when the clipboard has text, Select All only when not every row is
    /// selected.
    public func editCommands() -> [EditCommand] {
        var commands = EditMenu.undoCommands(host)
        if !selection.isEmpty {
            commands.append(EditCommand("Cut") { [weak self] in self?.cut() })
            commands.append(EditCommand("Copy") { [weak self] in self?.copy() })
        }
        if EditClipboard.hasText(for: widget) {
            commands.append(EditCommand("Paste") { [weak self] in self?.paste() })
        }
        if !selection.isEmpty {
            commands.append(EditCommand("Delete") { [weak self] in self?.deleteSelection() })
        }
        if !items.isEmpty, selection.count < items.count {
            commands.append(EditCommand("Select All") { [weak self] in self?.selectAll() })
        }
        return commands
    }

    /// Copies the selected rows' titles, one per line.
    public func copy() {
        let titles = items.filter { selection.contains($0.id) }.map(\.title)
        guard !titles.isEmpty else { return }
        EditClipboard.copy(text: titles.joined(separator: "\n"), from: widget)
    }

    /// Copies the selected rows and removes them: one undo step.
    public func cut() {
        copy()
        removeSelection(named: "Cut")
    }

    /// Removes the selected rows: one undo step.
    public func deleteSelection() { removeSelection(named: "Delete") }

    /// Selects every row.
    public func selectAll() { gtk_list_box_select_all(dd_list_box(listBox.raw)) }

    /// Adds a row per line of the clipboard's text after the selection (or at the end), selected.
    public func paste() {
        EditClipboard.readText(for: widget) { [weak self] text in
            guard let self, let text else { return }
            let titles = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
            guard !titles.isEmpty else { return }
            let arriving = titles.map { Item(id: self.newID(), title: $0) }
            let last = self.items.lastIndex { self.selection.contains($0.id) }
            var after = self.items
            after.insert(contentsOf: arriving, at: last.map { $0 + 1 } ?? after.count)
            self.change("Paste", to: after, selecting: arriving.map(\.id))
        }
    }

    private func removeSelection(named name: String) {
        let doomed = Set(selection)
        guard !doomed.isEmpty else { return }
        change(name, to: items.filter { !doomed.contains($0.id) }, selecting: [])
    }

    private func change(_ name: String, to after: [Item], selecting: [TargetID]) {
        let before = items
        let selected = selection
        setItems(after, selecting: selecting)
        host.registerEdit(
            name, undo: { [weak self] in self?.setItems(before, selecting: selected) },
            redo: { [weak self] in self?.setItems(after, selecting: selecting) })
    }

    /// Attaches the edit menu; a secondary click on a row outside the selection selects that
    /// row first.
    func installEditMenu() {
        let menu = EditMenu(attachedTo: root.widget, name: title) { [weak self] in self?.editCommands() ?? [] }
        menu.willOpen = { [weak self] x, y in
            guard let self else { return }
            var inRoot = graphene_point_t(x: Float(x), y: Float(y))
            var inList = graphene_point_t()
            let list = dd_list_box(self.listBox.raw)
            guard gtk_widget_compute_point(self.root.widget, self.listBox.widget, &inRoot, &inList) != 0,
                let row = gtk_list_box_get_row_at_y(list, Int32(inList.y)),
                let hit = self.rows.first(where: { $0.row.raw == UnsafeMutableRawPointer(row) })?.id,
                !self.selection.contains(hit)
            else { return }
            gtk_list_box_unselect_all(list)
            gtk_list_box_select_row(list, row)
        }
    }
}
