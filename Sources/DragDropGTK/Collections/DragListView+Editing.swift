import CGtk4
import DragDrop

/// The list's edit menu (C1, K2): rows cut, copied and pasted as text lines, each change an
/// undo step on the engine's stack.
extension DragListView: TitledItemEditing {
    var editableElements: [Item] { items }
    func makeElement(id: TargetID, title: String) -> Item { Item(id: id, title: title) }
    func setEditableElements(_ elements: [Item], selecting: [TargetID]) { setItems(elements, selecting: selecting) }
    /// Selects every row.
    public func selectAll() { gtk_list_box_select_all(dd_list_box(listBox.raw)) }

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
