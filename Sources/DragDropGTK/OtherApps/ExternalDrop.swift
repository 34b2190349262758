import CGtk4
import DragDrop
import Foundation

/// A drag from another app over our windows (an external engine session), then, after the
/// drop, its data until GDK's drop is finished.
///
/// Its ``provider`` reads the other app's data only once the engine opened the drop's data
/// (P5: before the drop the destination sees types only), always as a copy (S2). The GDK drop
/// is finished exactly once, success or failure (``finish(accepted:)``), so the other app never
/// waits forever.
@MainActor
final class ExternalDrop {
    /// Why reads fail once the other app is known to have quit (X11: its window went away;
    /// Wayland: ``GdkDropStream``'s check at the end of the data), as the end of a sentence.
    nonisolated static var sourceQuitReason: String { Localization.format(.sourceQuit) }

    /// The `GdkDrop`.
    let drop: GObjectRef
    /// The one item standing for the dragged content.
    let item: DragItem
    /// The X11 window the drag comes from, watched for its app going away.
    let sourceWindow: UInt?
    /// How long a read may wait for bytes.
    let readTimeout: Double
    /// The window the drag is over.
    var window: TargetID
    /// Whether the drag was dropped on us (then only the data transfer remains).
    var dropped = false
    /// What the drop does, as the engine proposed it when it was let go: a move only where
    /// the person held Shift over a destination that carries out other apps' moves (S2).
    var operation: DropOperation = .copy
    /// Whether the GDK drop was finished.
    private(set) var finished = false
    /// Why reads fail from now on (the other app went away).
    private(set) var sourceGoneReason: String?
    /// On X11, how the data is asked for once dropped (set at XdndDrop); nil elsewhere, where
    /// GDK reads it.
    var x11: X11DropSelection?
    /// X Direct Save (``DirectSave``): the file name the source offers to save and the folder
    /// under which it saves it, when its `text/uri-list` comes that way.
    var directSave: (name: String, root: URL)?
    /// The file transfer portal's type the drop offers, when the portal runs: its file list is
    /// read through the portal (``FileTransferPortal``).
    var portalType: ContentType?
    /// The folders XDS saved into, removed when the drop ends (``removeSavedFolders()``).
    var savedFolders: [URL] = []
    private var readers: [any DropReader] = []

    init(drop: GObjectRef, item: DragItem, sourceWindow: UInt?, window: TargetID, readTimeout: Double) {
        self.drop = drop
        self.item = item
        self.sourceWindow = sourceWindow
        self.window = window
        self.readTimeout = readTimeout
    }

    /// The item's data: one lazily read representation per offered type, richest first.
    var provider: ItemProvider {
        ItemProvider(
            app: item.app,
            representations: item.types.map { type in
                if let portalType, type == .uriList {
                    return Representation(type) { [self] in try await self.portalContent(portalType) }
                }
                if let directSave, type == .uriList {
                    return Representation(type) { [self] in
                        try await self.directSaveContent(name: directSave.name, root: directSave.root)
                    }
                }
                return Representation(type) { [self] in
                    OtherAppText.content(type, stream: try await self.openStream(type.mimeType))
                }
            })
    }

    /// Starts reading `mimeType` from the other app: from XdndSelection on X11 when the source
    /// offers it there (``X11DropStream``), otherwise through GDK (``GdkDropStream``).
    func openStream(_ mimeType: String) throws(TransferError) -> any ByteSource {
        if let reason = sourceGoneReason { throw .sourceUnavailable(reason) }
        guard !finished else { throw .accessFinished }
        if let x11, let request = x11.request(for: mimeType) {
            let stream = X11DropStream(
                selection: x11, mimeType: mimeType, target: request.target, latin1: request.latin1,
                timeout: readTimeout)
            readers.append(stream)
            return stream
        }
        let stream = GdkDropStream(
            drop: drop, mimeType: mimeType, timeout: readTimeout, confirmsSourceAtEnd: x11 == nil && isWayland)
        readers.append(stream)
        return stream
    }

    /// Whether the drop comes through a Wayland compositor.
    private var isWayland: Bool { DisplayBackend.isWayland(gdk_drop_get_display(OpaquePointer(drop.raw))) }

    /// `reader`, stopped with the others when the other app goes away or the drop ends.
    func tracked<Reader: DropReader>(_ reader: Reader) -> Reader {
        readers.append(reader)
        return reader
    }

    /// The other app went away: every read in progress or to come fails with `reason`.
    func sourceGone(_ reason: String) {
        guard sourceGoneReason == nil else { return }
        sourceGoneReason = reason
        for reader in readers { reader.cancel(reason: reason) }
    }

    /// Tells the other app the drop is over (`gdk_drop_finish`): a copy, or a move for a drop
    /// that moved (``operation``), when `accepted`; refused otherwise. Reads still running are
    /// stopped. Later calls do nothing.
    func finish(accepted: Bool) {
        guard !finished else { return }
        finished = true
        for reader in readers { reader.cancel(reason: Localization.format(.dropIsOver)) }
        readers = []
        let action = !accepted ? 0 : operation == .move ? GDK_ACTION_MOVE.rawValue : GDK_ACTION_COPY.rawValue
        gdk_drop_finish(OpaquePointer(drop.raw), GdkDragAction(rawValue: action))
    }

    /// The drop's files through the file transfer portal: the key the other app sent under
    /// `portalType`, and the paths the portal gives for it, as a `text/uri-list`. When the portal
    /// gives nothing, the drop's own `text/uri-list`, if it offers one (paths in a sandbox are
    /// often of the sandbox only, so the portal comes first).
    func portalContent(_ portalType: ContentType) async throws(TransferError) -> RepresentationContent {
        do throws(TransferError) {
            let bytes = try await readAll(
                openStream(portalType.mimeType), limit: FileTransferPortal.keyLimit + 1, type: portalType.mimeType)
            let paths = try await FileTransferPortal.retrieve(FileTransferPortal.key(from: bytes))
            guard !paths.isEmpty else {
                throw .malformed(type: portalType.mimeType, reason: Localization.format(.transferHoldsNoFiles))
            }
            return .data(FileTransferPortal.uriList(paths))
        } catch {
            guard offersOwnURIList else { throw error }
            return OtherAppText.content(.uriList, stream: try openStream(ContentType.uriList.mimeType))
        }
    }

    /// Whether the other app offers a `text/uri-list` of its own.
    private var offersOwnURIList: Bool {
        guard let formats = gdk_drop_get_formats(OpaquePointer(drop.raw)) else { return false }
        return gdk_content_formats_contain_mime_type(formats, ContentType.uriList.mimeType) != 0
    }

    /// Every byte of `source`, at most `limit` (more is an error naming `type`).
    func readAll(_ source: any ByteSource, limit: Int, type: String) async throws(TransferError) -> Data {
        var data = Data()
        while data.count <= limit {
            let chunk: Data
            do { chunk = try await source.read(upTo: 1 << 16) } catch let error as TransferError { throw error } catch {
                throw .sourceUnavailable(error.localizedDescription)
            }
            if chunk.isEmpty { return data }
            data.append(chunk)
        }
        throw .tooLarge(type: type, limit: Int64(limit), size: Int64(data.count))
    }
}
