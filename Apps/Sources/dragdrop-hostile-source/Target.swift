import CGtk4
import DragDropGTK
import Foundation

/// The hostile app as a drop destination (`{"cmd": "target", "behaviour": …}`): its window
/// takes drops of text, HTML, file lists and images, copy or move, and then
///
/// - `finish`: reads the richest type to its end and finishes the drop (a well-behaved app);
/// - `hang`: never reads and never finishes (an app that hung at the drop: the test then stops
///   or kills it);
/// - `read-hang`: reads the first bytes, then neither reads on nor finishes;
/// - `refuse`: reads the richest type to its end, then finishes the drop refusing it (an app
///   that found the data unusable);
/// - `portal`: reads only the file transfer portal's type, as a sandboxed app does, takes the
///   files of its key from the portal, reads them and finishes the drop (refused when the drop
///   offers no portal type). Prints `portal-file path=… bytes=… text=…` for each file.
///
/// Prints `{"kind":"gtk","message":"drop types=… behaviour=…"}` at a drop and
/// `read N bytes of TYPE` / `finished` as it goes.
@MainActor
final class HostileTarget {
    static let types = ["text/uri-list", "text/html", "text/plain;charset=utf-8", "text/plain", "image/png"] + Portal.mimeTypes
    var behaviour = "finish"
    private let log: @MainActor (String) -> Void
    private var kept: [GObjectRef] = []

    init(on widget: UnsafeMutablePointer<GtkWidget>, log: @escaping @MainActor (String) -> Void) {
        self.log = log
        let formats = Self.types.withCStringArray { gdk_content_formats_new($0, guint(Self.types.count)) }
        guard let target = gtk_drop_target_async_new(formats, GdkDragAction(rawValue: GDK_ACTION_COPY.rawValue | GDK_ACTION_MOVE.rawValue))
        else { return }
        let raw = UnsafeMutableRawPointer(target)
        GSignal.connect(
            raw, "drag-motion",
            pointerPointReturningEnum: { drop, _, _ in
                // What a file manager does on one file system: a move when the source allows it.
                guard let drop else { return 0 }
                let actions = gdk_drop_get_actions(OpaquePointer(drop)).rawValue
                return actions & GDK_ACTION_MOVE.rawValue != 0 ? GDK_ACTION_MOVE.rawValue : GDK_ACTION_COPY.rawValue
            })
        GSignal.connect(
            raw, "drop",
            pointerPointReturningBool: { [weak self] drop, _, _ in
                guard let self, let drop else { return false }
                self.dropped(drop)
                return true
            })
        gtk_widget_add_controller(widget, target)
    }

    private func dropped(_ drop: UnsafeMutableRawPointer) {
        let ref = GObjectRef(raw: drop)
        kept.append(ref)  // a hung app never lets go of it
        log("drop behaviour=\(behaviour)")
        guard behaviour != "hang" else { return }
        let candidates = behaviour == "portal" ? Portal.mimeTypes : Self.types
        let offered = candidates.first { type in
            gdk_content_formats_contain_mime_type(gdk_drop_get_formats(OpaquePointer(drop)), type) != 0
        }
        guard let type = offered else {
            log("refused: none of \(candidates) offered")
            gdk_drop_finish(OpaquePointer(drop), GdkDragAction(rawValue: 0))
            return
        }
        let behaviour = behaviour
        Reader(drop: ref, type: type, stopAfterFirst: behaviour == "read-hang") { [weak self] bytes, kept in
            self?.log("read \(bytes) bytes of \(type)")
            if behaviour == "portal" {
                self?.retrieve(key: kept, drop: ref)
                return
            }
            if behaviour == "refuse" {
                gdk_drop_finish(OpaquePointer(ref.raw), GdkDragAction(rawValue: 0))
                self?.log("refused")
                return
            }
            guard behaviour == "finish" else { return }
            let moves = gdk_drop_get_actions(OpaquePointer(ref.raw)).rawValue & GDK_ACTION_MOVE.rawValue != 0
            gdk_drop_finish(OpaquePointer(ref.raw), moves ? GDK_ACTION_MOVE : GDK_ACTION_COPY)
            self?.log("finished")
        }.start()
    }

    /// The files of the portal key in `key` (its bytes up to a NUL), read and printed; then the
    /// drop is finished as a copy, or refused when the portal gives nothing.
    private func retrieve(key bytes: Data, drop: GObjectRef) {
        let key = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        Portal.retrieve(key) { [weak self] outcome in
            switch outcome {
            case .success(let paths):
                for path in paths {
                    let data = FileManager.default.contents(atPath: path) ?? Data()
                    let text = String(decoding: data.prefix(200), as: UTF8.self)
                    self?.log("portal-file path=\(path) bytes=\(data.count) text=\(text)")
                }
                gdk_drop_finish(OpaquePointer(drop.raw), paths.isEmpty ? GdkDragAction(rawValue: 0) : GDK_ACTION_COPY)
                self?.log(paths.isEmpty ? "refused" : "finished")
            case .failure(let error):
                self?.log("portal-failed \(error)")
                gdk_drop_finish(OpaquePointer(drop.raw), GdkDragAction(rawValue: 0))
                self?.log("refused")
            }
        }
    }
}

/// Reads one type of a drop with GIO's asynchronous calls (the main loop keeps running): to
/// its end, or only its first chunk; then `done` with the bytes read.
@MainActor
private final class Reader {
    let drop: GObjectRef
    let type: String
    let stopAfterFirst: Bool
    let done: @MainActor (Int, Data) -> Void
    var stream: UnsafeMutableRawPointer?
    var total = 0
    /// The first bytes read (up to ``keptLimit``).
    var kept = Data()
    static let keptLimit = 1 << 20

    init(drop: GObjectRef, type: String, stopAfterFirst: Bool, done: @escaping @MainActor (Int, Data) -> Void) {
        self.drop = drop
        self.type = type
        self.stopAfterFirst = stopAfterFirst
        self.done = done
    }

    func start() {
        let callback: GAsyncReadyCallback = { source, result, data in
            guard let data else { return }
            let reader = Unmanaged<Reader>.fromOpaque(data).takeRetainedValue()
            let stream = gdk_drop_read_finish(OpaquePointer(source), result, nil, nil)
            MainActor.assumeIsolated {
                guard let stream else { return reader.done(0, Data()) }
                reader.stream = UnsafeMutableRawPointer(stream)
                reader.next()
            }
        }
        let context = Unmanaged.passRetained(self).toOpaque()
        [type].withCStringArray { types in gdk_drop_read_async(OpaquePointer(drop.raw), types, 0, nil, callback, context) }
    }

    private func next() {
        guard let stream else { return }
        let callback: GAsyncReadyCallback = { source, result, data in
            guard let data else { return }
            let reader = Unmanaged<Reader>.fromOpaque(data).takeRetainedValue()
            let bytes = g_input_stream_read_bytes_finish(UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: GInputStream.self), result, nil)
            MainActor.assumeIsolated {
                let size = bytes.map { Int(g_bytes_get_size($0)) } ?? 0
                if let bytes {
                    if reader.kept.count < Reader.keptLimit, let start = g_bytes_get_data(bytes, nil) {
                        reader.kept.append(Data(bytes: start, count: min(size, Reader.keptLimit - reader.kept.count)))
                    }
                    g_bytes_unref(bytes)
                }
                reader.total += size
                if size == 0 || reader.stopAfterFirst {
                    // A hung app holds its stream open.
                    if !reader.stopAfterFirst { g_object_unref(reader.stream) }
                    reader.done(reader.total, reader.kept)
                } else {
                    reader.next()
                }
            }
        }
        g_input_stream_read_bytes_async(
            stream.assumingMemoryBound(to: GInputStream.self), 65536, 0, nil, callback,
            Unmanaged.passRetained(self).toOpaque())
    }
}

extension Array where Element == String {
    /// Calls `body` with a NULL-terminated C array of the strings.
    fileprivate func withCStringArray<R>(_ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { body($0) }
        }
    }
}
