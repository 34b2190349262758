import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol
import ShowcaseModel

/// Situation 4: the home screen. A grid of app icons with a folder; several selected icons
/// dragged onto the folder move into it in one drop (M1, M3); the folder springs open while
/// icons hover over it (SP1) and opens with a double click (SP2), showing its contents below
/// the grid. Every drop is one store transaction and one undo step (S4, U1).
@MainActor
final class HomeScreenPane: ShowcasePane {
    static let itemType: ContentType = "application/x-showcase-icon"

    let situation = Situation.named("home-screen")!
    let widget: UnsafeMutablePointer<GtkWidget>
    var onChange: (@MainActor () -> Void)?
    var onError: (@MainActor (String) -> Void)?

    private let store: ShowcaseStore
    private unowned let host: GtkDragHost
    private var home: StoreGridView?
    private var folder: StoreGridView?
    private var window: TargetID?
    /// The folder shown below the grid, by name (nil: none opened yet).
    private(set) var opened: String?
    private let column: UnsafeMutablePointer<GtkWidget>

    init(store: ShowcaseStore, host: GtkDragHost) {
        self.store = store
        self.host = host
        column = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 18)
        gtk_widget_set_vexpand(column, 1)
        widget = column
    }

    func activate(in window: TargetID) {
        self.window = window
        if home == nil { build() }
        home?.register(in: window)
        folder?.register(in: window)
        reload()
    }

    func deactivate() {
        home?.unregister()
        folder?.unregister()
        window = nil
    }

    func reload() { reload(selecting: nil) }

    private func reload(selecting ids: [ItemID]?) {
        let grids = [home, folder].compactMap { $0 }
        for grid in grids { grid.reload(selecting: ids) }
        onChange?()
    }

    private func build() {
        let collections: [ShowcaseCollection]
        do {
            collections = try store.collections(in: .homeScreen)
        } catch {
            onError?(Sentence.explaining(words("Could not read the home screen"), error))
            return
        }
        guard let page = collections.first(where: { $0.kind == .grid }) else { return }
        home = makeGrid(page)
        UI.append(column, home!.widget)
    }

    private func makeGrid(_ collection: ShowcaseCollection) -> StoreGridView {
        let grid = StoreGridView(
            collection: collection, store: store, host: host, itemType: Self.itemType, noun: Noun("icon"))
        grid.onStoreChanged = { [weak self] ids in self?.reload(selecting: ids) }
        grid.onSelectionChanged = { [weak self] in self?.onChange?() }
        grid.onError = { [weak self] message in self?.onError?(message) }
        grid.onOpenFolder = { [weak self] item, duringDrag in
            // Inside an engine call while dragging: change targets after it returns.
            guard let self else { return }
            self.host.scheduleUpdate(key: self) { [weak self] in self?.open(item) }
        }
        return grid
    }

    /// Shows the folder's contents below the grid (a drop can continue into it).
    private func open(_ item: ShowcaseItem) {
        guard let payload = item.payload(as: FolderPayload.self),
            let collection = try? store.collections(in: .homeScreen).first(where: { $0.id == payload.opens })
        else { return }
        if let folder {
            if folder.collection.id != collection.id { folder.show(collection) }
        } else {
            let grid = makeGrid(collection)
            UI.append(column, grid.widget)
            folder = grid
            if let window { grid.register(in: window) }
        }
        opened = collection.name
        onChange?()
    }

    func state() -> StateLine {
        var state = StateLine()
        let collections = (try? store.collections(in: .homeScreen)) ?? []
        state.lists = keyed(
            collections.map { ($0.name, (try? store.items(in: $0.id ?? 0).map(\.title)) ?? []) })
        state.selected = keyed(
            [home, folder].compactMap { $0 }.map { grid in
                (grid.collection.name, grid.selectedTitles)
            })
        state.opened = opened
        return state
    }

    func layout() -> PaneLayout? {
        var layout = PaneLayout()
        for grid in [home, folder].compactMap({ $0 }) {
            guard let frame = grid.frame(), frame.height > 0, let tiles = grid.elementFrames() else { return nil }
            layout.lists.append((grid.collection.name, frame))
            layout.rows.append((grid.collection.name, tiles))
            layout.targets.append((grid.collection.name, grid.containerID))
            for item in grid.items where item.kind == .folder { layout.targets.append((item.title, item.targetID)) }
        }
        return layout
    }
}
