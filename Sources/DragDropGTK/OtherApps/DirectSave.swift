import CDragDropGTKSupport
import CGtk4
import DragDrop
import Foundation

/// X Direct Save (XDS, `XdndDirectSave0`) into this app, on X11: a drag whose content is not a
/// file yet (an entry of an archive open in Engrampa or File Roller) and that offers no file list
/// (no `application/octet-stream` either) is taken as a `text/uri-list` of the files its source
/// saves for us.
///
/// The source names the file on its drag window; at the drop we give it the address of a new
/// private folder (``folder(in:)``, beside the drag exports, mode 0700) and ask for the
/// `XdndDirectSave0` target. Its answer is one byte: `S`, it saves there itself (archive
/// managers extract the entries into that folder once the drag has ended, so the drop is
/// finished at once and the files are awaited: ``awaitFiles(in:timeout:appName:)``); `F` or `E`,
/// the target is to write the file from `application/octet-stream` under the offered name.
/// Chromium offers XDS beside an image's address and bytes and always answers `F`: its drags are
/// read through those forms (``ImageIntake``), not this way. The destination then copies the files in as it copies any file list, and
/// the folder is removed when the drop ends (or, if this app quit first, by the next drag's
/// sweep, ``FileExport/sweep(now:)``).
enum DirectSave {
    /// The XDS target and window property.
    static let property = "XdndDirectSave0"
    /// The private folders' name prefix.
    static let prefix = "saved-"
    /// The longest file name read from the source's property.
    static let nameLimit = 4096
    /// How long the files may take to start arriving, or to change, once the source said it
    /// saves them (seconds).
    static let arrivalTimeout: Double = 60

    /// The file name the drag from X11 window `source` offers to save, cleaned to one file name,
    /// when it lists `XdndDirectSave0` among `targets`; nil otherwise (or off X11).
    @MainActor
    static func offeredName(source: UInt, targets: [String]) -> String? {
        guard targets.contains(property), let display = gdk_display_get_default(),
            let raw = dd_x11_text_property(display, gulong(source), property, gsize(nameLimit))
        else { return nil }
        defer { g_free(raw) }
        let name = String(decoding: Data(bytes: raw, count: strlen(raw)), as: UTF8.self)
        return FileExport.fileName(BidiControls.neutralized(name), fallback: "Saved file")
    }

    /// A new private folder under `root` for one drop's files.
    static func folder(in root: URL) throws(TransferError) -> URL {
        let stamp = Int(Date().timeIntervalSince1970)
        let folder = root.appendingPathComponent(
            "\(prefix)\(stamp)-\(getpid())-\(UUID().uuidString.prefix(8).lowercased())")
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .io(path: folder.path, reason: error.localizedDescription)
        }
        return folder
    }

    /// A `text/uri-list` of the entries directly in `folder`, sorted by name.
    static func uriList(of folder: URL) -> String {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        return names.map { folder.appendingPathComponent($0).absoluteString + "\r\n" }.joined()
    }

    /// Waits until the files another app saves into `folder` have arrived: something is there,
    /// nothing in it changed between two looks 250 ms apart, and no process has a file in it
    /// open. Fails when nothing arrives, or nothing changes while unfinished, for `timeout`
    /// seconds.
    static func awaitFiles(in folder: URL, timeout: Double, appName: String) async throws(TransferError) {
        var last: Snapshot?
        var lastChange = Date()
        while true {
            if Task.isCancelled { throw .cancelled }
            let now = await Task.detached { Snapshot(of: folder) }.value
            if now != last {
                last = now
                lastChange = Date()
            } else if !now.entries.isEmpty, !now.busy {
                return
            }
            if Date().timeIntervalSince(lastChange) > timeout {
                let words: [String: MessageArgument] = [
                    "app": .name(appName), "duration": .text(Localization.duration(seconds: timeout.rounded())),
                ]
                throw .sourceUnavailable(
                    Localization.format(now.entries.isEmpty ? .saidWouldSave : .stoppedSaving, words))
            }
            try? await Task.sleep(nanoseconds: 250_000_000)
        }
    }

    /// What a folder holds (every entry below it, with size and time) and whether any process
    /// has one of its files open.
    struct Snapshot: Equatable, Sendable {
        var entries: [String: [Int64]] = [:]
        var busy = false

        init(of folder: URL) {
            let manager = FileManager.default
            if let walker = manager.enumerator(atPath: folder.path) {
                var count = 0
                while let name = walker.nextObject() as? String, count < 10_000 {
                    count += 1
                    var info = stat()
                    guard lstat(folder.appendingPathComponent(name).path, &info) == 0 else { continue }
                    entries[name] = [Int64(info.st_size), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec)]
                }
            }
            busy = Self.openByAnyProcess(below: folder.path + "/")
        }

        /// Whether a process this user can see has a file below `prefix` open.
        static func openByAnyProcess(below prefix: String) -> Bool {
            guard let processes = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return false }
            var target = [CChar](repeating: 0, count: 4096)
            for pid in processes where pid.first?.isNumber == true {
                let fds = "/proc/\(pid)/fd"
                guard let entries = try? FileManager.default.contentsOfDirectory(atPath: fds) else { continue }
                for fd in entries {
                    let length = readlink("\(fds)/\(fd)", &target, target.count)
                    guard length > 0 else { continue }
                    let path = target[..<length].map { UInt8(bitPattern: $0) }
                    if String(decoding: path, as: UTF8.self).hasPrefix(prefix) { return true }
                }
            }
            return false
        }
    }
}

extension ExternalDrop {
    /// Item content read through X Direct Save (``DirectSave``): the files the source saves for
    /// us, as a `text/uri-list` naming them, in a new private folder under `root`.
    func directSaveContent(name: String, root: URL) async throws(TransferError) -> RepresentationContent {
        guard let x11, let source = sourceWindow, let display = gdk_display_get_default() else {
            throw .sourceUnavailable(Localization.format(.saveOnlyOverX11))
        }
        if let reason = sourceGoneReason { throw .sourceUnavailable(reason) }
        let folder = try DirectSave.folder(in: root)
        savedFolders.append(folder)
        let file = folder.appendingPathComponent(name)
        guard dd_x11_set_text_property(display, gulong(source), DirectSave.property, file.absoluteString) != 0 else {
            throw .sourceUnavailable(ExternalDrop.sourceQuitReason)
        }
        let answer: Data
        do throws(TransferError) {
            // Tracked: the other app quitting, or the drop ending, stops the wait for its answer.
            answer = try await readAll(
                tracked(
                    X11DropStream(
                        selection: x11, mimeType: DirectSave.property, target: DirectSave.property, latin1: false,
                        timeout: readTimeout)), limit: 64, type: DirectSave.property)
        } catch {
            if let reason = sourceGoneReason { throw .sourceUnavailable(reason) }
            answer = Data()  // refused: it saved nothing
        }
        let named = item.app == GtkDragHost.unknownOtherApp ? nil : item.app.rawValue
        // `S`: it saves the files itself, once its drag has ended: end it now. `F` or `E` asks us
        // to write its `application/octet-stream`; sources that offer one are not read this way.
        guard answer.first == UInt8(ascii: "S") else {
            throw .sourceUnavailable(
                named.map { Localization.format(.couldNotSaveNamed, ["app": .name($0)]) }
                    ?? Localization.format(.couldNotSave))
        }
        finish(accepted: true)
        try await DirectSave.awaitFiles(
            in: folder, timeout: DirectSave.arrivalTimeout, appName: named ?? Localization.format(.theOtherApp))
        return .data(Data(DirectSave.uriList(of: folder).utf8))
    }

    /// Removes the folders XDS saved into (their files were copied in, or the drop failed).
    func removeSavedFolders() {
        for folder in savedFolders { try? FileManager.default.removeItem(at: folder) }
        savedFolders = []
    }

}
