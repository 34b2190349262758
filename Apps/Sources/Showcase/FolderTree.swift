import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol
import Foundation
import ShowcaseModel

/// The Files pane's folders as an outline (issue 23, T1–T6): every folder of the library with
/// the folders inside it, real directories on disk. A folder dragged onto another is moved
/// there on disk (one rename); it never goes into itself or a folder inside it (refused with
/// the reason, T3); undo moves it back and opens the rows that were open. Files dragged from
/// the columns onto a folder are copied there (moved with Shift), as onto a column, and so are
/// another app's files (a file manager's `text/uri-list`).
///
/// Folders are sorted by name, so every drop goes into a folder (`dropsOnRowsOnly`): a line
/// between two rows would promise a place the folder does not keep.
@MainActor
final class FolderTree: DragOutlineDataSource {
    static let folderType: ContentType = "application/x-showcase-folder"
    static let id: TargetID = "files-folders"
    /// How deep the tree lists folders.
    nonisolated static let deepest = 8

    let view: DragOutlineView
    private(set) var outline = OutlineTree()
    /// The rows a person opened, by row; nil until first built (then every folder that holds
    /// folders is open).
    private var expanded: Set<TargetID>?
    private let library: FilesLibrary
    private unowned let host: GtkDragHost
    /// A drop of files on a top-level folder: what a drop on its column does.
    var dropOnColumn: (@MainActor (DropRequest) -> DropResult)?
    /// Files moved or copied into a folder of the tree, or taken back by undo: the columns
    /// list again.
    var onFilesChanged: (@MainActor () -> Void)?
    /// The tree changed.
    var onChange: (@MainActor () -> Void)?

    init(library: FilesLibrary, host: GtkDragHost) {
        self.library = library
        self.host = host
        view = DragOutlineView(
            id: Self.id, title: "Folders", host: host, itemType: Self.folderType, kind: Noun("folder"),
            alsoTakes: [FilesPane.fileType, .uriList], dropsOnRowsOnly: true, showsHeading: false)
        view.dataSource = self
    }

    /// The row of `folder`.
    static func row(_ folder: FilesFolder) -> TargetID { TargetID("folder:\(folder.path)") }

    /// The folder a row shows.
    func folder(_ row: TargetID) -> FilesFolder? {
        guard row.rawValue.hasPrefix("folder:") else { return nil }
        return try? library.folder(String(row.rawValue.dropFirst("folder:".count)))
    }

    /// Counts the listings asked for, so only the newest one is shown.
    private var listing = 0

    /// Lists the folders again (a drop, an undo, another app's change), off the main loop: a
    /// folder of 10,000 files is read to find the folders among them.
    func rebuild() {
        listing += 1
        let generation = listing
        let library = self.library
        Task.detached(priority: .userInitiated) { [weak self] in
            let folders = Self.list(library)
            await self?.show(folders, generation: generation)
        }
    }

    /// One folder found on disk: where it is and what holds it.
    private struct Found: Sendable {
        var folder: FilesFolder
        var parent: FilesFolder?
    }

    /// Every folder of the library, parents first, each folder's own folders by name.
    private nonisolated static func list(_ library: FilesLibrary) -> [Found] {
        var found: [Found] = []
        func add(_ folder: FilesFolder, under parent: FilesFolder?, depth: Int) {
            found.append(Found(folder: folder, parent: parent))
            // The Archive holds 100,000 files and no folders: not listed for folders.
            guard !folder.writeOnly, folder.path != FilesArchive.folderName, depth < deepest,
                let entries = try? library.contents(of: folder)
            else { return }
            for entry in entries where entry.kind == .folder {
                guard let inside = try? library.folder("\(folder.path)/\(entry.name)") else { continue }
                add(inside, under: folder, depth: depth + 1)
            }
        }
        for folder in library.folders { add(folder, under: nil, depth: 0) }
        return found
    }

    /// Shows the folders a listing found, unless a newer listing was asked for.
    private func show(_ found: [Found], generation: Int) {
        guard generation == listing else { return }
        var tree = OutlineTree()
        for entry in found {
            try? tree.append(
                Self.row(entry.folder), name: entry.folder.name, under: entry.parent.map(Self.row),
                canHoldChildren: !entry.folder.writeOnly)
        }
        if expanded == nil { expanded = Set(tree.containers.filter { !tree.children(of: $0).isEmpty }) }
        tree.expanded = (expanded ?? []).filter { tree.containers.contains($0) }
        var refusals: [TargetID: String] = [:]
        for folder in library.folders where folder.writeOnly {
            refusals[Self.row(folder)] = words(
                "{name} is write-only: drop files on its column, which asks first.", ["name": folder.name])
        }
        tree.refusals = refusals
        guard tree != outline else { return }
        outline = tree
        view.reloadData()
        onChange?()
    }

    /// Every folder under its parent, two spaces a level.
    var lines: [String] {
        func walk(_ parent: TargetID?, _ indent: String) -> [String] {
            outline.children(of: parent).flatMap { [indent + outline.name(of: $0)] + walk($0, indent + "  ") }
        }
        return walk(nil, "")
    }

    // MARK: DragOutlineDataSource

    func outlineView(_ view: DragOutlineView, setExpanded open: Bool, for item: TargetID) {
        if open { expanded?.insert(item) } else { expanded?.remove(item) }
        // Opening or closing a row lists nothing: the tree shows the rows that show.
        var tree = outline
        tree.expanded = (expanded ?? []).filter { tree.containers.contains($0) }
        guard tree != outline else { return }
        outline = tree
        view.reloadData()
        onChange?()
    }

    func outlineView(_ view: DragOutlineView, perform drop: DropRequest, at point: OutlineDropPoint) -> DropResult {
        guard case .on(let row) = point, let destination = folder(row) else {
            return .failed(DropFailure(.forbidden, words("Drop on a folder.")))
        }
        let ids = drop.items.map(\.id)
        if ids.allSatisfy({ outline.holds($0) }) { return moveFolders(ids, into: destination, row: row, drop) }
        if library.folders.contains(destination) {
            // A top-level folder: the drop its column takes, placeholders and all.
            var request = drop
            request.destination = destination.targetID
            return dropOnColumn?(request)
                ?? .failed(DropFailure(.failed, words("{name} is not available.", ["name": destination.name])))
        }
        let library = self.library
        let own = drop.items.compactMap { library.file(for: $0.id) }
        guard !own.isEmpty, own.count == drop.items.count else {
            guard own.isEmpty, drop.data.offeredTypes(item: 0).contains(.uriList) else {
                return .failed(
                    DropFailure(.forbidden, words("Drop files here; other content goes on a top-level folder.")))
            }
            return importFiles(drop, into: destination)
        }
        let source = own[0].folder
        let names = own.filter { $0.folder == source }.map(\.name)
        if drop.operation == .move {
            do {
                let edit = try library.move(names, from: source, to: destination)
                onFilesChanged?()
                return .committed(undo: edit.action.map(refreshing))
            } catch {
                return .failed(DropFailure(.failed, Sentence.explaining(words("Could not move"), error)))
            }
        }
        // A copy runs off the main loop; the drop completes when it is done (A4, A6).
        let token = drop.token
        let host = self.host
        Task { @MainActor [weak self] in
            do throws(FilesError) {
                let edit = try await library.copy(names, from: source, to: destination)
                host.completeDeferredDrop(token, with: .committed(undo: edit.action.map { self?.refreshing($0) ?? $0 }))
            } catch {
                host.completeDeferredDrop(
                    token, with: .failed(DropFailure(.failed, Sentence.explaining(words("Could not copy"), error))))
            }
            self?.onFilesChanged?()
        }
        return .deferred(placeholders: 0)
    }

    /// Another app's files (its `text/uri-list`, read after the drop) into `destination`:
    /// copied off the main loop, or moved in with Shift (all or none); said by the names they
    /// took here. Nothing of the other app's changes on a copy, or on a failure.
    private func importFiles(_ drop: DropRequest, into destination: FilesFolder) -> DropResult {
        let data = drop.data
        let token = drop.token
        let host = self.host
        let library = self.library
        let move = drop.operation == .move
        Task { @MainActor [weak self] in
            do {
                let text = try await FilesPane.uriList(of: data)
                let edit: FilesEdit
                if move {
                    guard FilesLibrary.namesLocalFile(uriList: text) else { throw FilesError.onlyFilesMove }
                    edit = try library.moveDropped(uriList: text, into: destination)
                } else {
                    edit = try await library.importDropped(uriList: text, into: destination)
                }
                host.completeDeferredDrop(
                    token, with: .committed(undo: edit.action.map { self?.refreshing($0) ?? $0 }), arrived: edit.names)
            } catch {
                host.completeDeferredDrop(
                    token,
                    with: .failed(
                        DropFailure(.failed, Sentence.explaining(move ? "Could not move" : "Could not copy", error))))
            }
            self?.onFilesChanged?()
        }
        return .deferred(placeholders: 0)
    }

    /// Folders of the tree onto `destination`: moved on disk, one rename each, all or none.
    private func moveFolders(_ ids: [TargetID], into destination: FilesFolder, row: TargetID, _ drop: DropRequest)
        -> DropResult
    {
        guard drop.operation == .move else {
            return .failed(DropFailure(.forbidden, words("Folders are moved here, not copied.")))
        }
        var groups: [(source: FilesFolder, names: [String])] = []
        for id in ids {
            guard let moving = folder(id) else { return .failed(DropFailure(.failed, words("That folder is gone."))) }
            let parts = moving.path.split(separator: "/")
            guard parts.count > 1, let source = try? library.folder(parts.dropLast().joined(separator: "/")) else {
                return .failed(
                    DropFailure(
                        .forbidden, words("{name} is a top-level folder: it stays where it is.", ["name": moving.name]))
                )
            }
            guard source != destination else {
                return .failed(
                    DropFailure(
                        .forbidden,
                        words("{name} is already in {folder}.", ["name": moving.name, "folder": destination.name])))
            }
            if let at = groups.firstIndex(where: { $0.source == source }) {
                groups[at].names.append(moving.name)
            } else {
                groups.append((source, [moving.name]))
            }
        }
        var actions: [UndoableAction] = []
        do {
            for group in groups {
                if let action = try library.move(group.names, from: group.source, to: destination).action {
                    actions.append(action)
                }
            }
        } catch {
            for action in actions.reversed() { action.undo() }
            rebuild()
            return .failed(DropFailure(.failed, Sentence.explaining(words("Could not move"), error)))
        }
        let openBefore = expanded
        // The folder it went into opens (its new row shows), and the moved rows keep theirs.
        expanded?.insert(row)
        let openAfter = expanded
        rebuild()
        return .committed(
            undo: UndoableAction(
                undo: { [weak self] in
                    for action in actions.reversed() { action.undo() }
                    self?.expanded = openBefore
                    self?.rebuild()
                },
                redo: { [weak self] in
                    for action in actions { action.redo() }
                    self?.expanded = openAfter
                    self?.rebuild()
                }))
    }

    /// `action`, telling the columns to list again after each undo and redo.
    private func refreshing(_ action: UndoableAction) -> UndoableAction {
        UndoableAction(
            undo: { [weak self] in
                action.undo()
                self?.onFilesChanged?()
            },
            redo: { [weak self] in
                action.redo()
                self?.onFilesChanged?()
            })
    }
}
