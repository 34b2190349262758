import CGtk4
import DragDrop
import DragDropGTK
import Foundation
import ShowcaseModel

/// A list of one store collection's items (reminders, messages, events): a
/// ``StoreCollectionView`` whose elements are list-box rows. Rows drag out with the selection
/// (M1); when the list accepts drops, rows make room where a drop lands (F8).
@MainActor
final class StoreListView: StoreCollectionView {
    struct Options {
        /// The list's target id; nil: the collection's (`collection-7`).
        var containerID: TargetID? = nil
        /// The type rows offer and the list accepts.
        var itemType: ContentType
        /// How announcements and undo names count the rows ("Move 2 Reminders").
        var noun: Noun
        /// Whether the list is a drop destination (with rows making room).
        var acceptsDrops = true
        /// Whether rows can be dragged out.
        var draggable = true
        /// What drops from other lists do (S2): reminders move between lists.
        var operationPolicy: OperationPolicy = .preferMove
        /// Shown when the list is empty.
        var emptyText = "Nothing Here"
    }

    let options: Options

    init(collection: ShowcaseCollection, store: ShowcaseStore, host: GtkDragHost, options: Options) {
        self.options = options
        let listBox = gtk_list_box_new()!
        super.init(
            collection: collection, store: store, host: host, itemType: options.itemType, noun: options.noun,
            elementsWidget: listBox)
        let list = self.list
        gtk_list_box_set_selection_mode(list, GTK_SELECTION_MULTIPLE)
        // A click selects one row, Ctrl-click toggles, Shift-click extends (as in DragListView).
        gtk_list_box_set_activate_on_single_click(list, 0)
        gtk_list_box_set_placeholder(list, UI.label(options.emptyText, xalign: 0.5, css: ["dim-label"]))
        gtk_widget_add_css_class(listBox, "boxed-list")
        gtk_widget_set_vexpand(listBox, 1)
        gtk_widget_set_valign(listBox, GTK_ALIGN_FILL)
        GSignal.connect(elementsWidget.raw, "selected-rows-changed") { [weak self] in self?.selectionChanged() }
    }

    private var list: OpaquePointer { dd_list_box(elementsWidget.raw) }

    override var containerID: TargetID { options.containerID ?? collection.targetID }

    override var elementsAreDraggable: Bool { options.draggable }

    override func containerTarget(in window: TargetID) -> DragTarget {
        guard options.acceptsDrops else {
            var container = DragTarget(id: containerID, name: collection.name, frame: .zero, parent: window)
            container.clipsChildren = true
            return container
        }
        var container = super.containerTarget(in: window)
        container.insertion = .vertical
        container.operationPolicy =
            collection.flags.contains(.readOnly)
            ? .forbidden(reason: "\(collection.name) is read-only.") : options.operationPolicy
        return container
    }

    override func makeElement(for item: ShowcaseItem) -> GObjectRef {
        let row = GObjectRef(newWidget: gtk_list_box_row_new())
        let label = UI.label(item.title)
        UI.margins(label, 10)
        gtk_widget_set_margin_start(label, 12)
        gtk_list_box_row_set_child(dd_list_box_row(row.raw), label)
        gtk_widget_add_css_class(row.widget, "dd-row")
        dd_accessible_set_label(dd_accessible(row.raw), item.title)
        gtk_list_box_append(list, row.widget)
        return row
    }

    override func removeElement(_ element: GObjectRef) { gtk_list_box_remove(list, element.widget) }

    override func isSelected(_ element: GObjectRef) -> Bool {
        gtk_list_box_row_is_selected(dd_list_box_row(element.raw)) != 0
    }

    override func setSelected(_ element: GObjectRef, _ selected: Bool) {
        if selected {
            gtk_list_box_select_row(list, dd_list_box_row(element.raw))
        } else {
            gtk_list_box_unselect_row(list, dd_list_box_row(element.raw))
        }
    }

    override func element(atX x: Double, y: Double) -> GObjectRef? {
        guard let row = gtk_list_box_get_row_at_y(list, Int32(y.rounded())) else { return nil }
        return elements.first { $0.widget.raw == UnsafeMutableRawPointer(row) }?.widget
    }
}
