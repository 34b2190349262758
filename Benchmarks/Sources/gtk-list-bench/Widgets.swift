// The grids of `gtk-list-bench latency` (issue 22): ours beside GTK's own.
import CGtk4
import DragDrop
import DragDropGTK
import Foundation

/// Tiles a row and a tile's size, for both grids.
let gridColumns = 6
let tileSize: (width: Int32, height: Int32) = (96, 64)

/// Presses on the first tile: 40 px across and 30 px down the grid.
@MainActor
func firstTile(of grid: UnsafeMutablePointer<GtkWidget>, in window: UnsafeMutablePointer<GtkWidget>) -> (
    x: Int32, y: Int32
)? {
    var bounds = graphene_rect_t()
    guard gtk_widget_compute_bounds(grid, window, &bounds) != 0 else { return nil }
    return (Int32(bounds.origin.x) + 40, Int32(bounds.origin.y) + 30)
}

/// DragCollectionView in its grid layout over the same "File i" items.
@MainActor
func buildOursGrid(count: Int, host: GtkDragHost) -> Built {
    var options = DragCollectionView.Options(itemType: "application/x-bench-file", kind: Noun("file"))
    options.showsHeading = false
    options.operationPolicy = .preferMove
    options.layout = .grid(columns: gridColumns)
    options.tileSize = tileSize
    let view = DragCollectionView(id: "tiles", title: "Tiles", host: host, options: options)
    let files = Files(count: count)
    view.dataSource = files
    view.reloadData()
    let grid = view.itemsWidget
    return Built(
        list: grid, root: view.widget, adjustment: { gtk_scrollable_get_vadjustment(OpaquePointer(grid)) },
        keep: [view, files], register: { try view.register(in: "window") },
        pressPoint: { firstTile(of: grid, in: $0) })
}

/// A plain GtkGridView over a GtkStringList, a label per tile of the same size and columns
/// (the drag source and drop target are added by the latency mode, as for the list).
@MainActor
func buildGridView(count: Int) -> Built {
    let strings = gtk_string_list_new(nil)!
    for i in 0..<count { gtk_string_list_append(strings, "File \(i)") }
    let factory = gtk_signal_list_item_factory_new()!
    GSignal.connect(
        UnsafeMutableRawPointer(factory), "setup",
        pointer: { item in
            guard let item else { return }
            let label = gtk_label_new("")!
            gtk_widget_set_size_request(label, tileSize.width, tileSize.height)
            gtk_list_item_set_child(OpaquePointer(item), label)
        })
    GSignal.connect(
        UnsafeMutableRawPointer(factory), "bind",
        pointer: { item in
            guard let item, let label = gtk_list_item_get_child(OpaquePointer(item)),
                let object = gtk_list_item_get_item(OpaquePointer(item))
            else { return }
            gtk_label_set_text(
                dd_label(UnsafeMutableRawPointer(label)), gtk_string_object_get_string(OpaquePointer(object)))
        })
    let grid = gtk_grid_view_new(gtk_multi_selection_new(strings), factory)!
    gtk_grid_view_set_max_columns(OpaquePointer(grid), guint(gridColumns))
    gtk_grid_view_set_min_columns(OpaquePointer(grid), guint(gridColumns))
    let scrolled = gtk_scrolled_window_new()!
    gtk_scrolled_window_set_child(dd_scrolled_window(UnsafeMutableRawPointer(scrolled)), grid)
    gtk_widget_set_vexpand(scrolled, 1)
    return Built(
        list: grid, root: scrolled, adjustment: { gtk_scrollable_get_vadjustment(OpaquePointer(grid)) },
        pressPoint: { firstTile(of: grid, in: $0) })
}
