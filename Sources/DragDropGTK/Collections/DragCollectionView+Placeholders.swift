import CGtk4
import DragDrop

/// Placeholders (A4) in a ``DragCollectionView``: a drop that loads its content later shows one
/// placeholder row per arriving item where it lands, with a progress bar (A5), until the content
/// arrives or fails (A6). Placeholders are rows of the view's model like the items, so they
/// scroll with them and stay at their place while items before them come and go.
///
/// Either the data source returns `.deferred(placeholders:)` from its drop and completes the
/// drop with ``GtkDragHost/completeDeferredDrop(_:with:arrived:)`` itself (a copy of files), or
/// ``defersDrop`` decides, and ``finishDeferredDrop(_:failure:)`` hands the drop to the data
/// source once its content is there.
extension DragCollectionView {
    /// A deferred drop and its placeholders.
    struct PendingDrop {
        let token: DropToken
        /// The arriving items' names (one placeholder each).
        let names: [String]
        /// The item the placeholders follow (nil: the first place); `index` when it left.
        let after: TargetID?
        let index: Int
        /// The drop, when the view finishes it (``finishDeferredDrop(_:failure:)``).
        let drop: DropRequest?
        /// Whether the placeholders show (from the engine's `placeholderInserted` on).
        var shown = false
        var fraction: Double?

        var rowCount: Int { shown ? names.count : 0 }
    }

    /// Decides whether a drop between the items loads its content later: return true to show
    /// placeholders at once, report progress with ``GtkDragHost/updateDeferredDrop(_:progress:)``
    /// and end with ``finishDeferredDrop(_:failure:)``. Nil (the default): the data source
    /// decides (its drop may return `.deferred(placeholders:)` itself).
    public var defersDrop: (@MainActor (DropRequest) -> Bool)? {
        get { deferral }
        set { deferral = newValue }
    }

    /// The deferred drops still loading, oldest first.
    public var pendingDrops: [DropToken] { pending.map(\.token) }

    /// Ends a drop ``defersDrop`` deferred: without `failure` the data source performs it where
    /// the placeholders are (one undo step, a move's removal from its source only now, S4); with
    /// it, the placeholders go away and the host shows the reason (A6). Unknown tokens are
    /// ignored.
    public func finishDeferredDrop(_ token: DropToken, failure: DropFailure? = nil) {
        guard let entry = pending.first(where: { $0.token == token }), let drop = entry.drop else { return }
        if let failure {
            host.completeDeferredDrop(token, with: .failed(failure))
            return
        }
        guard let dataSource else {
            host.completeDeferredDrop(
                token, with: .failed(DropFailure(.failed, Localization.format(.notAvailable, ["name": .name(title)]))))
            return
        }
        let index = min(landing(of: entry, among: nil), dataSource.numberOfItems)
        host.completeDeferredDrop(token, with: dataSource.collectionView(self, perform: drop, at: index))
    }

    /// Records a deferred drop landing at data index `index`.
    func remember(_ drop: DropRequest, at index: Int, finishedByView: Bool) {
        let after = index > 0 ? dataSource?.itemID(at: index - 1) : nil
        pending.append(
            PendingDrop(
                token: drop.token, names: drop.items.map(\.name), after: after, index: index,
                drop: finishedByView ? drop : nil))
    }

    /// Where a pending drop lands now among the items `ids` (the data source's, when nil).
    func landing(of entry: PendingDrop, among ids: [TargetID]?) -> Int {
        guard let after = entry.after else { return 0 }
        if let ids {
            if let i = ids.firstIndex(of: after) { return i + 1 }
            return min(entry.index, ids.count)
        }
        if let i = dataIndex(of: after) { return i + 1 }
        return min(entry.index, itemCount)
    }

    /// The placeholder rows to show, each group with the data index it goes before, in order.
    func placeholderPlacement(in ids: [TargetID]) -> [(index: Int, rows: [Row])] {
        pending.enumerated().filter { $0.element.shown }
            .map { order, entry in
                let rows = entry.names.indices.map { k in
                    Row(id: Self.placeholderID(entry.token, k), placeholder: entry.token, arriving: k)
                }
                return (landing(of: entry, among: ids), order, rows)
            }
            .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
            .map { (index: $0.0, rows: $0.2) }
    }

    /// A placeholder row's identifier (never an item's: it starts with a NUL).
    static func placeholderID(_ token: DropToken, _ k: Int) -> TargetID { TargetID("\u{0}placeholder-\(token)-\(k)") }

    /// The engine inserted, advanced, resolved or failed the placeholders of a deferred drop:
    /// the placeholder rows show, move their progress bars (A5) or go (A6).
    public func dragHost(
        _ host: GtkDragHost, placeholder token: DropToken, in container: TargetID, changed: PlaceholderChange
    ) {
        guard let i = pending.firstIndex(where: { $0.token == token }) else { return }
        switch changed {
        case .inserted:
            pending[i].shown = true
            insertPlaceholderRows(of: pending[i])
        case .progress(let fraction):
            pending[i].fraction = fraction
            for cell in cells.values {
                guard let position = cell.position, position < rows.count, rows[position].placeholder == token else {
                    continue
                }
                cell.setProgress(fraction)
            }
        case .resolved, .failed:
            removePlaceholderRows(ofPendingDrop: i)
        }
    }
}
