import CGtk4
import DragDrop
import DragDropGTK
import DragDropTesting
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
    /// Images from browsers, in the forms they offer them (an address, bytes), saved as files.
    /// Not HTML: a text drag must not highlight a folder.
    static let imageIntake = ImageIntake.gdk(images: ["image/*"])
    /// What a folder takes: its own files, file lists, and images from browsers.
    static let acceptedTypes: [ContentType] = [fileType, .uriList, ImageIntake.mozURL, .octetStream]
    static let dropBoxQuestion =
        "Drop Box is write-only: you will not be able to see or take back what you put there."

    let situation = Situation.named("files")!
    let widget: UnsafeMutablePointer<GtkWidget>
    var onChange: (@MainActor () -> Void)?
    var onError: (@MainActor (String) -> Void)?

    private final class Column {
        let folder: FilesFolder
        let list: GObjectRef
        var files: [String] = []
        var rows: [(name: String, row: GObjectRef)] = []
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
        gtk_widget_set_vexpand(list.widget, 1)
        UI.append(box, list.widget)
        UI.append(row, box)
        let column = Column(folder: folder, list: list)
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
            do { try host.register(column.list.widget, as: target, delegate: self) } catch { onError?("\(error)") }
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

    private func reload(selecting: [String: [String]]) {
        guard let library else { return }
        for column in columns { unregisterRows(column) }
        for column in columns where !column.folder.writeOnly {
            do {
                column.files = try library.contents(of: column.folder).filter { $0.kind == .file }.map(\.name)
            } catch {
                column.files = []
                onError?(Sentence.explaining("Could not read \(column.folder.name)", error))
            }
            if let names = selecting[column.folder.path] {
                column.selection = names
            } else {
                column.selection = column.selection.filter(column.files.contains)
            }
            buildRows(column)
        }
        onChange?()
    }

    private func unregisterRows(_ column: Column) {
        for (name, _) in column.rows { host.unregister(column.folder.fileTargetID(name)) }
    }

    private func buildRows(_ column: Column) {
        column.rebuilding = true
        defer { column.rebuilding = false }
        let list = dd_list_box(column.list.raw)
        for (_, row) in column.rows { gtk_list_box_remove(list, row.widget) }
        column.rows = column.files.map { name in
            let row = GObjectRef(newWidget: gtk_list_box_row_new())
            let label = UI.label(name)
            UI.margins(label, 10)
            gtk_list_box_row_set_child(dd_list_box_row(row.raw), label)
            gtk_widget_add_css_class(row.widget, "dd-row")
            gtk_list_box_append(list, row.widget)
            if column.selection.contains(name) { gtk_list_box_select_row(list, dd_list_box_row(row.raw)) }
            return (name, row)
        }
        guard window != nil else { return }
        for (name, row) in column.rows {
            var target = DragTarget(
                id: column.folder.fileTargetID(name), name: name, frame: .zero, parent: column.folder.targetID)
            target.offers = [Self.fileType, .uriList]
            target.kind = Noun("file")
            do { try host.register(row.widget, as: target, delegate: self) } catch { onError?("\(error)") }
        }
    }

    // MARK: Copies in progress (placeholders)

    private func showCopying(_ names: [String], in column: Column) {
        for name in names {
            let row = GObjectRef(newWidget: gtk_list_box_row_new())
            let box = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 4)
            UI.margins(box, 10)
            UI.append(box, UI.label("Copying “\(name)”…", css: ["dim-label"]))
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

    func state() -> [(String, JSONValue)] {
        [
            ("lists", .object(columns.map { ($0.folder.name, .array($0.files.map { .string($0) })) })),
            (
                "selected",
                .object(columns.map { ($0.folder.name, .array($0.selection.map { .string($0) })) })
            ),
            ("copying", .object(columns.map { ($0.folder.name, .array($0.copying.map { .string($0.name) })) })),
        ]
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
        if !offered.contains(.uriList) {
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
        // Another app's files: a URI list, copied in safely.
        return deferCopy([label], into: column, token: drop.token) { onProgress in
            let loaded: LoadedContent
            do throws(TransferError) {
                loaded = try await data.load(item: 0, accepting: [.uriList])
            } catch {
                throw FilesError.transfer(error)
            }
            let text: String
            switch loaded {
            case .data(_, let bytes): text = String(decoding: bytes, as: UTF8.self)
            case .file(_, let path):
                text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            }
            return try await library.importDropped(
                uriList: text, into: destination, confirmed: confirmed,
                onProgress: { _, copied, total in onProgress(label, copied, total) })
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
        Task { @MainActor [weak self] in
            let result: Result<FilesEdit, any Error>
            do {
                let edit = try await work { name, copied, total in
                    guard total > 0 else { return }
                    let fraction = Double(copied) / Double(total)
                    Task { @MainActor in report(name, fraction) }
                }
                result = .success(edit)
            } catch {
                result = .failure(error)
            }
            self?.endCopying(names, in: column)
            switch result {
            case .success(let edit):
                host.completeDeferredDrop(token, with: .committed(undo: edit.action))
                self?.reload(selecting: [edit.folder.path: edit.names])
            case .failure(let error):
                host.completeDeferredDrop(token, with: .failed(DropFailure(.failed, Sentence.explaining("Could not copy", error))))
                self?.reload()
            }
        }
        return .deferred(placeholders: names.count)
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
