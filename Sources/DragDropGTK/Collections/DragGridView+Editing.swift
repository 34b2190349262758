import CGtk4
import DragDrop

/// The grid's edit menu (C1, K2): tiles cut, copied and pasted as text lines, each change an
/// undo step.
extension DragGridView: TitledItemEditing {
    var editableElements: [Tile] { tiles }
    func makeElement(id: TargetID, title: String) -> Tile { Tile(id: id, title: title, folderContents: nil) }
    func setEditableElements(_ elements: [Tile], selecting: [TargetID]) { setTiles(elements, selecting: selecting) }
    /// Selects every tile.
    public func selectAll() { select(tiles.map(\.id)) }

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
