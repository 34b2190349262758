import DragDrop

/// The list's selection is what Ctrl+Shift+D picks up when the list itself has the focus (C4).
extension DragListView: GtkDragHostSelectionDelegate {
    public func dragHost(_ host: GtkDragHost, selectedItemsIn container: TargetID) -> [TargetID] {
        container == id ? selection : []
    }
}
