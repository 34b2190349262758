import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol

// `--scene collection`: two virtualized collections (DragCollectionView) side by side over
// in-memory data sources: "archive" with `--count N` items (default 100,000; `--grid` makes it a
// grid of tiles, every 1,000th a folder) and "inbox" with three rows. With `--slow-inbox` the
// inbox defers drops and loads them over about 2 s (placeholders with progress, A4).
//
//   {"kind":"collection","id":…,"count":…,"head":[…],"tail":[…],"others":{title:index},
//    "selectedCount":…,"selectedHead":[…],"offset":…,"folders":{title:count},"placeholders":…}
//   {"kind":"layout","frames":{"archive":…,"inbox":…,"archive/File 3":…,…}}   rows on screen
//   {"kind":"folderOpened","folder":…,"duringDrag":…}
@MainActor
final class CollectionScene: FixtureScene {
    let arguments: [String]
    var scene: SceneWindow?
    var views: [DragCollectionView] = []
    var sources: [ArrayCollection] = []
    let printer = ChangedLineWriter()
    var announcedReady = false

    init(arguments: [String]) { self.arguments = arguments }

    func activate(_ app: UnsafeMutablePointer<GtkApplication>) {
        guard let scene = SceneWindow(app: app, arguments: arguments) else { return }
        self.scene = scene
        let host = scene.host
        var count = 100_000
        if let i = arguments.firstIndex(of: "--count"), i + 1 < arguments.count, let n = Int(arguments[i + 1]) {
            count = n
        }
        let grid = arguments.contains("--grid")
        let row = SceneWindow.paddedBox(GTK_ORIENTATION_HORIZONTAL, spacing: 24)
        gtk_box_set_homogeneous(dd_box(UnsafeMutableRawPointer(row)), 1)
        let type: ContentType = "application/x-fixture-file"

        let archiveItems = (0..<count).map { i in
            ArrayCollection.Item(
                id: TargetID("a\(i)"), title: grid && i % 1_000 == 5 ? "Album \(i / 1_000)" : "File \(i)",
                folder: grid && i % 1_000 == 5 ? [] : nil)
        }
        var archiveOptions = DragCollectionView.Options(itemType: type, kind: Noun("file"))
        archiveOptions.layout = grid ? .grid(columns: 4) : .list
        archiveOptions.operationPolicy = .preferMove
        let archive = DragCollectionView(id: "archive", title: "Archive", host: host, options: archiveOptions)
        var inboxOptions = DragCollectionView.Options(itemType: type, kind: Noun("file"))
        inboxOptions.operationPolicy = .preferMove
        let inbox = DragCollectionView(id: "inbox", title: "Inbox", host: host, options: inboxOptions)
        let inboxItems = ["Lunch", "Report", "Slides"].enumerated().map {
            ArrayCollection.Item(id: TargetID("i\($0.offset)"), title: $0.element, folder: nil)
        }
        for (view, items) in [(archive, archiveItems), (inbox, inboxItems)] {
            let source = ArrayCollection(items: items, prefix: view.id.rawValue)
            view.dataSource = source
            view.editing = .init(cutAndPaste: true, delete: true)
            view.reloadData()
            view.onChange = { [weak self, weak view] in
                guard let view else { return }
                self?.noteChange(in: view, selectionOnly: false)
            }
            view.onSelectionChanged = { [weak self, weak view] in
                guard let view else { return }
                self?.noteChange(in: view, selectionOnly: true)
            }
            source.onOpenFolder = { title, duringDrag in
                LineWriter.write(FolderOpenedLine(folder: title, duringDrag: duringDrag))
            }
            sources.append(source)
            views.append(view)
            gtk_box_append(dd_box(UnsafeMutableRawPointer(row)), view.widget)
        }
        if arguments.contains("--slow-inbox") {
            inbox.defersDrop = { [weak self, weak inbox] drop in
                guard let self, let inbox else { return false }
                self.loadSlowly(drop, into: inbox)
                return true
            }
        }
        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        gtk_box_append(dd_box(UnsafeMutableRawPointer(column)), row)
        gtk_widget_set_vexpand(row, 1)
        let status = GtkAnnouncementLabel()
        gtk_box_append(dd_box(UnsafeMutableRawPointer(column)), status.widget)
        gtk_window_set_child(dd_window(scene.window), column)
        host.addAnnouncementLabel(status)
        host.onFramesChanged = { [weak self] in self?.printLayout() }
        statusLabel = status
        scene.present(app) { () throws(GtkDragHostError) in
            try archive.register(in: scene.windowID)
            try inbox.register(in: scene.windowID)
        }
        printState()
        tick()
    }

    var statusLabel: GtkAnnouncementLabel?

    /// Reports the state a few times a second while the offsets change (autoscroll, the wheel).
    private func tick() {
        printState()
        GLibSource.once(afterMilliseconds: 100) { [weak self] in self?.tick() }
    }

    /// Loads a deferred inbox drop over 2 s in 8 steps, then lets it arrive.
    func loadSlowly(_ drop: DropRequest, into view: DragCollectionView) {
        let token = drop.token
        var step = 0
        func next() {
            GLibSource.once(afterMilliseconds: 250) { [weak self, weak view] in
                guard let self, let view, let host = self.scene?.host else { return }
                step += 1
                host.updateDeferredDrop(token, progress: Double(step) / 8)
                if step == 8 {
                    view.finishDeferredDrop(token)
                } else {
                    next()
                }
            }
        }
        next()
    }

    /// Each view's line as last worked out: the parts read from the items and the selection are
    /// worked out again only after a change to them (``dataChanged`` / ``selectionChanged``),
    /// so the tick and a paint cost what the rows on screen cost, not what 100,000 items cost.
    private var summaries: [TargetID: CollectionLine] = [:]
    private var dataChanged: Set<TargetID> = []
    private var selectionChanged: Set<TargetID> = []

    func printState() {
        for (view, source) in zip(views, sources) {
            let id = view.id
            var line =
                summaries[id]
                ?? CollectionLine(
                    id: id.rawValue, count: 0, head: [], tail: [], others: [:], selectedCount: 0, selectedHead: [],
                    offset: 0, folders: [:], placeholders: 0)
            if summaries[id] == nil || dataChanged.contains(id) {
                source.summarize(into: &line)
                dataChanged.remove(id)
                selectionChanged.insert(id)  // the selected titles may have moved
            }
            if selectionChanged.remove(id) != nil {
                line.selectedCount = view.selectionCount
                line.selectedHead = view.selectedIndexes(limit: 5).filter { $0 < source.numberOfItems }.map(
                    source.title(at:))
            }
            line.offset = view.verticalOffset.rounded()
            line.placeholders = view.pendingDrops.count
            line.misplacedRows =
                view.boundItems.filter { index, id in
                    index >= source.numberOfItems || source.itemID(at: index) != id
                }.count
            summaries[id] = line
            printer.write(line, key: id.rawValue)
        }
    }

    /// Marks `view`'s items (and with them its selection's titles) to be read again.
    func noteChange(in view: DragCollectionView, selectionOnly: Bool) {
        if selectionOnly { selectionChanged.insert(view.id) } else { dataChanged.insert(view.id) }
        printState()
    }

    func printLayout() {
        guard let host = scene?.host else { return }
        var frames: [(String, Frame)] = []
        var rows = 0
        for (view, source) in zip(views, sources) {
            if let frame = host.frameInWindow(of: view.id) { frames.append((view.id.rawValue, Frame(frame))) }
            let registry = host.engine.registry
            // The rows with a widget (a screenful), by their data source index.
            for (index, id) in view.boundItems.sorted(by: { $0.index < $1.index })
            where registry.isShown(id) && index < source.numberOfItems {
                guard let frame = host.frameInWindow(of: id), frame.height > 0 else { continue }
                frames.append(("\(view.id.rawValue)/\(source.title(at: index))", Frame(frame)))
                rows += 1
            }
        }
        printer.write(LayoutLine(frames: frames))
        if rows > 0, !announcedReady {
            announcedReady = true
            LineWriter.write(ReadyLine())
        }
    }
}

/// An array of items behind a collection view: drops insert (arrivals get fresh identifiers),
/// moves remove, edits delete and insert, every change an undo step.
@MainActor
final class ArrayCollection: DragCollectionDataSource {
    struct Item {
        var id: TargetID
        var title: String
        var folder: [String]?
    }

    private(set) var items: [Item]
    private let prefix: String
    private var next = 0
    var onOpenFolder: (@MainActor (String, Bool) -> Void)?

    init(items: [Item], prefix: String) {
        self.items = items
        self.prefix = prefix
    }

    var numberOfItems: Int { items.count }
    func itemID(at index: Int) -> TargetID { items[index].id }
    func title(at index: Int) -> String { items[index].title }
    func detail(at index: Int) -> String? { items[index].folder.map { "Folder · \($0.count)" } }
    func isFolder(at index: Int) -> Bool { items[index].folder != nil }

    private func newID() -> TargetID {
        next += 1
        return TargetID("\(prefix).n\(next)")
    }

    /// Replaces the items and tells the view what changed: `changes` when the caller knows them
    /// (a drop inserts at its index), else worked out from the identifiers (an undo).
    private func set(
        _ new: [Item], in view: DragCollectionView?, selecting: [TargetID]? = nil,
        changes: [DragCollectionView.Change]? = nil
    ) {
        let old = items
        items = new
        view?.applyChanges(
            changes ?? DragCollectionView.changes(from: old.map(\.id), to: new.map(\.id)), selecting: selecting)
    }

    func collectionView(_ view: DragCollectionView, perform drop: DropRequest, at index: Int) -> DropResult {
        let before = items
        let arriving = drop.items.map { Item(id: newID(), title: $0.name, folder: nil) }
        var after = items
        let at = min(index, after.count)
        after.insert(contentsOf: arriving, at: at)
        let selecting = arriving.map(\.id)
        set(after, in: view, selecting: selecting, changes: [.insert(arriving.count, at: at)])
        return .committed(
            undo: UndoableAction(
                undo: { [weak self, weak view] in self?.set(before, in: view, selecting: []) },
                redo: { [weak self, weak view] in self?.set(after, in: view, selecting: selecting) }))
    }

    func collectionView(_ view: DragCollectionView, perform drop: DropRequest, intoFolderAt index: Int)
        -> DropResult
    {
        let before = items
        var after = items
        after[index].folder?.append(contentsOf: drop.items.map(\.name))
        // The folder's row shows its new count: the item is replaced in place.
        set(after, in: view, changes: [DragCollectionView.Change(index: index, removed: 1, inserted: 1)])
        return .committed(
            undo: UndoableAction(
                undo: { [weak self, weak view] in self?.set(before, in: view) },
                redo: { [weak self, weak view] in self?.set(after, in: view) }))
    }

    func collectionView(_ view: DragCollectionView, removeMovedItems moved: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    {
        let ids = Set(moved.map(\.id))
        let before = items
        let kept = items.filter { !ids.contains($0.id) }
        guard kept.count != before.count else { return nil }
        set(kept, in: view)
        return UndoableAction(
            undo: { [weak self, weak view] in self?.set(before, in: view, selecting: []) },
            redo: { [weak self, weak view] in self?.set(kept, in: view, selecting: []) })
    }

    func collectionView(_ view: DragCollectionView, deleteItems ids: [TargetID]) -> (
        name: String, action: UndoableAction
    )? {
        let doomed = Set(ids)
        let before = items
        let after = items.filter { !doomed.contains($0.id) }
        set(after, in: view, selecting: [])
        return (
            "Delete \(Noun("file").counted(ids.count).capitalizedFirstWord)",
            UndoableAction(
                undo: { [weak self, weak view] in self?.set(before, in: view, selecting: ids) },
                redo: { [weak self, weak view] in self?.set(after, in: view, selecting: []) })
        )
    }

    func collectionView(_ view: DragCollectionView, insertTitles titles: [String], at index: Int) -> (
        ids: [TargetID], name: String, action: UndoableAction
    )? {
        let before = items
        let arriving = titles.map { Item(id: newID(), title: $0, folder: nil) }
        var after = items
        after.insert(contentsOf: arriving, at: min(index, after.count))
        set(after, in: view, selecting: arriving.map(\.id))
        let ids = arriving.map(\.id)
        return (
            ids, "Paste",
            UndoableAction(
                undo: { [weak self, weak view] in self?.set(before, in: view, selecting: []) },
                redo: { [weak self, weak view] in self?.set(after, in: view, selecting: ids) })
        )
    }

    func collectionView(_ view: DragCollectionView, openFolderAt index: Int, duringDrag: Bool) {
        onOpenFolder?(items[index].title, duringDrag)
    }

    /// Fills the parts of `line` read from the items, in one pass over them (after a change).
    func summarize(into line: inout CollectionLine) {
        line.count = items.count
        line.head = items.prefix(8).map(\.title)
        line.tail = items.suffix(3).map(\.title)
        var others: [String: Int] = [:]
        var folders: [String: Int] = [:]
        var othersSeen = 0
        for (index, item) in items.enumerated() {
            if othersSeen >= 50, folders.count >= 20 { break }
            if othersSeen < 50, !(item.title.hasPrefix("File ") || item.title.hasPrefix("Album ")) {
                othersSeen += 1
                if others[item.title] == nil { others[item.title] = index }
            }
            if let folder = item.folder, folders.count < 20, folders[item.title] == nil {
                folders[item.title] = folder.count
            }
        }
        line.others = others
        line.folders = folders
    }
}

extension String {
    fileprivate var capitalizedFirstWord: String { prefix(1).uppercased() + dropFirst() }
}
