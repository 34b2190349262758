import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol
import ShowcaseModel

/// One page of the showcase: the widgets of one situation and the model behind them.
///
/// A pane registers its drag sources and destinations only while it is shown (``activate(in:)``
/// and ``deactivate()``), so the pages hidden in the stack are never hit by a drag. Panes built
/// on new widgets (grids, text views, segmented controls) plug in the same way.
@MainActor
protocol ShowcasePane: AnyObject {
    /// The situation the pane reproduces.
    var situation: Situation { get }
    /// The pane's content, put below its title and summary.
    var widget: UnsafeMutablePointer<GtkWidget> { get }
    /// Called after the pane's content changed (a drop, an undo), for the tour's state lines.
    var onChange: (@MainActor () -> Void)? { get set }
    /// Called with a sentence for the status line when something the person did or should know
    /// about went wrong (a folder that could not be read, a file another app left).
    var onError: (@MainActor (String) -> Void)? { get set }
    /// Reads the store and registers the pane's targets inside the window target `window`.
    func activate(in window: TargetID)
    /// Unregisters the pane's targets (another pane is shown).
    func deactivate()
    /// Reads the store again (after an undo or redo).
    func reload()
    /// The pane's content for the tour (`lists`, `selected` and the pane's own fields); the
    /// window adds the pane's slug and the undo and redo titles.
    func state() -> StateLine
    /// The frames the tour points at, in window coordinates; nil while not laid out.
    func layout() -> PaneLayout?
}

/// Where a pane's lists and rows are, in window coordinates, for the tour.
struct PaneLayout {
    /// Containers by name.
    var lists: [(String, Rect)] = []
    /// Each list's rows, in order, with their titles.
    var rows: [(String, [(title: String, frame: Rect)])] = []
    /// The drop destinations' target ids by name (`"Home": "collection-9"`), to match the
    /// engine's events.
    var targets: [(String, TargetID)] = []
}

/// A page for a situation whose widgets are not built yet: says what it will show. The tour
/// reports these as pending, never as passing.
@MainActor
final class PendingPane: ShowcasePane {
    let situation: Situation
    let widget: UnsafeMutablePointer<GtkWidget>
    var onChange: (@MainActor () -> Void)?
    var onError: (@MainActor (String) -> Void)?

    init(_ situation: Situation) {
        self.situation = situation
        let box = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 8)
        UI.append(box, UI.label(situation.pending ?? "", selectable: true, wrap: true, css: ["sc-pending"]))
        widget = box
    }

    func activate(in window: TargetID) {}
    func deactivate() {}
    func reload() {}
    func state() -> StateLine {
        var state = StateLine()
        state.pending = situation.pending ?? ""
        return state
    }
    func layout() -> PaneLayout? { PaneLayout() }
}

/// A dictionary of `pairs` for a tour line; a name given twice keeps its last value (as a JSON
/// object read back does).
func keyed<Value>(_ pairs: [(String, Value)]) -> [String: Value] {
    Dictionary(pairs) { _, last in last }
}

/// Puts each collection in a state line: its titles in `lists`, or, past
/// ``stateListLimit`` items (All Mail, the photo Library with the big data), its count in
/// `counts` (a tour line stays small; tests read big collections from the store).
func addCollections(
    _ collections: [ShowcaseCollection], of store: ShowcaseStore, to state: inout StateLine,
    counts known: [CollectionID: Int]? = nil
) {
    var lists: [(String, [String])] = []
    var counts: [(String, Int)] = []
    for collection in collections {
        // Counts read already (absent: empty) spare a query per collection.
        let count = known.map { $0[collection.id ?? 0] ?? 0 } ?? (try? store.itemCount(in: collection.id ?? 0)) ?? 0
        if count == 0 {
            lists.append((collection.name, []))
            continue
        }
        if count > stateListLimit {
            counts.append((collection.name, count))
        } else {
            lists.append((collection.name, (try? store.items(in: collection.id ?? 0).map(\.title)) ?? []))
        }
    }
    state.lists = keyed(lists)
    if !counts.isEmpty { state.counts = keyed(counts) }
}

/// The most items a state line lists by title.
let stateListLimit = 1_000
