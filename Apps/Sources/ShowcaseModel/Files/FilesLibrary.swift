import DragDrop
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder of the Files pane: a real directory under the library's root, named by its path
/// relative to the root ("Documents", "Documents/Receipts").
public struct FilesFolder: Sendable, Hashable, CustomStringConvertible {
    /// The path relative to the library's root, components joined by `/`.
    public let path: String
    /// Whether the folder (or the top-level folder it is in) is write-only: content goes in but
    /// cannot be listed or taken out, so a drop into it cannot be undone.
    public let writeOnly: Bool

    /// The folder's own name (its last path component).
    public var name: String { path.split(separator: "/").last.map(String.init) ?? path }
    /// The path's components.
    var components: [String] { path.split(separator: "/").map(String.init) }

    /// Whether a drop into the folder must be confirmed first because it cannot be undone (U2).
    public var requiresConfirmation: Bool { writeOnly }

    /// The drag-and-drop target identifier of the folder (`"files:Documents/Receipts"`).
    public var targetID: TargetID { TargetID("files:\(path)") }

    /// The target identifier of the file `name` in this folder (`"file:Documents/a.txt"`).
    public func fileTargetID(_ name: String) -> TargetID { TargetID("file:\(path)/\(name)") }

    public var description: String { path }
}

/// One entry of a folder listing.
public struct FileEntry: Sendable, Hashable {
    /// What the entry is.
    public enum Kind: String, Sendable, Hashable {
        /// A regular file.
        case file
        /// A subfolder.
        case folder
        /// A symbolic link (shown, never followed).
        case symlink
        /// A pipe, socket or device.
        case other
    }
    /// The file name.
    public var name: String
    /// What it is.
    public var kind: Kind
    /// Its size in bytes (for files).
    public var size: Int64
}

/// A committed Files operation: where the items ended up and how to undo it.
public struct FilesEdit {
    /// The undo step's name: "Move 2 Files", "Copy File".
    public var name: String
    /// The destination folder.
    public var folder: FilesFolder
    /// The items' names in the destination, in order (a name that was taken gets " 2", " 3"…).
    public var names: [String]
    /// Reverts and re-applies the operation exactly; nil when the destination is write-only
    /// (the drop was confirmed because it cannot be undone, U2).
    public var action: UndoableAction?
}

/// The Files pane: a real folder on disk (default ``ShowcasePaths/filesRoot(environment:)``)
/// whose top-level folders are the pane's folders.
///
/// - Listing is by name (case-insensitive, numbers in numeric order, "a.txt" before
///   "a 2.txt"); order is not stored: a folder sorted by name has nothing to reorder, so a
///   move "within" a folder is a move into one of its subfolders.
/// - ``move(_:from:to:confirmed:)`` renames (one atomic `rename` per item, never replacing:
///   a taken name becomes "name 2.ext"); ``copy(_:from:to:confirmed:onProgress:)`` and
///   ``importDropped(uriList:into:confirmed:onProgress:)`` copy bytes in bounded chunks.
/// - Nothing ever follows a symbolic link: folders are opened with `O_NOFOLLOW` component by
///   component, files are checked with `lstat` and opened with `O_NOFOLLOW`, and every write
///   is relative to the destination folder's descriptor, to a new name.
/// - A copy is written to a hidden temporary file in the destination and renamed into place
///   only when all items are complete: no partial file is ever visible, and on any failure the
///   destination is left exactly as it was (A6).
/// - Undo of a copy or import moves the copies into a hidden stash (`.undo` in the root) with
///   an atomic rename; redo renames them back under their exact names. Undo of a move renames
///   back. The stash is emptied when a library is opened (undo does not outlive the app).
public final class FilesLibrary: Sendable {
    /// A top-level folder to create.
    public struct FolderSpec: Sendable, Hashable {
        /// The directory name.
        public var name: String
        /// Whether it is write-only.
        public var writeOnly: Bool
        /// Creates a spec.
        public init(name: String, writeOnly: Bool = false) {
            self.name = name
            self.writeOnly = writeOnly
        }
    }

    /// The library's root directory.
    public let root: URL
    /// The top-level folders, in the order given.
    public let folders: [FilesFolder]
    /// The largest chunk read at once when copying.
    public let chunkSize: Int

    static let stashName = ".undo"
    private let failures = Mutex<(handler: (@Sendable (FilesError) -> Void)?, last: FilesError?)>((nil, nil))

    /// Opens the library at `root`, creating it and the top-level folders as needed, and
    /// empties the undo stash. With `seed`, a folder created now gets a few sample files.
    public init(root: URL, folders: [FolderSpec], chunkSize: Int = 1 << 20, seed: Bool = false) throws(FilesError) {
        precondition(chunkSize > 0, "chunkSize must be positive")
        self.root = root
        self.chunkSize = chunkSize
        var made: [FilesFolder] = []
        for spec in folders {
            guard Self.sanitizedFileName(spec.name) == spec.name else { throw .invalidName(spec.name) }
            made.append(FilesFolder(path: spec.name, writeOnly: spec.writeOnly))
        }
        self.folders = made
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: root, withIntermediateDirectories: true)
            let stash = root.appendingPathComponent(Self.stashName)
            var st = stat()
            if lstat(stash.path, &st) == 0 { try fm.removeItem(at: stash) }
            try fm.createDirectory(at: stash, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .io(path: root.path, reason: String(describing: error))
        }
        let rootDirectory = try SafeFS.openDirectory(root.path, in: nil, display: root.path)
        for spec in folders {
            if try SafeFS.lstatAt(rootDirectory, spec.name) != nil { continue }
            guard mkdirat(rootDirectory.fd, spec.name, 0o755) == 0 else {
                throw .io(path: spec.name, reason: errnoText())
            }
            if seed { try Self.seedFiles(spec.name, rootDirectory) }
        }
    }

    /// Opens the library with the Files pane's folders as the store lists them (their keys
    /// are the directory names; the write-only flag comes from the collection's flags).
    public convenience init(
        root: URL = ShowcasePaths.filesRoot(), store: ShowcaseStore, extraFolders: [FolderSpec] = [],
        chunkSize: Int = 1 << 20, seed: Bool = true
    ) throws(FilesError) {
        let collections: [ShowcaseCollection]
        do { collections = try store.collections(in: .files) } catch {
            throw .io(path: store.path, reason: error.description)
        }
        try self.init(
            root: root,
            folders: collections.map { FolderSpec(name: $0.key ?? $0.name, writeOnly: $0.flags.contains(.writeOnly)) }
                + extraFolders,
            chunkSize: chunkSize, seed: seed)
    }

    // MARK: Failures of undo

    /// Called when an undo or redo fails (a file it needs is gone, or its name was taken): it
    /// changed nothing; the app should tell the user.
    public var onUndoFailure: (@Sendable (FilesError) -> Void)? {
        get { failures.withLock { $0.handler } }
        set { failures.withLock { $0.handler = newValue } }
    }

    /// The most recent undo or redo failure.
    public var lastUndoFailure: FilesError? { failures.withLock { $0.last } }

    private func report(_ error: FilesError) {
        let handler = failures.withLock { state in
            state.last = error
            return state.handler
        }
        handler?(error)
    }

    // MARK: Folders

    /// The folder at `path` relative to the root ("Documents/Receipts"); it must exist.
    public func folder(_ path: String) throws(FilesError) -> FilesFolder {
        let components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let top = components.first, let spec = folders.first(where: { $0.path == top }) else {
            throw .noSuchFolder(path)
        }
        for component in components where Self.sanitizedFileName(component) != component {
            throw .invalidName(component)
        }
        let folder = FilesFolder(path: components.joined(separator: "/"), writeOnly: spec.writeOnly)
        _ = try directory(folder)
        return folder
    }

    /// The folder a drop target names (``FilesFolder/targetID``), or nil.
    public func folder(for target: TargetID) -> FilesFolder? {
        guard target.rawValue.hasPrefix("files:") else { return nil }
        return try? folder(String(target.rawValue.dropFirst("files:".count)))
    }

    /// The folder and name a file's drag target names (``FilesFolder/fileTargetID(_:)``), or nil.
    ///
    /// A Files pane performs a drop of its own files with ``move(_:from:to:confirmed:)`` (at
    /// once: ``DropResult/committed(undo:cancellation:)``) or with
    /// ``copy(_:from:to:confirmed:onProgress:)``, which is asynchronous: it answers
    /// ``DropResult/deferred(placeholders:)`` and completes the drop when the copy ends, so the
    /// app never blocks (A4) and a failed copy reports why (A6).
    public func file(for target: TargetID) -> (folder: FilesFolder, name: String)? {
        guard target.rawValue.hasPrefix("file:") else { return nil }
        let path = target.rawValue.dropFirst("file:".count)
        guard let slash = path.lastIndex(of: "/"), let folder = try? folder(String(path[..<slash])) else { return nil }
        let name = String(path[path.index(after: slash)...])
        guard !name.isEmpty, !name.hasPrefix(".") else { return nil }
        return (folder, name)
    }

    /// Creates a subfolder (not undoable; setup).
    @discardableResult
    public func createSubfolder(_ name: String, in parent: FilesFolder) throws(FilesError) -> FilesFolder {
        guard Self.sanitizedFileName(name) == name else { throw .invalidName(name) }
        let directory = try directory(parent)
        guard mkdirat(directory.fd, name, 0o755) == 0 else { throw .io(path: "\(parent.path)/\(name)", reason: errnoText()) }
        return FilesFolder(path: "\(parent.path)/\(name)", writeOnly: parent.writeOnly)
    }

    /// The folder's entries, sorted by name; hidden entries (starting with ".") are left out.
    /// A write-only folder cannot be listed.
    public func contents(of folder: FilesFolder) throws(FilesError) -> [FileEntry] {
        guard !folder.writeOnly else { throw .writeOnly(folder: folder.name) }
        return try entries(of: folder)
    }

    /// The folder's regular files in listing order, each with its ``listingKey(_:)`` (to place
    /// a file that arrives later without listing again). A write-only folder cannot be listed.
    public func files(of folder: FilesFolder) throws(FilesError) -> (names: [String], keys: [String]) {
        guard !folder.writeOnly else { throw .writeOnly(folder: folder.name) }
        let sorted = try keyedEntries(of: folder).filter { $0.entry.kind == .file }
        return (sorted.map(\.entry.name), sorted.map(\.key))
    }

    /// The entries of any folder, write-only included (for tests and maintenance).
    func entries(of folder: FilesFolder, includeHidden: Bool = false) throws(FilesError) -> [FileEntry] {
        try keyedEntries(of: folder, includeHidden: includeHidden).map(\.entry)
    }

    private func keyedEntries(of folder: FilesFolder, includeHidden: Bool = false) throws(FilesError) -> [(
        key: String, entry: FileEntry
    )] {
        let directory = try directory(folder)
        let copy = dup(directory.fd)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            throw .io(path: folder.path, reason: errnoText())
        }
        defer { closedir(stream) }
        var result: [FileEntry] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name == "." || name == ".." || (!includeHidden && name.hasPrefix(".")) { continue }
            guard let st = try SafeFS.lstatAt(directory, name) else { continue }
            let kind: FileEntry.Kind =
                st.isRegular ? .file : st.isDirectory ? .folder : st.isSymlink ? .symlink : .other
            result.append(FileEntry(name: name, kind: kind, size: Int64(st.st_size)))
        }
        // Sorted by a key made once per name (Foundation's numeric, case-insensitive compare
        // took 8.6 s for 100,000 names in a release build; the keys take a fraction of that).
        return result.map { (key: Self.listingKey($0.name), entry: $0) }.sorted { $0.key < $1.key }
    }

    /// A key whose order is the listing order (``listsBefore(_:_:)`` for names of letters, digits
    /// and punctuation): the base name then the extension, lowercased (accents folded), each run of digits padded
    /// to 20 digits (numbers in numeric order), the name itself last (ties).
    public static func listingKey(_ name: String) -> String {
        let (base, ext) = split(name)
        var key = ""
        key.reserveCapacity(name.utf8.count + 48)
        func append(_ part: String) {
            var digits = ""
            func flush() {
                guard !digits.isEmpty else { return }
                let trimmed = digits.drop { $0 == "0" }
                if trimmed.count < 20 { key += String(repeating: "0", count: 20 - trimmed.count) }
                key += trimmed
                digits = ""
            }
            // Accented letters sort with their base letters, as in the comparison.
            let folded =
                part.utf8.allSatisfy { $0 < 0x80 }
                ? part.lowercased() : part.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            for character in folded {
                if character.isASCII, character.isNumber {
                    digits.append(character)
                } else {
                    flush()
                    key.append(character)
                }
            }
            flush()
        }
        append(base)
        key += "\u{1}"
        append(ext)
        key += "\u{1}"
        key += name
        return key
    }

    /// Listing order: by base name, then extension, case-insensitively with numbers in numeric
    /// order, so "notes.txt" comes before "notes 2.txt" and "notes 10.txt" after it.
    static func listsBefore(_ a: String, _ b: String) -> Bool {
        let (baseA, extA) = split(a)
        let (baseB, extB) = split(b)
        let options: String.CompareOptions = [.caseInsensitive, .numeric]
        switch baseA.compare(baseB, options: options) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame:
            let byExtension = extA.compare(extB, options: options)
            return byExtension == .orderedSame ? a < b : byExtension == .orderedAscending
        }
    }

    /// Opens a folder's directory, component by component, never following a link.
    func directory(_ folder: FilesFolder) throws(FilesError) -> Descriptor {
        try directory(components: folder.components, display: folder.path)
    }

    private func directory(components: [String], display: String) throws(FilesError) -> Descriptor {
        if components.first == Self.outside {
            // Another app's folder (a file moved in from it goes back there on undo).
            let path = "/" + components.dropFirst().joined(separator: "/")
            return try SafeFS.openDirectory(path, in: nil, display: path)
        }
        var current = try SafeFS.openDirectory(root.path, in: nil, display: root.path)
        for component in components {
            current = try SafeFS.openDirectory(component, in: current, display: display)
        }
        return current
    }

    /// How a ``Rename``'s directory is named in a message: its path in the library, or its
    /// absolute path outside it.
    static func shown(_ components: [String]) -> String {
        components.first == outside
            ? "/" + components.dropFirst().joined(separator: "/") : components.joined(separator: "/")
    }

    /// The first of a ``Rename``'s directory components when the directory is outside the
    /// library, named by its absolute path (no file name can be "/").
    static let outside = "/"

    private func stash() throws(FilesError) -> Descriptor {
        try directory(components: [Self.stashName], display: Self.stashName)
    }

    // MARK: Names

    /// A safe file name for `suggested`: no `/` or control characters (each becomes "-"),
    /// no bidirectional formatting characters (removed: ``BidiControls``, so the name cannot
    /// show another extension than its own), no leading dots (no hidden files, no `.` or `..`),
    /// no surrounding spaces, at most 255 bytes (the extension kept); "Untitled" when nothing
    /// is left.
    public static func sanitizedFileName(_ suggested: String) -> String {
        var name = String(
            String.UnicodeScalarView(
                BidiControls.neutralized(suggested).unicodeScalars.map { scalar in
                    scalar == "/" || scalar.value < 0x20 || scalar.value == 0x7F ? "-" : scalar
                }))
        name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        while name.hasPrefix(".") { name.removeFirst() }
        name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { return "Untitled" }
        if name.utf8.count > 255 {
            let (base, ext) = split(name)
            let room = 255 - ext.utf8.count
            var cut = base
            while cut.utf8.count > room { cut.removeLast() }
            name = cut + ext
        }
        return name
    }

    /// "name 2.ext" for `name` = "name.ext" and `n` = 2.
    static func numbered(_ name: String, _ n: Int) -> String {
        if n == 1 { return name }
        let (base, ext) = split(name)
        return "\(base) \(n)\(ext)"
    }

    /// The base name and the extension (with its dot, or "").
    private static func split(_ name: String) -> (String, String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }

    private static func checkPlainName(_ name: String) throws(FilesError) {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0") else {
            throw .invalidName(name)
        }
    }

    // MARK: Renames with rollback

    /// One rename between two directories of the library (relative component paths).
    struct Rename: Sendable {
        var fromDirectory: [String]
        var from: String
        var toDirectory: [String]
        var to: String
        /// The file the rename is about (a rename keeps it): an undo or redo that finds another
        /// file under the name refuses rather than moving someone else's file.
        var identity: FileIdentity?
        var reversed: Rename {
            Rename(fromDirectory: toDirectory, from: to, toDirectory: fromDirectory, to: from, identity: identity)
        }
    }

    /// A file's device and inode numbers, size and modification time: a rename keeps them
    /// all, while a file written in its place differs in at least one even when the system
    /// reuses the inode number (and an edited copy counts as another file: undo refuses to
    /// stash away someone's edits).
    struct FileIdentity: Sendable, Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedSeconds: Int64
        var modifiedNanoseconds: Int64
        init(_ st: stat) {
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
            size = Int64(st.st_size)
            #if canImport(Darwin)
                modifiedSeconds = Int64(st.st_mtimespec.tv_sec)
                modifiedNanoseconds = Int64(st.st_mtimespec.tv_nsec)
            #else
                modifiedSeconds = Int64(st.st_mtim.tv_sec)
                modifiedNanoseconds = Int64(st.st_mtim.tv_nsec)
            #endif
        }
    }

    /// Performs renames in order, each atomic and never replacing; if one fails, the ones done
    /// are renamed back (last first) and the failure is thrown.
    func renameAll(_ renames: [Rename]) throws(FilesError) {
        var done: [Rename] = []
        do throws(FilesError) {
            for rename in renames {
                let source = try directory(components: rename.fromDirectory, display: Self.shown(rename.fromDirectory))
                let destination = try directory(components: rename.toDirectory, display: Self.shown(rename.toDirectory))
                guard let st = try SafeFS.lstatAt(source, rename.from) else {
                    throw FilesError.undoUnavailable("\(rename.from) is no longer in \(Self.shown(rename.fromDirectory))")
                }
                if let identity = rename.identity, identity != FileIdentity(st) {
                    throw FilesError.undoUnavailable("\(rename.from) was replaced or changed")
                }
                guard try SafeFS.renameNoReplace(source, rename.from, destination, rename.to) else {
                    throw FilesError.undoUnavailable("\(rename.to) exists again in \(Self.shown(rename.toDirectory))")
                }
                done.append(rename)
            }
        } catch {
            for rename in done.reversed() {
                let back = rename.reversed
                if let source = try? directory(components: back.fromDirectory, display: ""),
                    let destination = try? directory(components: back.toDirectory, display: "")
                {
                    _ = try? SafeFS.renameNoReplace(source, back.from, destination, back.to)
                }
            }
            throw error
        }
    }

    /// An undo action for renames: undo runs them reversed (last first), redo runs them again.
    private func undoable(_ renames: [Rename]) -> UndoableAction {
        let state = AppliedFlag()
        return UndoableAction(
            undo: { [self] in
                guard state.applied else { return }
                do throws(FilesError) {
                    try renameAll(renames.reversed().map(\.reversed))
                    state.applied = false
                } catch { report(error) }
            },
            redo: { [self] in
                guard !state.applied else { return }
                do throws(FilesError) {
                    try renameAll(renames)
                    state.applied = true
                } catch { report(error) }
            })
    }

    // MARK: Operations

    private func checkDestination(_ folder: FilesFolder, confirmed: Bool) throws(FilesError) {
        if folder.writeOnly, !confirmed { throw .confirmationRequired(folder: folder.name) }
    }

    /// Moves entries (files or folders) from one folder to another of the library: one atomic
    /// rename each, never replacing (a taken name becomes "name 2.ext"). All or nothing: if
    /// one fails, those already moved go back. Undo renames them back to their exact names.
    ///
    /// A write-only destination needs `confirmed` (U2) and gives no undo; a write-only source
    /// cannot be moved out of.
    public func move(_ names: [String], from source: FilesFolder, to destination: FilesFolder, confirmed: Bool = false)
        throws(FilesError) -> FilesEdit
    {
        guard !source.writeOnly else { throw .writeOnly(folder: source.name) }
        guard source.path != destination.path else { throw .sameFolder(source.name) }
        try checkDestination(destination, confirmed: confirmed)
        for name in names { try Self.checkPlainName(name) }
        if names.contains(where: { destination.path == "\(source.path)/\($0)" || destination.path.hasPrefix("\(source.path)/\($0)/") }) {
            throw .invalidName("a folder cannot be moved into itself")
        }
        let from = try directory(source)
        let to = try directory(destination)
        var done: [Rename] = []
        do throws(FilesError) {
            for name in names {
                guard let st = try SafeFS.lstatAt(from, name) else { throw FilesError.noSuchFile("\(source.path)/\(name)") }
                var n = 1
                while true {
                    let candidate = Self.numbered(name, n)
                    if try SafeFS.renameNoReplace(from, name, to, candidate) {
                        done.append(
                            Rename(
                                fromDirectory: source.components, from: name, toDirectory: destination.components, to: candidate,
                                identity: FileIdentity(st)))
                        break
                    }
                    n += 1
                    guard n < 10_000 else { throw FilesError.io(path: destination.path, reason: "no free name for \(name)") }
                }
            }
        } catch {
            for rename in done.reversed() { _ = try? SafeFS.renameNoReplace(to, rename.to, from, rename.from) }
            throw error
        }
        fsync(to.fd)
        fsync(from.fd)
        return FilesEdit(
            name: ShowcaseStore.actionName("Move", names.map { _ in ItemKind.file }), folder: destination,
            names: done.map(\.to), action: destination.writeOnly ? nil : undoable(done))
    }

    /// Copies regular files from one folder to another (or the same one: the copies get
    /// " 2", " 3"…), in bounded chunks, through temporary files renamed into place only when
    /// all are complete. Any failure leaves the destination unchanged (A6). Undo moves the
    /// copies to the stash; redo brings them back under the same names.
    public func copy(
        _ names: [String], from source: FilesFolder, to destination: FilesFolder, confirmed: Bool = false,
        onProgress: (@Sendable (_ name: String, _ copied: Int64, _ total: Int64) -> Void)? = nil
    ) async throws(FilesError) -> FilesEdit {
        guard !source.writeOnly else { throw .writeOnly(folder: source.name) }
        try checkDestination(destination, confirmed: confirmed)
        for name in names { try Self.checkPlainName(name) }
        let from = try directory(source)
        var sources: [(source: any ByteSource, name: String)] = []
        for name in names {
            let (file, st) = try SafeFS.openRegularFile(name, in: from, display: "\(source.path)/\(name)")
            let size = Int64(st.st_size)
            sources.append((DescriptorSource(file, size: size, afterChunk: Self.progress(onProgress, name, size)), name))
        }
        return try await copyIn(sources, to: destination, verb: "Copy")
    }

    /// Copies files dropped from another app as a `text/uri-list` into `folder`, safely:
    ///
    /// - the list is checked by ``ContentValidation/uriList(_:type:)`` and line by line: only
    ///   `file:` URIs of this machine with absolute paths and no `.` or `..` segments (typed
    ///   errors: ``FilesError/relativePath(_:)``, ``FilesError/pathEscape(_:)``,
    ///   ``FilesError/notAFileURI(_:)``, ``FilesError/remoteHost(_:)``);
    /// - every file must be a regular file and is opened without following links
    ///   (``FilesError/symlink(_:)``, ``FilesError/notARegularFile(_:)``,
    ///   ``FilesError/noSuchFile(_:)``), all of them before anything is copied;
    /// - names are sanitized (``sanitizedFileName(_:)``) and never replace anything: a taken
    ///   name becomes "name 2.ext";
    /// - bytes are copied in chunks of ``chunkSize`` to temporary files in the folder, renamed
    ///   into place only when every file is complete; on any failure (a source that shrinks or
    ///   vanishes mid-copy, a full disk…) the folder is left exactly as it was (A6).
    ///
    /// Undo moves the copies to the stash, redo moves them back (no second copy from sources
    /// that may have changed since). A write-only folder needs `confirmed` and gives no undo.
    public func importDropped(
        uriList: String, into folder: FilesFolder, confirmed: Bool = false,
        onProgress: (@Sendable (_ name: String, _ copied: Int64, _ total: Int64) -> Void)? = nil
    ) async throws(FilesError) -> FilesEdit {
        try checkDestination(folder, confirmed: confirmed)
        let paths = try Self.filePaths(fromURIList: uriList)
        var sources: [(source: any ByteSource, name: String)] = []
        for path in paths {
            let (file, st) = try SafeFS.openRegularFile(path, in: nil, display: path)
            let name = (path as NSString).lastPathComponent
            let size = Int64(st.st_size)
            sources.append((DescriptorSource(file, size: size, afterChunk: Self.progress(onProgress, name, size)), name))
        }
        return try await copyIn(sources, to: folder, verb: "Copy")
    }

    /// Moves files another app dragged here with Shift (`text/uri-list`, checked as
    /// ``importDropped(uriList:into:confirmed:onProgress:)`` checks it): each regular file is
    /// renamed into `folder` under a free, sanitized name, atomically and never replacing, so it
    /// leaves the other app's folder as it arrives here. All or nothing: every file is checked
    /// first (a link, a folder, a missing file, a file already in `folder`, or one on another
    /// file system, ``FilesError/otherDisk(_:)``, refuses the whole drop), and if a rename fails
    /// those done go back. Undo renames them back to the other app's folder, under their own
    /// names, if each is still the same file there and its old name is free.
    public func moveDropped(uriList: String, into folder: FilesFolder, confirmed: Bool = false) throws(FilesError)
        -> FilesEdit
    {
        try checkDestination(folder, confirmed: confirmed)
        let paths = try Self.filePaths(fromURIList: uriList)
        let to = try directory(folder)
        var destination = stat()
        guard fstat(to.fd, &destination) == 0 else { throw .io(path: folder.path, reason: errnoText()) }
        var sources: [(directory: Descriptor, components: [String], name: String, st: stat)] = []
        for path in paths {
            let components = path.split(separator: "/").map(String.init)
            guard let name = components.last else { throw .notARegularFile(path) }
            let parent = "/" + components.dropLast().joined(separator: "/")
            let from = try SafeFS.openDirectory(parent, in: nil, display: parent)
            guard let st = try SafeFS.lstatAt(from, name) else { throw .noSuchFile(path) }
            if st.isSymlink { throw .symlink(path) }
            guard st.isRegular else { throw .notARegularFile(path) }
            var parentStat = stat()
            guard fstat(from.fd, &parentStat) == 0 else { throw .io(path: parent, reason: errnoText()) }
            if parentStat.st_dev == destination.st_dev, parentStat.st_ino == destination.st_ino {
                throw .sameFolder(folder.name)
            }
            guard st.st_dev == destination.st_dev else { throw .otherDisk(path) }
            sources.append((from, [Self.outside] + components.dropLast(), name, st))
        }
        var done: [Rename] = []
        do throws(FilesError) {
            for source in sources {
                let wanted = Self.sanitizedFileName(source.name)
                var n = 1
                while true {
                    let candidate = Self.numbered(wanted, n)
                    if try SafeFS.renameNoReplace(source.directory, source.name, to, candidate) {
                        done.append(
                            Rename(
                                fromDirectory: source.components, from: source.name, toDirectory: folder.components,
                                to: candidate, identity: FileIdentity(source.st)))
                        break
                    }
                    n += 1
                    guard n < 10_000 else { throw FilesError.io(path: folder.path, reason: "no free name for \(wanted)") }
                }
            }
        } catch {
            for (rename, source) in zip(done, sources).reversed() {
                _ = try? SafeFS.renameNoReplace(to, rename.to, source.directory, rename.from)
            }
            throw error
        }
        fsync(to.fd)
        for source in sources { fsync(source.directory.fd) }
        return FilesEdit(
            name: ShowcaseStore.actionName("Move", done.map { _ in ItemKind.file }), folder: folder,
            names: done.map(\.to), action: folder.writeOnly ? nil : undoable(done))
    }

    /// Saves content dropped from another app as data (an image, a text clipping) into
    /// `folder` as a new file named after `suggestedName` (sanitized, never replacing), with
    /// the same guarantees and undo as ``importDropped(uriList:into:confirmed:onProgress:)``.
    public func importContent(
        from source: any ByteSource, suggestedName: String, into folder: FilesFolder, confirmed: Bool = false
    ) async throws(FilesError) -> FilesEdit {
        try checkDestination(folder, confirmed: confirmed)
        return try await copyIn([(source, suggestedName)], to: folder, verb: "Copy")
    }

    private static func progress(
        _ handler: (@Sendable (String, Int64, Int64) -> Void)?, _ name: String, _ total: Int64
    ) -> (@Sendable (Int64) -> Void)? {
        guard let handler else { return nil }
        return { copied in handler(name, copied, total) }
    }

    /// Whether a URI list names at least one `file:` address (a browser's list names the web
    /// address of what was dragged).
    public static func namesLocalFile(uriList text: String) -> Bool {
        text.split(whereSeparator: \.isNewline).contains { line in
            line.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("file:")
        }
    }

    /// The absolute paths a URI list names, or the typed error of its first bad line.
    static func filePaths(fromURIList text: String) throws(FilesError) -> [String] {
        var paths: [String] = []
        for raw in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            // Read by Unicode scalars, as the kernel and URL parsers read it: a "/" or "?" that
            // shares a grapheme with the character before it (U+0600 joins what follows) is
            // still a separator, and must not hide a ".." from the checks below.
            let scalars = Substring(line).unicodeScalars
            let isLetter = { (c: Unicode.Scalar) in ("a"..."z").contains(c) || ("A"..."Z").contains(c) }
            guard let colon = scalars.firstIndex(of: ":"), let first = scalars.first, isLetter(first),
                scalars[..<colon].allSatisfy({ isLetter($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
            else {
                throw .relativePath(line)
            }
            let scheme = String(Substring(scalars[..<colon])).lowercased()
            guard scheme == "file" else { throw .notAFileURI(line) }
            var rest = scalars[scalars.index(after: colon)...]
            if rest.starts(with: "//".unicodeScalars) {
                rest = rest.dropFirst(2)
                let host = rest.prefix { $0 != "/" }
                guard host.isEmpty || String(Substring(host)).lowercased() == "localhost" else { throw .remoteHost(line) }
                rest = rest.dropFirst(host.count)
            }
            guard rest.first == "/" else { throw .relativePath(line) }
            if rest.contains("?") || rest.contains("#") { throw .invalidURIList("\(line) has a query or fragment.") }
            var components: [String] = []
            for segment in rest.split(separator: "/", omittingEmptySubsequences: true) {
                guard let decoded = String(Substring(segment)).removingPercentEncoding else {
                    throw .invalidURIList("\(line) is not percent-encoded properly.")
                }
                if decoded == ".." || decoded == "." { throw .pathEscape(line) }
                if decoded.unicodeScalars.contains("/") || decoded.unicodeScalars.contains("\0") {
                    throw .invalidURIList("\(line) has an encoded '/' or NUL in a name.")
                }
                components.append(decoded)
            }
            guard !components.isEmpty else { throw .notARegularFile(line) }
            paths.append("/" + components.joined(separator: "/"))
        }
        guard !paths.isEmpty else { throw .invalidURIList("it names no file.") }
        // The engine's own check, as a second line of defence.
        do { _ = try ContentValidation.uriList(text) } catch { throw .invalidURIList(error.description) }
        return paths
    }

    /// Copies every source to a temporary file in `folder`, then publishes them all under
    /// free, sanitized names; undoes everything on any failure.
    private func copyIn(_ sources: [(source: any ByteSource, name: String)], to folder: FilesFolder, verb: String)
        async throws(FilesError) -> FilesEdit
    {
        let destination = try directory(folder)
        let copier = ChunkedCopier(chunkSize: chunkSize)
        var finished: [(sink: TemporaryFileSink, name: String)] = []
        do throws(FilesError) {
            for (source, name) in sources {
                let sink = try TemporaryFileSink(in: destination, display: folder.path)
                do {
                    try await copier.copy(from: source, to: sink, type: .octetStream)
                } catch {
                    throw FilesError.transfer(error)
                }
                finished.append((sink, Self.sanitizedFileName(name)))
            }
        } catch {
            for (sink, _) in finished { sink.discard() }
            throw error
        }
        var published: [String] = []
        do throws(FilesError) {
            for (sink, name) in finished {
                var n = 1
                while true {
                    let candidate = Self.numbered(name, n)
                    if try SafeFS.renameNoReplace(destination, sink.name, destination, candidate) {
                        published.append(candidate)
                        break
                    }
                    n += 1
                    guard n < 10_000 else { throw FilesError.io(path: folder.path, reason: "no free name for \(name)") }
                }
            }
        } catch {
            for name in published { unlinkat(destination.fd, name, 0) }
            for (sink, _) in finished.dropFirst(published.count) { sink.discard() }
            throw error
        }
        fsync(destination.fd)
        // Redo brings the copies from the stash; the copies are in place now, so undo (the
        // reversed renames) sends them to the stash first.
        let stashed = published.map { _ in UUID().uuidString }
        var renames: [Rename] = []
        for (name, token) in zip(published, stashed) {
            let identity = (try? SafeFS.lstatAt(destination, name)).flatMap { $0.map(FileIdentity.init) }
            renames.append(
                Rename(fromDirectory: [Self.stashName], from: token, toDirectory: folder.components, to: name, identity: identity))
        }
        return FilesEdit(
            name: ShowcaseStore.actionName(verb, published.map { _ in ItemKind.file }), folder: folder, names: published,
            action: folder.writeOnly ? nil : undoable(renames))
    }

    // MARK: Seed

    private static func seedFiles(_ folder: String, _ root: Descriptor) throws(FilesError) {
        let samples: [String: [(String, String)]] = [
            "Documents": [
                ("Meeting notes.txt", "Tuesday: agreed to ship the showcase in April.\n"),
                ("Budget 2026.csv", "month,amount\nJanuary,1200\nFebruary,1150\nMarch,1320\n"),
                ("Packing list.md", "# Lisbon\n- passport\n- charger\n- rain jacket\n"),
            ],
            "Pictures": [("Sketch.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"40\"><circle cx=\"20\" cy=\"20\" r=\"15\"/></svg>\n")],
        ]
        guard let files = samples[folder] else { return }
        let directory = try SafeFS.openDirectory(folder, in: root, display: folder)
        if folder == "Documents" {
            // Folders inside folders, for the folder tree (T1): Projects ▸ 2026, and Trips.
            for path in ["Projects", "Projects/2026", "Trips"] { _ = mkdirat(directory.fd, path, 0o755) }
            let plan = openat(directory.fd, "Projects/2026/Plan.txt", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if plan >= 0 {
                let sink = Descriptor(plan)
                let bytes = Array("Q1: the showcase. Q2: the outline.\n".utf8)
                _ = bytes.withUnsafeBytes { write(sink.fd, $0.baseAddress, $0.count) }
            }
        }
        for (name, text) in files {
            let fd = openat(directory.fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard fd >= 0 else { continue }
            let sink = Descriptor(fd)
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { write(sink.fd, $0.baseAddress, $0.count) }
        }
    }
}

/// Which side of an undo action the files are on.
final class AppliedFlag {
    var applied = true
}
