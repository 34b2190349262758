import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol
import ShowcaseModel

/// Situation 2: reminder lists side by side. Dragging between lists moves (the app's choice,
/// S2); several selected reminders go together (M1); rows make room (F8); each drop is one
/// store transaction and one undo step (S4, U1).
@MainActor
final class RemindersPane: ShowcasePane {
    static let itemType: ContentType = "application/x-showcase-reminder"

    let situation = Situation.named("reminders")!
    let widget: UnsafeMutablePointer<GtkWidget>
    var onChange: (@MainActor () -> Void)?
    var onError: (@MainActor (String) -> Void)?

    private let store: ShowcaseStore
    private unowned let host: GtkDragHost
    private var lists: [StoreListView] = []
    private let row: UnsafeMutablePointer<GtkWidget>

    init(store: ShowcaseStore, host: GtkDragHost) {
        self.store = store
        self.host = host
        row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 18)
        gtk_box_set_homogeneous(dd_box(UnsafeMutableRawPointer(row)), 1)
        gtk_widget_set_vexpand(row, 1)
        widget = row
    }

    func activate(in window: TargetID) {
        if lists.isEmpty { buildLists() }
        for list in lists { list.register(in: window) }
        reload()
    }

    func deactivate() {
        for list in lists { list.unregister() }
    }

    func reload() { reload(selecting: nil) }

    /// Reloads every list from the store: all rows are unregistered before any registers again
    /// (a moved reminder keeps its target id).
    private func reload(selecting ids: [ItemID]?) {
        for list in lists { list.reload(selecting: ids) }
        onChange?()
    }

    private func buildLists() {
        let collections: [ShowcaseCollection]
        do {
            collections = try store.collections(in: .reminders)
        } catch {
            onError?(Sentence.explaining(words("Could not read the reminder lists"), error))
            return
        }
        for collection in collections {
            let list = StoreListView(
                collection: collection, store: store, host: host,
                options: .init(itemType: Self.itemType, noun: Noun("reminder"), emptyText: words("No Reminders")))
            list.onStoreChanged = { [weak self] ids in self?.reload(selecting: ids) }
            list.onSelectionChanged = { [weak self] in self?.onChange?() }
            list.onError = { [weak self] message in self?.onError?(message) }
            UI.append(row, list.widget)
            lists.append(list)
        }
    }

    func state() -> StateLine {
        var state = StateLine()
        state.lists = keyed(lists.map { ($0.collection.name, $0.shownTitles) })
        state.selected = keyed(
            lists.map { list in
                (list.collection.name, list.selectedTitles)
            })
        return state
    }

    func layout() -> PaneLayout? {
        var layout = PaneLayout()
        for list in lists {
            guard let frame = list.frame(), frame.height > 0, let rowFrames = list.elementFrames() else { return nil }
            layout.lists.append((list.collection.name, frame))
            layout.rows.append((list.collection.name, rowFrames))
            layout.targets.append((list.collection.name, list.containerID))
        }
        return layout
    }
}
