// The grids and text views of `gtk-list-bench latency` (issue 22): ours beside GTK's own.
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

/// The long text both text views show: `count` lines.
func benchLines(_ count: Int) -> [String] {
    (0..<count).map { "Line \($0): the quick brown fox jumps over the lazy dog, and back again." }
}

/// Selects the first 30 characters of `textView` and returns the middle of its 13th character
/// in window coordinates: a press there lands on the selection and drags it.
@MainActor
func pressOnSelection(of textView: UnsafeMutablePointer<GtkWidget>, in window: UnsafeMutablePointer<GtkWidget>) -> (
    x: Int32, y: Int32
)? {
    let view = dd_text_view(UnsafeMutableRawPointer(textView))
    guard let buffer = gtk_text_view_get_buffer(view) else { return nil }
    var start = GtkTextIter()
    var end = GtkTextIter()
    gtk_text_buffer_get_iter_at_offset(buffer, &start, 0)
    gtk_text_buffer_get_iter_at_offset(buffer, &end, 30)
    gtk_text_buffer_select_range(buffer, &end, &start)
    var at = GtkTextIter()
    gtk_text_buffer_get_iter_at_offset(buffer, &at, 12)
    var place = GdkRectangle()
    gtk_text_view_get_iter_location(view, &at, &place)
    var x: Int32 = 0
    var y: Int32 = 0
    gtk_text_view_buffer_to_window_coords(
        view, GTK_TEXT_WINDOW_WIDGET, place.x + place.width / 2, place.y + place.height / 2, &x, &y)
    var inView = graphene_point_t(x: Float(x), y: Float(y))
    var inWindow = graphene_point_t()
    guard gtk_widget_compute_point(textView, window, &inView, &inWindow) != 0 else { return nil }
    return (Int32(inWindow.x), Int32(inWindow.y))
}

/// Our DragTextView showing the long text (its selection drags through the engine).
@MainActor
func buildOursText(lines: Int, host: GtkDragHost) -> Built {
    let html = benchLines(lines).joined(separator: "<br>")
    let text = DragTextView(id: "text", name: "Text", html: html, host: host)
    let textView = text.textView
    let scroller = text.widget
    return Built(
        list: textView, root: scroller,
        adjustment: { gtk_scrolled_window_get_vadjustment(dd_scrolled_window(UnsafeMutableRawPointer(scroller))) },
        keep: [text], register: { try text.register(in: "window") },
        hasContent: { gtk_widget_get_height(textView) > 0 },
        pressPoint: { pressOnSelection(of: textView, in: $0) })
}

/// A plain GtkTextView with the same text, wrapping and margins: GTK drags its selection
/// itself (and takes text drops through its own drop target).
@MainActor
func buildTextView(lines: Int) -> Built {
    let textView = gtk_text_view_new()!
    let view = dd_text_view(UnsafeMutableRawPointer(textView))
    gtk_text_view_set_wrap_mode(view, GTK_WRAP_WORD_CHAR)
    for margin in [gtk_text_view_set_left_margin, gtk_text_view_set_right_margin] { margin(view, 8) }
    gtk_text_view_set_top_margin(view, 6)
    let text = benchLines(lines).joined(separator: "\n")
    gtk_text_buffer_set_text(gtk_text_view_get_buffer(view), text, -1)
    let scroller = gtk_scrolled_window_new()!
    let scrolled = dd_scrolled_window(UnsafeMutableRawPointer(scroller))
    gtk_scrolled_window_set_policy(scrolled, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
    gtk_scrolled_window_set_child(scrolled, textView)
    gtk_widget_set_vexpand(scroller, 1)
    gtk_widget_set_hexpand(scroller, 1)
    return Built(
        list: textView, root: scroller, adjustment: { gtk_scrolled_window_get_vadjustment(scrolled) },
        hasContent: { gtk_widget_get_height(textView) > 0 },
        pressPoint: { pressOnSelection(of: textView, in: $0) })
}
