import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol
import Foundation
import ShowcaseModel

/// Situation 8: real folders on disk (`FilesLibrary`, under the data directory's `Files`), one
/// column each, listing their files by name in a virtualized ``DragCollectionView`` (only the
/// rows on screen have widgets: the Archive's 100,000 files, made on first run with
/// `--big-data on`, scroll and take drops like a folder of ten).
///
/// - Operation (S2, the guidelines' default, `.automatic`): a file dragged to another folder is
///   **copied**; Shift forces a move (one atomic rename), Ctrl a copy. Dropped back on its own
///   folder a move changes nothing (the folder is sorted by name) and a Ctrl-copy makes
///   "name 2.ext".
/// - Copies and imports are asynchronous: the drop is deferred, the destination shows a
///   placeholder row with a progress bar per arriving item until the copy is complete (A4), and a failure
///   leaves the folder as it was and says why (A6).
/// - The write-only Drop Box asks for confirmation first (the host's sheet, U2): Cancel changes
///   nothing; its content cannot be listed, so its column says so instead.
/// - Files from other apps (`text/uri-list`) are copied in with `importDropped(uriList:)`
///   (regular files only, no links followed, names sanitized, never replacing). An image from a
///   browser (its address and bytes, no file list) is taken by ``ImageIntake`` (downloaded, or its
///   bytes) and saved under the name it came with (`importContent`), as XDS would save it.
/// - Every drop but one into the Drop Box is one undo step.
@MainActor
final class FilesPane: ShowcasePane {
    static let fileType: ContentType = "application/x-showcase-file"
    /// Images from browsers, in the forms they offer them (an address, bytes), saved as files:
    /// any image format ``ImageFormat`` recognises (GIF and WebP too), never decoded here, so
    /// without ``DroppedImage``'s checks (``ImageIntake/gdk(images:limit:fetcher:)`` is for
    /// destinations that show pictures, and refused every GIF). Not HTML: a text drag must not
    /// highlight a folder.
    static let imageIntake = ImageIntake(images: ["image/*"], fetcher: WebFetcher())
    /// What a folder takes: its own files, file lists, and images from browsers.
    /// Files (this app's, or another app's as a URI list), a browser's image (its address or its
    /// bytes), else text, kept as a new file.
    static let acceptedTypes: [ContentType] = [
        fileType, .uriList, ImageIntake.mozURL, .octetStream, .utf8PlainText, .plainText,
    ]
    static let dropBoxQuestion =
        "Drop Box is write-only: you will not be able to see or take back what you put there."

    let situation = Situation.named("files")!
    let widget: UnsafeMutablePointer<GtkWidget>
    var onChange: (@MainActor () -> Void)?
    var onError: (@MainActor (String) -> Void)?

    /// One folder: a ``DragCollectionView`` over its listing (the view does the rows, selection
    /// and several-item drags, M1; autoscroll, A1; placeholders with progress, A4; the edit
    /// menu and keyboard dragging, C4), and this is its data source: the folder's files, sorted,
    /// read once off the main loop and read again only after a change.
    @MainActor
    fileprivate final class Column: DragCollectionDataSource {
        let folder: FilesFolder
        unowned let pane: FilesPane
        let box: UnsafeMutablePointer<GtkWidget>
        var view: DragCollectionView!
        /// The files, in listing order, their target ids (made off the main loop with the
        /// listing: the view reads every id when it reloads) and their sort keys.
        var names: [String] = []
        var ids: [TargetID] = []
        var keys: [String] = []
        /// Files being copied in (their placeholders are the view's rows).
        var copying: [String] = []

        init(folder: FilesFolder, pane: FilesPane) {
            self.folder = folder
            self.pane = pane
            box = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        }

        var numberOfItems: Int { names.count }
        func itemID(at index: Int) -> TargetID { index >= 0 && index < ids.count ? ids[index] : folder.targetID }
        func title(at index: Int) -> String { index >= 0 && index < names.count ? names[index] : "" }

        /// Every drop lands in the folder, in its sorted place, whatever the index.
        func collectionView(_ view: DragCollectionView, perform drop: DropRequest, at index: Int) -> DropResult {
            pane.perform(drop)
        }

        func collectionView(_ view: DragCollectionView, itemProviderAt index: Int) -> ItemProvider? {
            pane.provider(for: itemID(at: index))
        }

        /// Another app (a file manager) moved files out of this folder, as the person asked with
        /// Shift (S2): they leave the listing, which follows the disk (a file the other app
        /// has not moved after all shows again, ``FilesPane/filesMoved(_:from:app:)``).
        func collectionView(_ view: DragCollectionView, itemsMovedToOtherApp items: [DragItem], app: AppID?)
            -> [TargetID]
        {
            pane.filesMoved(items.map(\.id), from: self, app: app)
        }

        /// Where `name` is or would be, by its key.
        private func place(of name: String) -> (index: Int, found: Bool) {
            let key = FilesLibrary.listingKey(name)
            var low = 0
            var high = keys.count
            while low < high {
                let mid = (low + high) / 2
                if keys[mid] < key { low = mid + 1 } else { high = mid }
            }
            return (low, low < names.count && names[low] == name)
        }

        /// Counts the changes to the listing, so a listing made off the main loop is known to
        /// be of the files shown.
        var version = 0

        /// Puts files that arrived at their places, without listing the folder again; returns
        /// the changes for the view, left to right.
        func insert(_ arrived: [String]) -> [DragCollectionView.Change] {
            var added: Set<String> = []
            for name in arrived {
                let (index, found) = place(of: name)
                guard !found else { continue }
                names.insert(name, at: index)
                ids.insert(folder.fileTargetID(name), at: index)
                keys.insert(FilesLibrary.listingKey(name), at: index)
                added.insert(name)
            }
            version += 1
            // Where the new files are now, in order: runs of them are one change each.
            let places = added.map { place(of: $0).index }.sorted()
            return Self.runs(places).map { DragCollectionView.Change.insert($0.count, at: $0.start) }
        }

        /// Takes out files that left, without listing the folder again; returns the changes for
        /// the view, left to right.
        func remove(_ left: [String]) -> [DragCollectionView.Change] {
            var places: [Int] = []
            for name in Set(left) {
                let (index, found) = place(of: name)
                if found { places.append(index) }
            }
            places.sort()
            for index in places.reversed() {
                names.remove(at: index)
                ids.remove(at: index)
                keys.remove(at: index)
            }
            version += 1
            // Each run's place in the listing once the runs before it are gone.
            var gone = 0
            return Self.runs(places).map { run in
                defer { gone += run.count }
                return DragCollectionView.Change.remove(run.count, at: run.start - gone)
            }
        }

        /// Sorted indexes as runs of consecutive ones.
        private static func runs(_ sorted: [Int]) -> [(start: Int, count: Int)] {
            var result: [(start: Int, count: Int)] = []
            for index in sorted {
                if let last = result.last, last.start + last.count == index {
                    result[result.count - 1].count += 1
                } else {
                    result.append((index, 1))
                }
            }
            return result
        }

        /// A move renamed the files: nothing is left to take out of the source.
        func collectionView(_ view: DragCollectionView, removeMovedItems items: [DragItem], after drop: DropRequest)
            -> UndoableAction?
        { nil }
    }

    private let library: FilesLibrary?
    private unowned let host: GtkDragHost
    private var columns: [Column] = []
    /// Every folder with the folders inside it (T1): folders move into folders on disk.
    private var tree: FolderTree?
    private var window: TargetID?
    private let row: UnsafeMutablePointer<GtkWidget>
    /// Whether the Archive (100,000 generated files) is wanted.
    private let bigData: Bool

    init(store: ShowcaseStore, host: GtkDragHost, bigData: Bool = false) {
        self.host = host
        self.bigData = bigData
        // The folder tree, then the folders' columns, sharing the rest of the width equally.
        widget = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        gtk_widget_set_vexpand(widget, 1)
        row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 18)
        gtk_box_set_homogeneous(dd_box(UnsafeMutableRawPointer(row)), 1)
        gtk_widget_set_hexpand(row, 1)
        let root = URL(fileURLWithPath: store.path).deletingLastPathComponent().appendingPathComponent("Files")
        do {
            library = try FilesLibrary(
                root: root, store: store, extraFolders: bigData ? [.init(name: FilesArchive.folderName)] : [])
        } catch {
            library = nil
            UI.append(
                row,
                UI.label(
                    words("Could not open the folders at {path}: {reason}", ["path": root.path, "reason": "\(error)"]),
                    selectable: true, wrap: true))
            return
        }
        guard let library else {
            UI.append(widget, row)
            return
        }
        buildTree(library)
        UI.append(widget, row)
        let archive = bigData ? library.folders.first { $0.name == FilesArchive.folderName } : nil
        let making = archive.map { !FilesArchive.isGenerated(in: library, folder: $0) } ?? false
        for folder in library.folders { buildColumn(folder, making: making && folder == archive) }
        if making, let archive { generateArchive(archive, in: library) }
    }

    /// The folder tree, left of the columns.
    private func buildTree(_ library: FilesLibrary) {
        let tree = FolderTree(library: library, host: host)
        tree.dropOnColumn = { [weak self] drop in
            self?.perform(drop) ?? .failed(DropFailure(.failed, words("The folders are not available.")))
        }
        tree.onFilesChanged = { [weak self] in self?.reload() }
        tree.onChange = { [weak self] in self?.onChange?() }
        let box = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        UI.append(box, UI.label(words("Folders"), selectable: true, css: ["sc-list-title"]))
        gtk_widget_set_vexpand(tree.view.widget, 1)
        // A sidebar's width; the columns share the rest.
        gtk_widget_set_size_request(box, 170, -1)
        gtk_widget_set_hexpand(box, 0)
        UI.append(box, tree.view.widget)
        UI.append(widget, box)
        self.tree = tree
    }

    /// `making`: the folder's files are being made (the Archive on first run).
    private func buildColumn(_ folder: FilesFolder, making: Bool) {
        let column = Column(folder: folder, pane: self)
        UI.append(column.box, UI.label(folder.name, selectable: true, css: ["sc-list-title"]))
        var options = DragCollectionView.Options(itemType: Self.fileType, kind: Noun("file"))
        options.extraOffers = [.uriList]
        options.extraAccepts = Array(Self.acceptedTypes.dropFirst())
        options.operationPolicy = .automatic
        // Another app's files move in with Shift: renamed into place, renamed back on undo.
        options.takesMovesFromOtherApps = !folder.writeOnly
        options.showsHeading = false
        options.draggable = !folder.writeOnly
        options.confirmation = folder.requiresConfirmation ? Self.dropBoxQuestion : nil
        options.emptyText =
            folder.writeOnly ? "Write-only: drop files here." : making ? "Making 100,000 files…" : "No files."
        let view = DragCollectionView(id: folder.targetID, title: folder.name, host: host, options: options)
        view.dataSource = column
        view.onSelectionChanged = { [weak self] in self?.onChange?() }
        if folder.writeOnly {
            gtk_widget_set_tooltip_text(
                view.widget, "Drop files here to hand them in. You cannot see them afterwards.")
        }
        column.view = view
        UI.append(column.box, view.widget)
        UI.append(row, column.box)
        columns.append(column)
    }

    /// Makes the Archive's 100,000 files off the main loop the first time (the window shows at
    /// once; the folder lists them when they are all there).
    private func generateArchive(_ archive: FilesFolder, in library: FilesLibrary) {
        Task.detached(priority: .utility) { [weak self] in
            let clock = ContinuousClock()
            let start = clock.now
            let result = Result { () throws(FilesError) in try FilesArchive.generate(in: library, folder: archive) }
            let seconds = (clock.now - start) / .seconds(1)
            await MainActor.run { [weak self] in
                guard let self else { return }
                switch result {
                case .success:
                    FileHandle.standardError.write(
                        Data("showcase: generated the Archive's files in \(String(format: "%.2f", seconds)) s\n".utf8))
                case .failure(let error):
                    self.onError?(Sentence.explaining(words("Could not make the Archive"), error))
                }
                self.reload(only: [archive], selecting: [:])
            }
        }
    }

    // MARK: ShowcasePane

    func activate(in window: TargetID) {
        self.window = window
        if let tree {
            do { try tree.view.collection.register(in: window) } catch { onError?("\(error)") }
            tree.rebuild()
        }
        for column in columns {
            do { try column.view.register(in: window) } catch { onError?("\(error)") }
            // Never listed: its column says what it is (the view's empty text).
            if column.folder.writeOnly { column.view.reloadData() }
        }
        reload()
    }

    func deactivate() {
        tree?.view.collection.unregister()
        for column in columns { column.view.unregister() }
        window = nil
    }

    /// Reads every folder again and shows what changed (after an undo or a redo).
    func reload() {
        tree?.rebuild()
        reload(selecting: [:])
    }

    /// Numbers each folder's listings, so only its newest one is shown.
    private var listing = 0
    private var newestListing: [String: Int] = [:]

    /// Lists the folders `only` names (all of them when nil) off the main loop (reading and
    /// sorting the Archive's 100,000 names takes a while), then shows what changed: the views
    /// splice only the rows that differ. A drop lists only the folders it changed.
    private func reload(only: [FilesFolder]? = nil, selecting: [String: [String]]) {
        guard let library else { return }
        listing += 1
        let generation = listing
        let paths = only.map { Set($0.map(\.path)) }
        let listed = columns.filter { !$0.folder.writeOnly && paths?.contains($0.folder.path) != false }
        let folders = listed.map(\.folder)
        // The ids shown now: the new listing reuses them for the files still there, so the
        // view's comparison of 100,000 ids compares the same strings (a pointer, not the bytes).
        let shown = listed.map { Listing(names: $0.names, ids: $0.ids, keys: [], changes: [], version: $0.version) }
        for folder in folders {
            newestListing[folder.path] = generation
            listingInFlight.insert(folder.path)
        }
        Task.detached(priority: .userInitiated) { [weak self] in
            var listings: [String: Result<Listing, FilesError>] = [:]
            for (folder, old) in zip(folders, shown) {
                do throws(FilesError) {
                    let (names, keys) = try library.files(of: folder)
                    let known = Dictionary(zip(old.names, old.ids), uniquingKeysWith: { first, _ in first })
                    let ids = names.map { known[$0] ?? folder.fileTargetID($0) }
                    // What changed from the files shown, worked out here: the main loop only
                    // splices the rows that changed (comparing 100,000 ids there held it).
                    let changes = DragCollectionView.changes(from: old.ids, to: ids)
                    listings[folder.path] = .success(
                        Listing(names: names, ids: ids, keys: keys, changes: changes, version: old.version))
                } catch {
                    listings[folder.path] = .failure(error)
                }
            }
            await self?.show(listings, generation: generation, selecting: selecting)
        }
    }

    /// A folder's files in listing order, with their target ids, and the changes from the
    /// listing shown when it was made (its ``Column/version``).
    private struct Listing: Sendable {
        var names: [String]
        var ids: [TargetID]
        var keys: [String]
        var changes: [DragCollectionView.Change]
        var version: Int
    }

    /// Folders whose newest listing has not been shown yet.
    private var listingInFlight: Set<String> = []

    /// Most files a drop adds to or takes from a folder's listing in place; more, and the
    /// folder is listed again (inserting 10,000 names one by one would shift 100,000 each time).
    static let filesChangedInPlace = 100

    /// Shows files that arrived in `arrived` and left `left` (a drop), selecting `selecting` in
    /// `arrived`: in place when the change is small and no listing of those folders is under
    /// way, else by listing them again.
    private func update(
        arrived: (folder: FilesFolder, names: [String]), left: (folder: FilesFolder, names: [String])? = nil,
        selecting: [String]
    ) {
        let folders = [arrived.folder] + (left.map { [$0.folder] } ?? [])
        let selection = selecting.count <= Self.listedInState ? [arrived.folder.path: selecting] : [:]
        guard
            let destination = columns.first(where: { $0.folder.path == arrived.folder.path }),
            arrived.names.count <= Self.filesChangedInPlace, (left?.names.count ?? 0) <= Self.filesChangedInPlace,
            !folders.contains(where: { listingInFlight.contains($0.path) })
        else {
            reload(only: folders, selecting: selection)
            return
        }
        if let left, let source = columns.first(where: { $0.folder.path == left.folder.path }) {
            source.view.applyChanges(source.remove(left.names))
        }
        // A write-only folder never shows what it holds, what just arrived included.
        if destination.folder.writeOnly {
            onChange?()
            return
        }
        destination.view.applyChanges(
            destination.insert(arrived.names),
            selecting: selection[arrived.folder.path]?.map(arrived.folder.fileTargetID))
        onChange?()
    }

    private func show(_ listings: [String: Result<Listing, FilesError>], generation: Int, selecting: [String: [String]])
    {
        for column in columns where listings[column.folder.path] != nil {
            guard newestListing[column.folder.path] == generation else { continue }
            listingInFlight.remove(column.folder.path)
            let selection = selecting[column.folder.path].map { $0.map(column.folder.fileTargetID) }
            switch listings[column.folder.path] {
            case .success(let listing):
                let current = listing.version == column.version
                (column.names, column.ids, column.keys) = (listing.names, listing.ids, listing.keys)
                column.version += 1
                if current {
                    column.view.applyChanges(listing.changes, selecting: selection)
                } else {
                    // The folder changed in place while it was listed: compared whole.
                    column.view.reloadData(selecting: selection)
                }
                continue
            case .failure(let error):
                (column.names, column.ids, column.keys) = ([], [], [])
                onError?(Sentence.explaining(words("Could not read {name}", ["name": column.folder.name]), error))
            case nil:
                (column.names, column.ids, column.keys) = ([], [], [])
            }
            column.version += 1
            column.view.reloadData(selecting: selection)
        }
        onChange?()
    }

    // MARK: Tour

    /// Folders of more files than this are given as counts only in state lines (and selections
    /// of more are left out).
    static let listedInState = 1_000

    func state() -> StateLine {
        var state = StateLine()
        state.lists = keyed(
            columns.filter { $0.names.count <= Self.listedInState }.map { ($0.folder.name, $0.names) })
        state.counts = keyed(columns.map { ($0.folder.name, $0.names.count) })
        // A selection of more than 1,000 files (10,000 copied in) is left out too.
        state.selected = keyed(
            columns.compactMap { column in
                let selection = column.view.selection
                guard selection.count <= Self.listedInState else { return nil }
                let prefix = column.folder.fileTargetID("").rawValue
                return (column.folder.name, selection.map { String($0.rawValue.dropFirst(prefix.count)) })
            })
        state.copying = keyed(columns.map { ($0.folder.name, $0.copying) })
        state.folders = tree?.lines
        return state
    }

    /// Each folder's frame and the frames of its rows on screen (rows scrolled away have no
    /// widget and no frame), in listing order.
    func layout() -> PaneLayout? {
        var layout = PaneLayout()
        if let tree {
            // The folder tree's rows, by path ("Documents/Projects").
            guard let frame = host.frameInWindow(of: FolderTree.id), frame.height > 0 else { return nil }
            var rows: [(String, Rect)] = []
            for row in tree.outline.rows() {
                guard let rowFrame = host.frameInWindow(of: row.id), rowFrame.height > 0 else { return nil }
                rows.append((String(row.id.rawValue.dropFirst("folder:".count)), rowFrame))
            }
            layout.lists.append(("Folders", frame))
            layout.rows.append(("Folders", rows.map { (title: $0.0, frame: $0.1) }))
        }
        for column in columns {
            guard let frame = host.frameInWindow(of: column.folder.targetID), frame.height > 0 else { return nil }
            var rows: [(index: Int, title: String, frame: Rect)] = []
            for (index, id) in column.view.boundItems {
                guard index < column.names.count, let rowFrame = host.frameInWindow(of: id), rowFrame.height > 0,
                    rowFrame.midY > frame.minY, rowFrame.midY < frame.maxY
                else { continue }
                rows.append((index, column.names[index], rowFrame))
            }
            if rows.isEmpty && !column.names.isEmpty { return nil }
            layout.lists.append((column.folder.name, frame))
            layout.rows.append((column.folder.name, rows.sorted { $0.index < $1.index }.map { ($0.title, $0.frame) }))
            layout.targets.append((column.folder.name, column.folder.targetID))
        }
        return layout
    }

    // MARK: Drops

    fileprivate func perform(_ drop: DropRequest) -> DropResult {
        guard let library, let column = columns.first(where: { $0.folder.targetID == drop.destination }) else {
            return .failed(DropFailure(.failed, words("That folder is not available.")))
        }
        let destination = column.folder
        // The engine asked first (the target's confirmation, U2): a drop that got here is confirmed.
        let confirmed = destination.requiresConfirmation
        let own = drop.items.compactMap { library.file(for: $0.id) }
        if !own.isEmpty, own.count == drop.items.count {
            let source = own[0].folder
            let names = own.filter { $0.folder == source }.map(\.name)
            if drop.operation == .move {
                if source.path == destination.path { return .committed(undo: nil) }
                do {
                    let edit = try library.move(names, from: source, to: destination, confirmed: confirmed)
                    host.scheduleUpdate(key: self) { [weak self] in
                        self?.update(arrived: (destination, edit.names), left: (source, names), selecting: edit.names)
                    }
                    return .committed(undo: edit.action)
                } catch {
                    return .failed(DropFailure(.failed, Sentence.explaining(words("Could not move"), error)))
                }
            }
            return deferCopy(names, into: column, token: drop.token) { onProgress in
                try await library.copy(
                    names, from: source, to: destination, confirmed: confirmed, onProgress: onProgress)
            }
        }
        let data = drop.data
        let label = drop.items.first?.name ?? "Files"
        let offered = data.offeredTypes(item: 0)
        let host = self.host
        let token = drop.token
        // A browser's image (its address, its bytes, maybe an image type) is downloaded or
        // taken as it is, and saved under the name it came with; its `text/uri-list`, when it
        // offers one, names a web address, not a file of this computer.
        let browserImage =
            offered.contains(ImageIntake.mozURL) || offered.contains(.octetStream)
            || offered.contains { $0.mediaType == "image" }
        let saveImage: @Sendable (@escaping @Sendable (String, Int64, Int64) -> Void) async throws -> FilesEdit = {
            onProgress in
            let image: ImageIntake.Image
            do throws(TransferError) {
                image = try await Self.imageIntake.load(from: data) { fraction in
                    if let fraction { onProgress(label, Int64(fraction * 1000), 1000) }
                } sourceDone: {
                    Task { @MainActor in host.otherAppDone(with: token) }
                }
            } catch {
                throw FilesError.transfer(error)
            }
            let name = image.name ?? "Image.\(ImageFormat.recognise(image.data)?.fileExtension ?? "png")"
            return try await library.importContent(
                from: DataSource(image.data), suggestedName: name, into: destination, confirmed: confirmed)
        }
        if drop.operation == .move {
            // Shift held over the folder (S2): another app's files are renamed into place.
            return moveIn(drop, label: label, into: column, confirmed: confirmed)
        }
        if !offered.contains(.uriList), browserImage {
            return deferCopy([label], into: column, token: token, namingArrivals: true, work: saveImage)
        }
        if let choice = data.choice(item: 0, accepting: [.uriList, .utf8PlainText, .plainText]),
            choice.delivered != .uriList
        {
            // Text (another app's, of any length), kept as a new file written as it arrives.
            return saveText(drop, named: label, into: column, confirmed: confirmed)
        }
        // Another app's files: a URI list, copied in safely.
        return deferCopy([label], into: column, token: drop.token, namingArrivals: true) { onProgress in
            let text = try await Self.uriList(of: data)
            // A browser's list names the image's web address: the image itself is saved.
            if browserImage, !FilesLibrary.namesLocalFile(uriList: text) { return try await saveImage(onProgress) }
            // One bar for the whole list: the files done, and the one being copied.
            let overall = ImportProgress(files: ImportProgress.fileCount(in: text))
            return try await library.importDropped(
                uriList: text, into: destination, confirmed: confirmed,
                onProgress: { name, copied, total in
                    let fraction = overall.fraction(name, copied: copied, of: total)
                    onProgress(label, Int64(fraction * 1_000_000), 1_000_000)
                })
        }
    }

    /// Another app's files dragged in with Shift: read as a `text/uri-list` after the drop, then
    /// moved in whole or not at all (``FilesLibrary/moveDropped(uriList:into:confirmed:)``), one
    /// undo step that puts them back in the other app's folder. Content that is not a list of
    /// this computer's files is refused with the reason (it can be copied without Shift): no
    /// bytes here could put it back in the other app on undo.
    private func moveIn(_ drop: DropRequest, label: String, into column: Column, confirmed: Bool) -> DropResult {
        guard let library else { return .failed(DropFailure(.failed, words("That folder is not available."))) }
        guard drop.data.offeredTypes(item: 0).contains(.uriList) else {
            return .failed(FilesError.onlyFilesMove.dropFailure)
        }
        let data = drop.data
        let destination = column.folder
        return deferCopy([label], into: column, token: drop.token, namingArrivals: true) { _ in
            let text = try await Self.uriList(of: data)
            guard FilesLibrary.namesLocalFile(uriList: text) else { throw FilesError.onlyFilesMove }
            return try library.moveDropped(uriList: text, into: destination, confirmed: confirmed)
        }
    }

    /// The first item's `text/uri-list`, read from the other app after the drop.
    static func uriList(of data: DropDataAccess) async throws -> String {
        let loaded: LoadedContent
        do throws(TransferError) {
            loaded = try await DropLoading.load(data, item: 0, accepting: [.uriList])
        } catch {
            throw FilesError.transfer(error)
        }
        switch loaded {
        case .data(_, let bytes): return String(decoding: bytes, as: UTF8.self)
        case .file(_, let path): return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        }
    }

    /// The most bytes of text kept as one file: 1 GB.
    static let textFileLimit: Int64 = 1 << 30

    /// Text from another app (or a note's selection) kept as a new file, "`name`.txt": streamed
    /// to a temporary file of the data directory as it arrives (never whole in memory, checked
    /// as UTF-8 on the way), then copied in like a file (a free name, never replacing).
    private func saveText(_ drop: DropRequest, named name: String, into column: Column, confirmed: Bool) -> DropResult {
        guard let library else { return .failed(DropFailure(.failed, words("That folder is not available."))) }
        let data = drop.data
        let destination = column.folder
        let transfers = library.root.deletingLastPathComponent().appendingPathComponent(".transfers")
        let fileName = name + ".txt"
        return deferCopy([fileName], into: column, token: drop.token, namingArrivals: true) { _ in
            try? FileManager.default.createDirectory(at: transfers, withIntermediateDirectories: true)
            let temporary = transfers.appendingPathComponent(UUID().uuidString).path
            defer { try? FileManager.default.removeItem(atPath: temporary) }
            let source: FileSource
            do throws(TransferError) {
                _ = try await DropLoading.load(
                    data, item: 0, accepting: [.utf8PlainText, .plainText],
                    options: LoadOptions(target: .file(path: temporary), limit: Self.textFileLimit))
                source = try FileSource(path: temporary)
            } catch {
                throw FilesError.transfer(error)
            }
            return try await library.importContent(
                from: source, suggestedName: fileName, into: destination, confirmed: confirmed)
        }
    }

    /// Shows placeholder rows with progress (the view's, A4), runs `work` off the main loop, then completes the deferred drop
    /// (one undo step) or fails it with the reason (the folder is unchanged, A6).
    private func deferCopy(
        _ names: [String], into column: Column, token: DropToken, namingArrivals: Bool = false,
        work: @escaping @Sendable (@escaping @Sendable (String, Int64, Int64) -> Void) async throws -> FilesEdit
    ) -> DropResult {
        let host = self.host
        // The view shows a placeholder per arriving item where the drop lands (no drag
        // targets), there until the copy ends; the state line names them.
        column.copying += names
        onChange?()
        let report: @MainActor @Sendable (String, Double) -> Void = { _, fraction in
            host.updateDeferredDrop(token, progress: fraction)
        }
        // Progress reaches the main loop at most ten times a second, however many chunks and
        // files (10,000 files sent as many updates and blocked the loop).
        let relay = ProgressRelay(report)
        Task { @MainActor [weak self] in
            let result: Result<FilesEdit, any Error>
            do {
                let edit = try await work { name, copied, total in
                    guard total > 0 else { return }
                    relay.report(name, Double(copied) / Double(total))
                }
                result = .success(edit)
            } catch {
                result = .failure(error)
            }
            relay.stop()
            for name in names {
                if let index = column.copying.firstIndex(of: name) { column.copying.remove(at: index) }
            }
            switch result {
            case .success(let edit):
                let action = self?.inBackground(edit.action, files: edit.names.count) ?? edit.action
                // Another app's content is said by the names it took here ("Copied 'Trip
                // plan.txt' to Documents."), not the drag's ("Files from Thunar").
                host.completeDeferredDrop(
                    token, with: .committed(undo: action), arrived: namingArrivals ? edit.names : nil)
                // The files that arrived are selected, unless they are very many (selecting
                // 10,000 rows held the main loop for tens of milliseconds).
                self?.update(arrived: (edit.folder, edit.names), selecting: edit.names)
            case .failure(let error):
                host.completeDeferredDrop(token, with: .failed(Self.failure(error, copying: names)))
                self?.reload(only: [column.folder], selecting: [:])
            }
        }
        return .deferred(placeholders: names.count)
    }

    /// Edits of more files than this are undone and redone off the main loop.
    static let backgroundEditFiles = 20

    /// Runs the undo and redo of `action` on a serial queue, off the main loop, when it moves
    /// more than ``backgroundEditFiles`` files (undoing 10,000 copies is 10,000 renames); the
    /// folders are read again once it is done. Smaller edits run as they are.
    private func inBackground(_ action: UndoableAction?, files: Int) -> UndoableAction? {
        guard let action, files > Self.backgroundEditFiles else { return action }
        let box = ActionBox(action)
        return UndoableAction(
            undo: { [weak self] in self?.runFileWork { box.action.undo() } },
            redo: { [weak self] in self?.runFileWork { box.action.redo() } })
    }

    private let fileWork = DispatchQueue(label: "showcase.files.edits")

    private func runFileWork(_ body: @escaping @Sendable () -> Void) {
        fileWork.async {
            body()
            Task { @MainActor [weak self] in self?.reload() }
        }
    }

    /// What a person reads when a copy or an import failed (one sentence, one full stop).
    private static func failure(_ error: any Error, copying names: [String]) -> DropFailure {
        if case .transfer(let transfer) = error as? FilesError {
            let what: DropLoading.Subject = names.count == 1 && names[0].hasSuffix(".txt") ? .text : .fileList
            return DropLoading.failure(transfer, adding: what)
        }
        return DropFailure(.failed, words("Nothing was copied: {reason}.", ["reason": DropLoading.clause("\(error)")]))
    }

    /// How long a file another app said it moved may stay on disk before the listing shows it
    /// again: a file manager answers the drop when its move job starts, and renames the file a
    /// moment later.
    static let movedFileGrace: Double = 5

    /// Files of `column`'s folder another app said it moved: they leave the listing now. One
    /// still on disk is watched for `movedFileGrace` seconds; if it has not gone by then, the
    /// folder is listed again (it shows again) and the person is told the other app left it.
    fileprivate func filesMoved(_ items: [TargetID], from column: Column, app: AppID?) -> [TargetID] {
        guard let library else { return [] }
        var moved: [(id: TargetID, name: String)] = []
        var stillHere: [(url: URL, id: TargetID)] = []
        for id in items {
            guard let (folder, name) = library.file(for: id), folder.path == column.folder.path else { continue }
            moved.append((id, name))
            let url = library.root.appendingPathComponent(folder.path).appendingPathComponent(name)
            if Self.exists(url) { stillHere.append((url, id)) }
        }
        guard !moved.isEmpty else { return [] }
        if listingInFlight.contains(column.folder.path) {
            reload(only: [column.folder], selecting: [:])
        } else {
            column.view.applyChanges(column.remove(moved.map(\.name)))
        }
        onChange?()
        if !stillHere.isEmpty { watchMoved(stillHere, in: column.folder, app: app, since: Date()) }
        return moved.map(\.id)
    }

    private func watchMoved(_ files: [(url: URL, id: TargetID)], in folder: FilesFolder, app: AppID?, since start: Date)
    {
        let left = files.filter { Self.exists($0.url) }
        guard !left.isEmpty else { return }
        guard Date().timeIntervalSince(start) < Self.movedFileGrace else {
            reload(only: [folder], selecting: [:])
            // The history names only what left: a move the other app did not make is no step.
            host.engine.otherAppKept(left.map(\.id))
            let names = left.map { "'\($0.url.lastPathComponent)'" }.joined(separator: ", ")
            onError?(
                Sentence.finished(
                    "\(app.map { "'\($0.rawValue)'" } ?? "The other app") left \(names) in \(folder.name)"))
            return
        }
        GLibSource.once(afterMilliseconds: 100) { [weak self] in
            self?.watchMoved(left, in: folder, app: app, since: start)
        }
    }

    private static func exists(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0
    }

    fileprivate func provider(for item: TargetID) -> ItemProvider? {
        guard let library, let (folder, name) = library.file(for: item) else { return nil }
        let url = library.root.appendingPathComponent(folder.path).appendingPathComponent(name)
        return ItemProvider(app: host.engine.app, representations: [.text(.uriList, url.absoluteString + "\r\n")])
    }
}

/// Hands progress to the main actor at most every 100 ms: the latest fraction of each name.
private final class ProgressRelay: @unchecked Sendable {
    private let lock = NSLock()
    private var latest: [String: Double] = [:]
    private var scheduled = false
    private var stopped = false
    private let deliver: @MainActor @Sendable (String, Double) -> Void

    init(_ deliver: @escaping @MainActor @Sendable (String, Double) -> Void) { self.deliver = deliver }

    func report(_ name: String, _ fraction: Double) {
        lock.lock()
        latest[name] = fraction
        let schedule = !scheduled && !stopped
        scheduled = true
        lock.unlock()
        guard schedule else { return }
        Task { @MainActor in
            try? await Task.sleep(for: .milliseconds(100))
            self.flush()
        }
    }

    @MainActor private func flush() {
        lock.lock()
        let values = stopped ? [:] : latest
        latest = [:]
        scheduled = false
        lock.unlock()
        for (name, fraction) in values { deliver(name, fraction) }
    }

    /// No more deliveries (the copy ended).
    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
    }
}

/// The fraction of a URI list imported so far: files are copied one after the other, each
/// reporting its own bytes.
private final class ImportProgress: @unchecked Sendable {
    private let lock = NSLock()
    private let files: Int
    private var done = 0
    private var current: String?

    init(files: Int) { self.files = max(1, files) }

    /// The files a URI list names (its lines that are not empty or comments).
    static func fileCount(in text: String) -> Int {
        text.split(whereSeparator: \.isNewline).filter {
            let line = $0.trimmingCharacters(in: .whitespaces)
            return !line.isEmpty && !line.hasPrefix("#")
        }.count
    }

    func fraction(_ name: String, copied: Int64, of total: Int64) -> Double {
        lock.lock()
        defer { lock.unlock() }
        if name != current {
            if current != nil { done += 1 }
            current = name
        }
        let part = total > 0 ? Double(copied) / Double(total) : 1
        return min(1, (Double(done) + part) / Double(files))
    }
}

/// An undo action handed to the edits' queue (it runs there only, one at a time).
private final class ActionBox: @unchecked Sendable {
    let action: UndoableAction
    init(_ action: UndoableAction) { self.action = action }
}
