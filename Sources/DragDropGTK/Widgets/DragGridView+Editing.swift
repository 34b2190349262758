import CGtk4
import DragDrop

/// The grid's edit menu (C1, K2): tiles cut, copied and pasted as text lines, each change an
/// undo step.
extension DragGridView {
    /// The commands that apply now: Undo/Redo when possible, Cut/Copy/Delete only with a
    /// selection, Paste only when the clipboard has text, Select All only when not every tile is
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
        if !tiles.isEmpty, selection.count < tiles.count {
            commands.append(EditCommand("Select All") { [weak self] in self?.selectAll() })
        }
        return commands
    }

    /// Copies the selected tiles' titles, one per line.
    public func copy() {
        let titles = tiles.filter { selection.contains($0.id) }.map(\.title)
        guard !titles.isEmpty else { return }
        EditClipboard.copy(text: titles.joined(separator: "\n"), from: widget)
    }

    /// Copies the selected tiles and removes them: one undo step.
    public func cut() {
        copy()
        removeSelection(named: "Cut")
    }

    /// Removes the selected tiles: one undo step.
    public func deleteSelection() { removeSelection(named: "Delete") }

    /// Selects every tile.
    public func selectAll() { select(tiles.map(\.id)) }

    /// Adds a tile per line of the clipboard's text after the selection (or at the end), selected.
    public func paste() {
        EditClipboard.readText(for: widget) { [weak self] text in
            guard let self, let text else { return }
            let titles = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
            guard !titles.isEmpty else { return }
            let arriving = titles.map { Tile(id: self.newID(), title: $0, folderContents: nil) }
            let last = self.tiles.lastIndex { self.selection.contains($0.id) }
            var after = self.tiles
            after.insert(contentsOf: arriving, at: last.map { $0 + 1 } ?? after.count)
            self.change("Paste", to: after, selecting: arriving.map(\.id))
        }
    }

    private func removeSelection(named name: String) {
        let doomed = Set(selection)
        guard !doomed.isEmpty else { return }
        change(name, to: tiles.filter { !doomed.contains($0.id) }, selecting: [])
    }

    private func change(_ name: String, to after: [Tile], selecting: [TargetID]) {
        let before = tiles
        let selected = selection
        setTiles(after, selecting: selecting)
        host.registerEdit(
            name, undo: { [weak self] in self?.setTiles(before, selecting: selected) },
            redo: { [weak self] in self?.setTiles(after, selecting: selecting) })
    }

    /// A secondary click on a tile outside the selection selects that tile first.
    func installEditMenu() {
        let menu = EditMenu(attachedTo: root.widget, name: title) { [weak self] in self?.editCommands() ?? [] }
        menu.willOpen = { [weak self] x, y in
            guard let self else { return }
            var inRoot = graphene_point_t(x: Float(x), y: Float(y))
            var inBox = graphene_point_t()
            guard gtk_widget_compute_point(self.root.widget, self.flowBox.widget, &inRoot, &inBox) != 0,
                let child = gtk_flow_box_get_child_at_pos(self.box, Int32(inBox.x), Int32(inBox.y)),
                let hit = self.children.first(where: { $0.child.raw == UnsafeMutableRawPointer(child) })?.id
            else { return }
            if !self.selection.contains(hit) { self.select([hit]) }
        }
    }
}
