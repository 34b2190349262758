import CDragDropGTKSupport
import CGtk4

/// Keyboard focus as in desktop apps: Tab and Shift+Tab go from control to control, a list is
/// one stop (entered at its selected row), and the arrow keys move within it (C4).
@MainActor
public enum FocusNavigation {
    /// A box that takes the keyboard focus itself, for a card that is a drag source (a photo,
    /// a contact): Tab stops on it and the keyboard can pick it up (C4). A plain `GtkBox`
    /// passes Tab to its children only, even when made focusable.
    public static func focusableBox(_ orientation: GtkOrientation, spacing: Int32) -> UnsafeMutablePointer<GtkWidget> {
        dd_focus_box_new(orientation, spacing)!
    }

    /// The first widget at or below `widget`, in child order, that takes the keyboard focus
    /// (shown, sensitive, focusable), innermost first: a list's first row rather than the list.
    public static func firstFocusable(in widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        guard gtk_widget_get_mapped(widget) != 0, gtk_widget_is_sensitive(widget) != 0,
            gtk_widget_get_can_focus(widget) != 0
        else { return nil }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if let found = firstFocusable(in: current) { return found }
            child = gtk_widget_get_next_sibling(current)
        }
        return gtk_widget_get_focusable(widget) != 0 ? widget : nil
    }

    /// Makes Tab and Shift+Tab leave `list` (a list box, flow box, list view or grid view) for
    /// the next or previous control, as in desktop lists, instead of walking its rows one by one
    /// (GTK's default, which also changes the selection of a list whose selection follows the
    /// focus); the arrow keys still move within it.
    public static func tabLeaves(_ list: UnsafeMutablePointer<GtkWidget>) {
        guard let keys = gtk_event_controller_key_new() else { return }
        GSignal.connect(
            UnsafeMutableRawPointer(keys), "key-pressed",
            key: { keyval, _, state in
                let tab = keyval == UInt32(GDK_KEY_Tab) || keyval == UInt32(GDK_KEY_KP_Tab)
                let backTab = keyval == UInt32(GDK_KEY_ISO_Left_Tab) || (tab && state & GDK_SHIFT_MASK.rawValue != 0)
                guard tab || backTab, state & GDK_CONTROL_MASK.rawValue == 0, let root = gtk_widget_get_root(list) else {
                    return false
                }
                let window = UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self)
                let order = focusOrder(in: window, skipping: list)
                guard let split = order.index, !order.widgets.isEmpty else { return false }
                let next =
                    backTab
                    ? order.widgets[(split - 1 + order.widgets.count) % order.widgets.count]
                    : order.widgets[split % order.widgets.count]
                return gtk_widget_grab_focus(next) != 0
            })
        gtk_widget_add_controller(list, keys)
    }

    /// The widgets Tab stops at under `root`, in order, with `skipped`'s subtree left out;
    /// `index` is where `skipped` stood (the first stop after it). A list is one stop: its
    /// selected row, else its first.
    private static func focusOrder(
        in root: UnsafeMutablePointer<GtkWidget>, skipping skipped: UnsafeMutablePointer<GtkWidget>
    ) -> (widgets: [UnsafeMutablePointer<GtkWidget>], index: Int?) {
        var widgets: [UnsafeMutablePointer<GtkWidget>] = []
        var index: Int?
        func visit(_ widget: UnsafeMutablePointer<GtkWidget>) {
            if widget == skipped {
                index = widgets.count
                return
            }
            guard gtk_widget_get_mapped(widget) != 0, gtk_widget_is_sensitive(widget) != 0,
                gtk_widget_get_can_focus(widget) != 0
            else { return }
            let raw = UnsafeMutableRawPointer(widget)
            // Each check on its own line: `||`'s autoclosure would send `raw` (an error in release builds).
            let isBox = dd_is_list_box(raw) != 0
            let isFlowBox = dd_is_flow_box(raw) != 0
            let isListView = dd_is_list_view(raw) != 0
            let isGridView = dd_is_grid_view(raw) != 0
            if isBox || isFlowBox {
                if let stop = selectedChild(of: widget) ?? firstFocusable(in: widget) { widgets.append(stop) }
                return
            }
            if isListView || isGridView {
                // A virtualized list takes the focus itself and puts it on its focused row.
                widgets.append(widget)
                return
            }
            let before = widgets.count
            let skippedBefore = index != nil
            var child = gtk_widget_get_first_child(widget)
            while let current = child {
                visit(current)
                child = gtk_widget_get_next_sibling(current)
            }
            // A focusable widget is a stop of its own unless something inside it is (a button
            // is; a scrolled window around a list is not).
            let holdsSkipped = !skippedBefore && index != nil
            if widgets.count == before, !holdsSkipped, gtk_widget_get_focusable(widget) != 0 {
                widgets.append(widget)
            }
        }
        visit(root)
        return (widgets, index)
    }

    /// The first selected row of a list box or child of a flow box.
    private static func selectedChild(of list: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        var child = gtk_widget_get_first_child(list)
        while let current = child {
            let raw = UnsafeMutableRawPointer(current)
            if dd_is_list_box_row(raw) != 0, gtk_list_box_row_is_selected(dd_list_box_row(raw)) != 0,
                gtk_widget_get_mapped(current) != 0
            {
                return current
            }
            if dd_is_flow_box_child(raw) != 0, gtk_flow_box_child_is_selected(raw.assumingMemoryBound(to: GtkFlowBoxChild.self)) != 0,
                gtk_widget_get_mapped(current) != 0
            {
                return current
            }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }
}
