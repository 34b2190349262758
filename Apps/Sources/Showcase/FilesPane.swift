import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol
import Foundation
import ShowcaseModel

/// Situation 8: real folders on disk (`FilesLibrary`, under the data directory's `Files`), one
/// column each, listing their files by name.
///
/// - Operation (S2, the guidelines' default, `.automatic`): a file dragged to another folder is
///   **copied**; Shift forces a move (one atomic rename), Ctrl a copy. Dropped back on its own
///   folder a move changes nothing (the folder is sorted by name) and a Ctrl-copy makes
///   "name 2.ext".
/// - Copies and imports are asynchronous: the drop is deferred, the destination shows a
///   "Copying…" row with a progress bar per file until the copy is complete (A4), and a failure
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

    private final class Column {
        let folder: FilesFolder
        let list: GObjectRef
        /// The scrolled window around the list: the folder's drop target (its frame is the part
        /// shown; rows scrolled out of it are clipped), so a folder of 10,000 files scrolls
        /// instead of growing the window.
        var scroller: GObjectRef!
        var files: [String] = []
        var rows: [(name: String, row: GObjectRef)] = []
        /// The last row, counting the files not listed (past ``FilesPane/maximumRows``).
        var moreRow: GObjectRef?
        /// Rows still to take out, and names still to show, while the rows are rebuilt in steps.
        var leaving: [(name: String, row: GObjectRef)] = []
        var arriving: [String] = []
        var selection: [String] = []
        /// Files being copied in: their names and progress bars.
        var copying: [(name: String, row: GObjectRef, bar: GObjectRef)] = []
        var rebuilding = false
        init(folder: FilesFolder, list: GObjectRef) {
            self.folder = folder
            self.list = list
        }
    }

    private let library: FilesLibrary?
    private unowned let host: GtkDragHost
    private var columns: [Column] = []
    private var window: TargetID?
    private let row: UnsafeMutablePointer<GtkWidget>

    init(store: ShowcaseStore, host: GtkDragHost) {
        self.host = host
        row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 18)
        gtk_box_set_homogeneous(dd_box(UnsafeMutableRawPointer(row)), 1)
        gtk_widget_set_vexpand(row, 1)
        widget = row
        let root = URL(fileURLWithPath: store.path).deletingLastPathComponent().appendingPathComponent("Files")
        do {
            library = try FilesLibrary(root: root, store: store)
        } catch {
            library = nil
            UI.append(
                row, UI.label("Could not open the folders at \(root.path): \(error)", selectable: true, wrap: true))
            return
        }
        for folder in library?.folders ?? [] { buildColumn(folder) }
    }

    private func buildColumn(_ folder: FilesFolder) {
        let box = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        UI.append(box, UI.label(folder.name, selectable: true, css: ["sc-list-title"]))
        let list = GObjectRef(newWidget: gtk_list_box_new())
        gtk_list_box_set_selection_mode(
            dd_list_box(list.raw), folder.writeOnly ? GTK_SELECTION_NONE : GTK_SELECTION_MULTIPLE)
        gtk_list_box_set_activate_on_single_click(dd_list_box(list.raw), 0)
        gtk_widget_add_css_class(list.widget, "boxed-list")
        FocusNavigation.tabLeaves(list.widget)
        let scroller = GObjectRef(newWidget: gtk_scrolled_window_new())
        gtk_scrolled_window_set_policy(dd_scrolled_window(scroller.raw), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(dd_scrolled_window(scroller.raw), list.widget)
        gtk_widget_set_vexpand(scroller.widget, 1)
        UI.append(box, scroller.widget)
        UI.append(row, box)
        let column = Column(folder: folder, list: list)
        column.scroller = scroller
        columns.append(column)
        GSignal.connect(list.raw, "selected-rows-changed") { [weak self, weak column] in
            guard let self, let column, !column.rebuilding else { return }
            column.selection = column.rows.filter { gtk_list_box_row_is_selected(dd_list_box_row($0.row.raw)) != 0 }
                .map(\.name)
            self.onChange?()
        }
        if folder.writeOnly {
            let info = gtk_list_box_row_new()!
            gtk_list_box_row_set_selectable(dd_list_box_row(UnsafeMutableRawPointer(info)), 0)
            gtk_list_box_row_set_activatable(dd_list_box_row(UnsafeMutableRawPointer(info)), 0)
            let label = UI.label(
                "Write-only: drop files here to hand them in. You cannot see them afterwards.", wrap: true)
            UI.margins(label, 12)
            gtk_list_box_row_set_child(dd_list_box_row(UnsafeMutableRawPointer(info)), label)
            gtk_list_box_append(dd_list_box(list.raw), info)
        }
    }

    // MARK: ShowcasePane

    func activate(in window: TargetID) {
        self.window = window
        for column in columns {
            var target = DragTarget(id: column.folder.targetID, name: column.folder.name, frame: .zero, parent: window)
            target.accepts = Self.acceptedTypes
            target.operationPolicy = .automatic
            target.clipsChildren = true
            if column.folder.requiresConfirmation { target.confirmation = Self.dropBoxQuestion }
            do { try host.register(column.scroller.widget, as: target, delegate: self) } catch { onError?("\(error)") }
        }
        reload()
    }

    func deactivate() {
        for column in columns {
            unregisterRows(column)
            host.unregister(column.folder.targetID)
        }
        window = nil
    }

    /// Reads every folder again and rebuilds the rows (after a drop, an undo or a redo).
    func reload() { reload(selecting: [:]) }

    /// The most rows a folder shows; the others are counted in a last row. A folder of 10,000
    /// files (another app's drop) stays quick to show, to scroll and to undo: every row is a
    /// widget and a drag source, and building 10,000 of them blocked the app for seconds.
    static let maximumRows = 200

    /// Numbers the listings, so only the newest one is shown.
    private var listing = 0

    /// Lists the folders off the main loop (reading and sorting 10,000 names takes a while),
    /// then rebuilds the rows.
    private func reload(selecting: [String: [String]]) {
        guard let library else { return }
        listing += 1
        let generation = listing
        let folders = columns.filter { !$0.folder.writeOnly }.map(\.folder)
        Task.detached(priority: .userInitiated) { [weak self] in
            var listings: [String: Result<[String], FilesError>] = [:]
            for folder in folders {
                do throws(FilesError) {
                    listings[folder.path] = .success(try library.contents(of: folder).filter { $0.kind == .file }.map(\.name))
                } catch {
                    listings[folder.path] = .failure(error)
                }
            }
            await self?.show(listings, generation: generation, selecting: selecting)
        }
    }

    private func show(_ listings: [String: Result<[String], FilesError>], generation: Int, selecting: [String: [String]]) {
        guard generation == listing else { return }
        for column in columns where !column.folder.writeOnly {
            switch listings[column.folder.path] {
            case .success(let names):
                column.files = names
            case .failure(let error):
                column.files = []
                onError?(Sentence.explaining("Could not read \(column.folder.name)", error))
            case nil:
                column.files = []
            }
            let shown = Set(column.files.prefix(Self.maximumRows))
            column.selection = (selecting[column.folder.path] ?? column.selection).filter(shown.contains)
        }
        rebuildRows()
    }

    /// Rows are taken out and put in this many at a time, one batch per idle turn of the main
    /// loop (200 rows with their drag sources at once held the loop for 40 to 190 ms).
    static let rowsPerStep = 10
    private var rebuildSource: guint = 0

    /// Replaces every column's rows with its listing's first ``maximumRows`` files, in steps.
    private func rebuildRows() {
        GLibSource.cancel(rebuildSource)
        rebuildSource = 0
        for column in columns where !column.folder.writeOnly {
            column.leaving += column.rows
            column.rows = []
            column.arriving = Array(column.files.prefix(Self.maximumRows))
            if let more = column.moreRow {
                gtk_list_box_remove(dd_list_box(column.list.raw), more.widget)
                column.moreRow = nil
            }
        }
        stepRebuild()
    }

    private func stepRebuild() {
        var budget = Self.rowsPerStep
        var pending = false
        for column in columns where !column.folder.writeOnly {
            column.rebuilding = true
            let list = dd_list_box(column.list.raw)
            while budget > 0, let (name, row) = column.leaving.popLast() {
                host.unregister(column.folder.fileTargetID(name))
                gtk_list_box_remove(list, row.widget)
                budget -= 1
            }
            let selected = Set(column.selection)
            while budget > 0, column.leaving.isEmpty, !column.arriving.isEmpty {
                let name = column.arriving.removeFirst()
                let row = makeRow(name, in: column)
                if selected.contains(name) { gtk_list_box_select_row(list, dd_list_box_row(row.raw)) }
                column.rows.append((name, row))
                budget -= 1
            }
            if column.leaving.isEmpty, column.arriving.isEmpty {
                if column.moreRow == nil, column.files.count > column.rows.count { addMoreRow(column) }
            } else {
                pending = true
            }
            column.rebuilding = false
        }
        if pending {
            rebuildSource = GLibSource.idle(priority: 200) { [weak self] in
                self?.rebuildSource = 0
                self?.stepRebuild()
            }
        } else {
            onChange?()
        }
    }

    /// Takes out every row of `column` (shown or still to be taken out) and its target, and
    /// stops a rebuild.
    private func unregisterRows(_ column: Column) {
        GLibSource.cancel(rebuildSource)
        rebuildSource = 0
        column.rebuilding = true
        for (name, row) in column.rows + column.leaving {
            host.unregister(column.folder.fileTargetID(name))
            gtk_list_box_remove(dd_list_box(column.list.raw), row.widget)
        }
        column.rebuilding = false
        column.rows = []
        column.leaving = []
        column.arriving = []
    }

    private func makeRow(_ name: String, in column: Column) -> GObjectRef {
        let row = GObjectRef(newWidget: gtk_list_box_row_new())
        let label = UI.label(name)
        UI.margins(label, 10)
        // A name from another app may be 255 bytes long: the middle gives way, not the window.
        gtk_label_set_ellipsize(dd_label(UnsafeMutableRawPointer(label)), PANGO_ELLIPSIZE_MIDDLE)
        gtk_widget_set_tooltip_text(label, name)
        gtk_list_box_row_set_child(dd_list_box_row(row.raw), label)
        gtk_widget_add_css_class(row.widget, "dd-row")
        gtk_list_box_append(dd_list_box(column.list.raw), row.widget)
        guard window != nil else { return row }
        var target = DragTarget(
            id: column.folder.fileTargetID(name), name: name, frame: .zero, parent: column.folder.targetID)
        target.offers = [Self.fileType, .uriList]
        target.kind = Noun("file")
        do { try host.register(row.widget, as: target, delegate: self) } catch { onError?("\(error)") }
        return row
    }

    /// The last row, counting the files not listed.
    private func addMoreRow(_ column: Column) {
        let more = GObjectRef(newWidget: gtk_list_box_row_new())
        let hidden = column.files.count - column.rows.count
        let label = UI.label(
            "\(DropLoading.count(hidden)) more \(hidden == 1 ? "file" : "files") (the first \(Self.maximumRows) are listed).",
            wrap: true, css: ["dim-label"])
        UI.margins(label, 10)
        gtk_list_box_row_set_child(dd_list_box_row(more.raw), label)
        gtk_list_box_row_set_selectable(dd_list_box_row(more.raw), 0)
        gtk_list_box_row_set_activatable(dd_list_box_row(more.raw), 0)
        gtk_list_box_append(dd_list_box(column.list.raw), more.widget)
        column.moreRow = more
    }

    // MARK: Copies in progress (placeholders)

    private func showCopying(_ names: [String], in column: Column) {
        for name in names {
            let row = GObjectRef(newWidget: gtk_list_box_row_new())
            let box = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 4)
            UI.margins(box, 10)
            let label = UI.label("Copying “\(name)”…", css: ["dim-label"])
            gtk_label_set_ellipsize(dd_label(UnsafeMutableRawPointer(label)), PANGO_ELLIPSIZE_MIDDLE)
            UI.append(box, label)
            let bar = GObjectRef(newWidget: gtk_progress_bar_new())
            UI.append(box, bar.widget)
            gtk_list_box_row_set_child(dd_list_box_row(row.raw), box)
            gtk_list_box_row_set_selectable(dd_list_box_row(row.raw), 0)
            gtk_widget_add_css_class(row.widget, "dd-placeholder")
            gtk_list_box_append(dd_list_box(column.list.raw), row.widget)
            column.copying.append((name, row, bar))
        }
        onChange?()
    }

    private func progress(_ name: String, _ fraction: Double, in column: Column) {
        guard let entry = column.copying.first(where: { $0.name == name }) else { return }
        gtk_progress_bar_set_fraction(dd_progress_bar(entry.bar.raw), fraction)
    }

    private func endCopying(_ names: [String], in column: Column) {
        for name in names {
            guard let index = column.copying.firstIndex(where: { $0.name == name }) else { continue }
            gtk_list_box_remove(dd_list_box(column.list.raw), column.copying[index].row.widget)
            column.copying.remove(at: index)
        }
    }

    // MARK: Tour

    func state() -> StateLine {
        var state = StateLine()
        // The rows listed (at most maximumRows a folder), and how many files each holds.
        state.lists = keyed(columns.map { ($0.folder.name, $0.rows.map(\.name)) })
        state.counts = keyed(columns.map { ($0.folder.name, $0.files.count) })
        state.selected = keyed(columns.map { ($0.folder.name, Array($0.selection)) })
        state.copying = keyed(columns.map { ($0.folder.name, $0.copying.map(\.name)) })
        return state
    }

    func layout() -> PaneLayout? {
        var layout = PaneLayout()
        for column in columns {
            guard let frame = host.frameInWindow(of: column.folder.targetID), frame.height > 0 else { return nil }
            var rows: [(title: String, frame: Rect)] = []
            for (name, _) in column.rows {
                guard let rowFrame = host.frameInWindow(of: column.folder.fileTargetID(name)), rowFrame.height > 0
                else { return nil }
                rows.append((name, rowFrame))
            }
            layout.lists.append((column.folder.name, frame))
            layout.rows.append((column.folder.name, rows))
            layout.targets.append((column.folder.name, column.folder.targetID))
        }
        return layout
    }

    // MARK: Drops

    fileprivate func perform(_ drop: DropRequest) -> DropResult {
        guard let library, let column = columns.first(where: { $0.folder.targetID == drop.destination }) else {
            return .failed(DropFailure(.failed, "That folder is not available."))
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
                    scheduleReload(selecting: [destination.path: edit.names])
                    return .committed(undo: edit.action)
                } catch {
                    return .failed(DropFailure(.failed, Sentence.explaining("Could not move", error)))
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
        if !offered.contains(.uriList), offered.contains(ImageIntake.mozURL) || offered.contains(.octetStream) {
            // A browser's image (its address, its bytes): downloaded or taken as it is, and saved
            // under the name it came with.
            return deferCopy([label], into: column, token: token) { onProgress in
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
        }
        if let choice = data.choice(item: 0, accepting: [.uriList, .utf8PlainText, .plainText]),
            choice.delivered != .uriList
        {
            // Text (another app's, of any length), kept as a new file written as it arrives.
            return saveText(drop, named: label, into: column, confirmed: confirmed)
        }
        // Another app's files: a URI list, copied in safely.
        return deferCopy([label], into: column, token: drop.token) { onProgress in
            let loaded: LoadedContent
            do throws(TransferError) {
                loaded = try await DropLoading.load(data, item: 0, accepting: [.uriList])
            } catch {
                throw FilesError.transfer(error)
            }
            let text: String
            switch loaded {
            case .data(_, let bytes): text = String(decoding: bytes, as: UTF8.self)
            case .file(_, let path):
                text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            }
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

    /// The most bytes of text kept as one file: 1 GB.
    static let textFileLimit: Int64 = 1 << 30

    /// Text from another app (or a note's selection) kept as a new file, "`name`.txt": streamed
    /// to a temporary file of the data directory as it arrives (never whole in memory, checked
    /// as UTF-8 on the way), then copied in like a file (a free name, never replacing).
    private func saveText(_ drop: DropRequest, named name: String, into column: Column, confirmed: Bool) -> DropResult {
        guard let library else { return .failed(DropFailure(.failed, "That folder is not available.")) }
        let data = drop.data
        let destination = column.folder
        let transfers = library.root.deletingLastPathComponent().appendingPathComponent(".transfers")
        let fileName = name + ".txt"
        return deferCopy([fileName], into: column, token: drop.token) { _ in
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

    /// Shows "Copying…" rows, runs `work` off the main loop, then completes the deferred drop
    /// (one undo step) or fails it with the reason (the folder is unchanged, A6).
    private func deferCopy(
        _ names: [String], into column: Column, token: DropToken,
        work: @escaping @Sendable (@escaping @Sendable (String, Int64, Int64) -> Void) async throws -> FilesEdit
    ) -> DropResult {
        let host = self.host
        // Shown now (these rows are no drag targets), so they are there before the copy ends.
        showCopying(names, in: column)
        let path = column.folder.path
        let report: @MainActor @Sendable (String, Double) -> Void = { [weak self] name, fraction in
            if let column = self?.columns.first(where: { $0.folder.path == path }) {
                self?.progress(name, fraction, in: column)
            }
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
            self?.endCopying(names, in: column)
            switch result {
            case .success(let edit):
                let action = self?.inBackground(edit.action, files: edit.names.count) ?? edit.action
                host.completeDeferredDrop(token, with: .committed(undo: action))
                self?.reload(selecting: [edit.folder.path: edit.names])
            case .failure(let error):
                host.completeDeferredDrop(token, with: .failed(Self.failure(error, copying: names)))
                self?.reload()
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
            let what = names.count == 1 && names[0].hasSuffix(".txt") ? "The text" : "The list of files"
            return DropLoading.failure(transfer, adding: what)
        }
        return DropFailure(.failed, "Nothing was copied: \(DropLoading.clause("\(error)")).")
    }

    private func scheduleReload(selecting: [String: [String]]) {
        host.scheduleUpdate(key: self) { [weak self] in self?.reload(selecting: selecting) }
    }

    fileprivate func draggedFiles(startingAt item: TargetID) -> [TargetID] {
        guard let (folder, name) = library?.file(for: item),
            let column = columns.first(where: { $0.folder == folder }), column.selection.contains(name)
        else { return [item] }
        return column.selection.map { folder.fileTargetID($0) }
    }

    fileprivate func provider(for item: TargetID) -> ItemProvider? {
        guard let library, let (folder, name) = library.file(for: item) else { return nil }
        let url = library.root.appendingPathComponent(folder.path).appendingPathComponent(name)
        return ItemProvider(app: host.engine.app, representations: [.text(.uriList, url.absoluteString + "\r\n")])
    }
}

extension FilesPane: GtkDragHostDelegate {
    func dragHost(_ host: GtkDragHost, itemsForDragStartingAt item: TargetID) -> [TargetID] {
        draggedFiles(startingAt: item)
    }

    func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult { perform(drop) }

    /// A move renamed the files: nothing is left to take out of the source.
    func dragHost(_ host: GtkDragHost, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    { nil }

    func dragHost(_ host: GtkDragHost, itemProviderFor item: TargetID) -> ItemProvider? { provider(for: item) }
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
