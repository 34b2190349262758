import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol
import Foundation
import ShowcaseModel

/// Situation 13: the home screen's pages (Home, Page 2, Page 3 from the store) in a
/// ``PagedView`` with its page control (K7). An icon dragged to the right or left edge turns the
/// page after a pause, the edge flashing first (SP1), and drops on the page it reaches: one store
/// transaction and one undo step, as every drop of the home screen. The page shown is a setting
/// (`home.page`), so a relaunch opens it again.
@MainActor
final class HomePagesPane: ShowcasePane {
    let situation = Situation.named("home-pages")!
    let widget: UnsafeMutablePointer<GtkWidget>
    var onChange: (@MainActor () -> Void)?
    var onError: (@MainActor (String) -> Void)?

    private let store: ShowcaseStore
    private unowned let host: GtkDragHost
    private var paged: PagedView?
    private var grids: [StoreGridView] = []
    private var window: TargetID?
    private let column: UnsafeMutablePointer<GtkWidget>
    private var lastHow: PagedView.Navigation?

    init(store: ShowcaseStore, host: GtkDragHost) {
        self.store = store
        self.host = host
        column = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 8)
        gtk_widget_set_vexpand(column, 1)
        widget = column
    }

    func activate(in window: TargetID) {
        self.window = window
        if paged == nil { build() }
        guard let paged else { return }
        do {
            try paged.register(in: window)
            for grid in grids { grid.register(in: paged.id) }
        } catch {
            onError?("\(error)")
        }
        reload()
    }

    func deactivate() {
        for grid in grids { grid.unregister() }
        paged?.unregister()
        window = nil
    }

    func reload() { reload(selecting: nil) }

    private func reload(selecting ids: [ItemID]?) {
        for grid in grids { grid.reload(selecting: ids) }
        onChange?()
    }

    private func build() {
        let pages: [ShowcaseCollection]
        do {
            pages = try store.collections(in: .homeScreen).filter { $0.kind == .grid }
            let paged = try PagedView(id: "home-pages", name: "Home Screen", host: host)
            for page in pages.prefix(PageControl.maximumPages) {
                let grid = StoreGridView(
                    collection: page, store: store, host: host, itemType: HomeScreenPane.itemType, noun: Noun("icon"),
                    columns: 4)
                grid.onStoreChanged = { [weak self] ids in self?.reload(selecting: ids) }
                grid.onSelectionChanged = { [weak self] in self?.onChange?() }
                grid.onError = { [weak self] message in self?.onError?(message) }
                try paged.addPage(grid.widget, title: page.name)
                grids.append(grid)
            }
            let saved = Int((try? store.setting("home.page")) ?? nil ?? "0") ?? 0
            paged.show(page: saved)
            paged.onPageChange = { [weak self] page, how in self?.pageChanged(page, how: how) }
            UI.append(column, paged.widget)
            self.paged = paged
        } catch {
            onError?(words("Could not show the home screen's pages: {reason}", ["reason": "\(error)"]))
        }
    }

    private func pageChanged(_ page: Int, how: PagedView.Navigation) {
        lastHow = how
        do {
            try store.setSettings(["home.page": String(page)])
        } catch {
            onError?(words("Could not save the page shown: {reason}", ["reason": "\(error)"]))
        }
        onChange?()
    }

    func state() -> StateLine {
        var state = StateLine()
        state.lists = keyed(
            grids.map { grid in
                (grid.collection.name, (try? store.items(in: grid.collection.id ?? 0).map(\.title)) ?? [])
            })
        state.selected = keyed(
            grids.map { grid in
                (grid.collection.name, grid.selectedTitles)
            })
        state.page = paged?.currentPage ?? 0
        state.pageTitle = paged.map { $0.pageTitles[$0.currentPage] } ?? ""
        state.pages = paged?.pageCount ?? 0
        state.how = lastHow?.rawValue
        return state
    }

    func layout() -> PaneLayout? {
        guard let paged, let frame = host.frameInWindow(of: paged.id), frame.height > 0,
            let window = gtk_widget_get_root(widget).map({
                UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self)
            }),
            let dots = UI.bounds(of: paged.pageControl.widget, in: window), dots.width > 0
        else { return nil }
        var layout = PaneLayout()
        layout.lists.append(("Pages", frame))
        // The page shown: its grid and tiles (hidden pages have no place on screen).
        let shown = grids[paged.currentPage]
        guard let grid = shown.frame(), grid.height > 0, let tiles = shown.elementFrames() else { return nil }
        layout.lists.append((shown.collection.name, grid))
        layout.rows.append((shown.collection.name, tiles))
        let dotsRect = Rect(x: dots.x, y: dots.y, width: dots.width, height: dots.height)
        layout.lists.append(("Dots", dotsRect))
        layout.rows.append(
            (
                "Dots",
                paged.pageControl.dotCenters().enumerated().map { index, x in
                    (
                        title: "\(index + 1)",
                        frame: Rect(x: dots.x + x - 4, y: dots.y + dots.height / 2 - 4, width: 8, height: 8)
                    )
                }
            ))
        for edge in [PagedView.Edge.previous, .next] {
            let name = edge == .previous ? "Previous Page" : "Next Page"
            if let edgeFrame = host.frameInWindow(of: paged.edgeID(edge)), edgeFrame.height > 0,
                host.engine.registry.target(paged.edgeID(edge))?.isHidden == false
            {
                layout.lists.append((name, edgeFrame))
            }
            layout.targets.append((name, paged.edgeID(edge)))
        }
        for grid in grids { layout.targets.append((grid.collection.name, grid.containerID)) }
        return layout
    }
}
