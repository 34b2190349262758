import CGtk4
import DragDrop
import Foundation

/// Dragged items as files for the apps that take only files (browsers' upload zones, file
/// managers, Qt apps): an item whose `ItemProvider/suggestedName` is set and that offers no
/// `text/uri-list` of its own also offers `text/uri-list` naming a file of its richest
/// representation visible to every app that is not plain text ("Beach.png", "House and
/// Sun.pdf", "Ana Sousa.vcf").
///
/// The file is written only when another app asks for the list **after the drop** (P5):
/// Chromium and Firefox read every offered type as soon as a drag enters their window, so a
/// request before the drop gets the address the file will have, where a file of the right size
/// holds only zeros (Firefox takes an address as a file only if it exists when it reads it, with
/// the size it has then), the content waiting in a hidden file beside it; the drop (GDK's
/// `drop-performed`) renames the content into place, once per drag.
///
/// Files live in a private cache (``directory``, mode 0700; by default
/// `$XDG_CACHE_HOME/dragdrop-exports/<app>`), one directory per drag named
/// `drag-<time>-<process>-<id>`. The receiving app may read a file long after the drop (a web
/// page uploads a dropped `File` when the person presses Send), and the transfer must survive
/// this app quitting (P3), so files another app took are not deleted at the drop or at quit:
/// every new drag, and the first drag of a later session, sweeps the drag directories older
/// than ``retention`` (default one hour). A drag that ends anywhere else (cancelled, dropped in
/// this app, refused by the other app) has its directory removed when it ends; a drag that
/// wrote nothing leaves nothing behind.
@MainActor
public final class FileExport {
    /// The private cache holding the drags' files.
    public var directory: URL
    /// How long a drag's files are kept after it (seconds).
    public var retention: TimeInterval = 3600
    /// Lines for logs and tests ("export file written …").
    var diagnose: @MainActor (String) -> Void = { _ in }
    /// The files of the drag in progress (or last ended).
    private(set) var current: ExportedFiles?

    /// Creates the export with its cache `directory`.
    public init(directory: URL) { self.directory = directory }

    /// `$XDG_CACHE_HOME/dragdrop-exports/<app>` (else `~/.cache/…`).
    public static func defaultDirectory(
        for app: AppID, environment: [String: String] = ProcessInfo.processInfo.environment
    )
        -> URL
    {
        let cache =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSTemporaryDirectory()).appendingPathComponent(".cache")
        return cache.appendingPathComponent("dragdrop-exports").appendingPathComponent(
            fileName(app.rawValue, fallback: "app"))
    }

    // MARK: The drag's providers

    /// `providers` with a file form added where an item has one (see the type's summary); starts
    /// a new drag's set of files and sweeps old ones.
    func addingFileForms(to providers: [ItemProvider]) -> [ItemProvider] {
        // One listing of a small directory per drag: cheap enough at a drag's start.
        sweep()
        let files = ExportedFiles(root: directory, diagnose: diagnose)
        current = files
        var names: Set<String> = []
        return providers.map { provider in
            guard let name = provider.suggestedName,
                !provider.representations.contains(where: { $0.type == .uriList }),
                let source = provider.representations.first(where: {
                    $0.visibility == .everyone
                        && ($0.type.mediaType != "text" || Self.documentTextTypes.contains($0.type.essence))
                })
            else { return provider }
            let file = Self.uniqueName(
                Self.fileName(name, fallback: "Item") + "." + Self.fileExtension(source.type), &names)
            let index = files.add(name: file, representation: source)
            var provider = provider
            provider.representations.append(
                Representation(.uriList) { try await files.address(of: index) })
            return provider
        }
    }

    /// How long the drop may wait for the files another app was already told about
    /// (seconds).
    public var dropWriteTimeout: Double = 5

    /// GDK's `drop-performed` for our drag, emitted before GDK tells the other app about the
    /// drop (XdndDrop): requests from now on write the files, and the files whose addresses
    /// were already handed out (Chromium asks at enter and never again) are written now,
    /// running GLib's loop for at most ``dropWriteTimeout`` seconds, so they exist when the other
    /// app looks. A file still unwritten then is finished in the background.
    func dropPerformed() {
        guard let files = current else { return }
        files.dropPerformed = true
        diagnose("export drop performed planned=\(files.plannedUnwritten)")
        let pending = files.writePlanned()
        guard pending > 0 else { return }
        let deadline = Date().addingTimeInterval(dropWriteTimeout)
        while !files.plannedWritten, Date() < deadline {
            if g_main_context_iteration(nil, 0) == 0 { usleep(1000) }
        }
        if !files.plannedWritten { diagnose("export files still writing after \(dropWriteTimeout) s") }
    }

    /// The drag is over. Files another app took stay for ``retention`` (it may read them long
    /// after the drop, P3); files of a drag that ended anywhere else (in this app, cancelled,
    /// refused by the other app) are removed now, so no `drag-*` folder outlives such a drag.
    func dragEnded(handedOff: Bool) {
        guard let files = current else { return }
        current = nil
        if handedOff { return }
        if files.removeDirectory() { diagnose("export removed name=\(files.directory.lastPathComponent)") }
    }

    /// Removes the drag directories older than ``retention`` (those of earlier drags and
    /// earlier sessions, and the folders other apps saved files into through X Direct Save);
    /// returns their names. Only directories named like ours are touched, and links are
    /// removed, never followed.
    @discardableResult
    public func sweep(now: Date = Date()) -> [String] {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory.path) else { return [] }
        var removed: [String] = []
        for name in names.sorted() where name.hasPrefix(ExportedFiles.prefix) || name.hasPrefix(DirectSave.prefix) {
            let path = directory.appendingPathComponent(name).path
            guard let attributes = try? manager.attributesOfItem(atPath: path),
                attributes[.type] as? FileAttributeType == .typeDirectory,
                let modified = attributes[.modificationDate] as? Date,
                now.timeIntervalSince(modified) > retention
            else { continue }
            if current?.directory.lastPathComponent == name { continue }
            if (try? manager.removeItem(atPath: path)) != nil { removed.append(name) }
        }
        if !removed.isEmpty { diagnose("export swept \(removed.count) old drags") }
        return removed
    }

    // MARK: Names

    /// A file name from an item's name: no `/`, no NUL or control character, no leading dot,
    /// at most 120 characters; `fallback` when nothing is left.
    static func fileName(_ name: String, fallback: String) -> String {
        var cleaned = String(
            name.unicodeScalars.map { scalar -> Character in
                scalar == "/" || scalar.properties.generalCategory == .control ? "-" : Character(scalar)
            })
        cleaned = cleaned.trimmingCharacters(in: .whitespaces)
        while cleaned.hasPrefix(".") { cleaned.removeFirst() }
        if cleaned.count > 120 { cleaned = String(cleaned.prefix(120)) }
        return cleaned.isEmpty ? fallback : cleaned
    }

    /// Text types that are documents of their own (a contact card, a calendar, a table): an
    /// item offering one becomes a file of it. Other text (plain, HTML) is offered as text only:
    /// a browser or an editor given a file beside it would take the file.
    static let documentTextTypes: Set<String> = ["text/vcard", "text/x-vcard", "text/calendar", "text/csv"]

    /// The extension of a file holding `type`.
    static func fileExtension(_ type: ContentType) -> String {
        if let format = ImageFormat.allCases.first(where: { $0.contentType == type }) { return format.fileExtension }
        switch type.essence {
        case "application/pdf": return "pdf"
        case "image/svg+xml": return "svg"
        case "text/vcard", "text/x-vcard": return "vcf"
        case "text/calendar": return "ics"
        default:
            let subtype = type.essence.split(separator: "/").last.map(String.init) ?? "bin"
            let plain = subtype.filter { $0.isLetter || $0.isNumber }
            return plain.isEmpty ? "bin" : String(plain.prefix(10))
        }
    }

    private static func uniqueName(_ name: String, _ taken: inout Set<String>) -> String {
        var candidate = name
        var n = 2
        while taken.contains(candidate.lowercased()) {
            let ext = (name as NSString).pathExtension
            let stem = (name as NSString).deletingPathExtension
            candidate = ext.isEmpty ? "\(stem) \(n)" : "\(stem) \(n).\(ext)"
            n += 1
        }
        taken.insert(candidate.lowercased())
        return candidate
    }
}

/// The files of one drag: planned names, written at most once each, only after the drop.
@MainActor
final class ExportedFiles {
    static let prefix = "drag-"

    let directory: URL
    /// Whether GDK performed the drop (requests may write from now on).
    var dropPerformed = false
    private var items: [(name: String, representation: Representation)] = []
    private var writes: [Int: Task<Void, any Error>] = [:]
    /// Contents written before the drop, beside their addresses (``stage(_:)``).
    private var stages: [Int: Task<Void, any Error>] = [:]
    /// Items whose address was handed out before the drop.
    private var planned: Set<Int> = []
    /// Items whose content is staged and whose address holds the zeros (ready for the rename).
    private var staged: Set<Int> = []
    private var written: Set<Int> = []
    private let diagnose: @MainActor (String) -> Void

    init(root: URL, diagnose: @escaping @MainActor (String) -> Void) {
        let stamp = Int(Date().timeIntervalSince1970)
        directory = root.appendingPathComponent(
            "\(Self.prefix)\(stamp)-\(getpid())-\(UUID().uuidString.prefix(8).lowercased())")
        self.diagnose = diagnose
    }

    func add(name: String, representation: Representation) -> Int {
        items.append((name, representation))
        return items.count - 1
    }

    /// Removes this drag's directory (and its files), stopping writes still running; returns
    /// whether there was one. Links inside are removed, never followed.
    func removeDirectory() -> Bool {
        for write in writes.values { write.cancel() }
        for stage in stages.values { stage.cancel() }
        guard FileManager.default.fileExists(atPath: directory.path) else { return false }
        return (try? FileManager.default.removeItem(at: directory)) != nil
    }

    /// The file's path.
    func path(of index: Int) -> URL { directory.appendingPathComponent(items[index].name) }

    /// The `text/uri-list` line naming item `index`'s file; writes the file first once the drop
    /// was performed, stages it before (``stage(_:)``).
    func address(of index: Int) async throws -> RepresentationContent {
        let url = path(of: index)
        if dropPerformed {
            try await startWrite(index).value
        } else {
            planned.insert(index)
            diagnose("export file planned name=\(items[index].name)")
            do {
                try await stage(index).value
            } catch {
                diagnose("export file not staged name=\(items[index].name) reason=\(error)")
            }
        }
        return .data(Data((url.absoluteString + "\r\n").utf8))
    }

    /// For an address handed out before the drop: Chromium and Firefox read the list as a drag
    /// enters, and Firefox takes an address as a file only if the file exists then, with the
    /// size it has then. So the content is written to a hidden file beside it, and the address
    /// names a file of the same size holding only zeros; the drop renames the content into place
    /// (P5: the other app can read no byte of it before the drop).
    private func stage(_ index: Int) -> Task<Void, any Error> {
        if let stage = stages[index] { return stage }
        let url = path(of: index)
        let hidden = stagedPath(of: index)
        let stage = Task { @MainActor in
            let size = try await self.write(index, to: hidden)
            let manager = FileManager.default
            guard !manager.fileExists(atPath: url.path) else { return }
            guard manager.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown)
            }
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            try handle.truncate(atOffset: UInt64(size))
            self.staged.insert(index)
        }
        stages[index] = stage
        return stage
    }

    /// Where item `index`'s content waits for the drop (a hidden file beside its address).
    private func stagedPath(of index: Int) -> URL { directory.appendingPathComponent(".\(items[index].name).staged") }

    /// Starts writing the planned files; returns how many are not written yet. A staged file
    /// takes its address's place at once, before this returns: on Wayland the other app hears of
    /// the drop at the same moment as we do (the compositor tells both), and a browser that read
    /// the file a few milliseconds later found the zeros (a fresh-clone run under weston).
    func writePlanned() -> Int {
        for index in planned.sorted() where writes[index] == nil {
            if staged.contains(index) {
                let result = Result { try moveStaged(index) }
                if case .failure(let error) = result {
                    diagnose("export file failed name=\(items[index].name) reason=\(error)")
                }
                writes[index] = Task { try result.get() }
                written.insert(index)
            } else {
                _ = startWrite(index)
            }
        }
        return plannedUnwritten
    }

    /// Renames item `index`'s staged content onto its address, in one step.
    private func moveStaged(_ index: Int) throws {
        let url = path(of: index)
        let staged = stagedPath(of: index)
        let size = (try? FileManager.default.attributesOfItem(atPath: staged.path)[.size] as? Int) ?? 0
        guard rename(staged.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        diagnose("export file written name=\(items[index].name) bytes=\(size) path=\(url.path)")
    }

    /// How many files whose address was handed out are not written yet.
    var plannedUnwritten: Int { planned.subtracting(written).count }

    /// Whether every planned file is written (or failed).
    var plannedWritten: Bool { planned.isSubset(of: written) }

    private func startWrite(_ index: Int) -> Task<Void, any Error> {
        if let write = writes[index] { return write }
        let url = path(of: index)
        let write = Task { @MainActor in
            defer { self.written.insert(index) }
            do {
                if let stage = self.stages[index], (try? await stage.value) != nil {
                    // Staged before the drop: the content takes the address's place in one rename.
                    try self.moveStaged(index)
                } else {
                    let size = try await self.write(index, to: url)
                    self.diagnose("export file written name=\(self.items[index].name) bytes=\(size) path=\(url.path)")
                }
            } catch {
                self.diagnose("export file failed name=\(self.items[index].name) reason=\(error)")
                throw error
            }
        }
        writes[index] = write
        return write
    }

    /// Writes item `index`'s content to `url` (through a temporary file renamed into place);
    /// returns its size.
    @discardableResult
    private func write(_ index: Int, to url: URL) async throws -> Int64 {
        let manager = FileManager.default
        try manager.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // The cache root too: only this user may list what was dragged.
        try? manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.deletingLastPathComponent().path)
        let representation = items[index].representation
        let source = try await representation.produce().source()
        let sink = try FileSink(destination: url.path)
        return try await ChunkedCopier().copy(from: source, to: sink, type: representation.type)
    }
}

extension GtkDragHost {
    func makeFileExport() -> FileExport {
        let export = FileExport(directory: FileExport.defaultDirectory(for: engine.app))
        export.diagnose = { [weak self] line in self?.diagnose(line) }
        return export
    }

    /// Tells ``fileExport`` when GDK performs the drop of our drag `drag` (its files may be
    /// written from then on).
    func watchDropPerformed(_ drag: UnsafeMutableRawPointer) {
        GSignal.connect(drag, "drop-performed") { [weak self] in self?.fileExport.dropPerformed() }
    }
}
