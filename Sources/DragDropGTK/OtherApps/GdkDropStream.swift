import CDragDropGTKSupport
import CGtk4
import DragDrop
import Foundation

/// One type of another app's drop, read in chunks with `gdk_drop_read_async` and
/// `g_input_stream_read_bytes_async` on the main actor, without blocking GTK's loop.
///
/// Reads fail (never hang) when the other app goes away (``cancel(reason:)``) or sends nothing
/// for `timeout` seconds (``ReadSilence``, in the same words as ``X11DropStream``); the
/// destination then gets `TransferError/sourceUnavailable(_:)`.
///
/// **The end of the data on Wayland** (`confirmsSourceAtEnd`). The data comes through a pipe
/// the other app writes into; when that app quits in the middle, its end of the pipe closes and
/// the read ends exactly as if all of it had arrived. Nothing else tells the destination:
/// the compositor forgets the drag's source without any event on `wl_data_offer` or
/// `wl_data_device` (docs/wayland.md). What the compositor does do is answer a new request for
/// an offer whose source has gone by closing the new pipe at once. So once the data has ended,
/// the same type is asked for again: nothing at all arriving means the other app quit, and
/// the read fails with `ExternalDrop/sourceQuitReason`, as on X11; an app still there starts
/// sending again, and that copy is read to its end and dropped in the background
/// (``drainInBackground(_:)``), without holding the drop up.
/// The same reads serve a paste of another app's clipboard (``ClipboardData``): the clipboard
/// is opened with `gdk_clipboard_read_async` instead.
@MainActor
final class GdkDropStream: ByteSource {
    /// What the data is read from.
    enum Origin {
        /// A `GdkDrop` (another app's drop).
        case drop
        /// A `GdkClipboard` (another app's copy, for a paste).
        case clipboard
    }

    nonisolated let knownSize: Int64? = nil
    private let origin: Origin
    private let drop: GObjectRef
    private let mimeType: String
    private let silence: ReadSilence
    private let cancellable: GObjectRef?
    private let confirmsSourceAtEnd: Bool
    private var input: GObjectRef?
    private var ended = false
    private var received = 0
    private var failure: String?
    /// The GIO call in progress.
    private var current: GAsync.Call?

    /// `confirmsSourceAtEnd`: on Wayland, check at the end of the data that the other app is
    /// still there (see the type's documentation).
    init(
        drop: GObjectRef, mimeType: String, timeout: Double, confirmsSourceAtEnd: Bool = false, origin: Origin = .drop
    ) {
        self.origin = origin
        self.drop = drop
        self.mimeType = mimeType
        self.confirmsSourceAtEnd = confirmsSourceAtEnd
        silence = ReadSilence(seconds: timeout)
        cancellable = GObjectRef(adopting: g_cancellable_new().map { UnsafeMutableRawPointer($0) })
    }

    nonisolated func read(upTo maxLength: Int) async throws -> Data { try await next(maxLength) }

    /// Stops the transfer: the pending and every later read fail with `reason`.
    func cancel(reason: String) {
        guard failure == nil, !ended else { return }
        failure = reason
        if let c = cancellable { g_cancellable_cancel(c.pointer(to: GCancellable.self)) }
        // Still waiting for the other app's first answer: GDK's read would keep listening and
        // take the answer to the next drop of this type (X11SelectionRelease.c).
        if input == nil, current != nil, origin == .drop { releaseSelectionRead() }
        current?.abandon(GIOFailure(message: reason, cancelled: true))
    }

    /// Ends GDK's waiting X11 read of this type (the X targets GDK may have asked for it).
    private func releaseSelectionRead() {
        var targets = [mimeType]
        if mimeType.hasPrefix("text/plain") {
            targets += ["UTF8_STRING", "STRING", "TEXT", "COMPOUND_TEXT", "text/plain"]
        }
        guard let surface = gdk_drop_get_surface(OpaquePointer(drop.raw)) else { return }
        withCStrings(targets) { array in
            dd_x11_release_selection_reads(surface, "XdndSelection", array, gsize(targets.count))
        }
    }

    private var gCancellable: UnsafeMutablePointer<GCancellable>? { cancellable?.pointer(to: GCancellable.self) }

    private func next(_ maxLength: Int) async throws(TransferError) -> Data {
        if let failure { throw .sourceUnavailable(failure) }
        if ended { return Data() }
        if input == nil { input = try await open() }
        guard let stream = input else { return Data() }
        let chunk = try await read(stream, upTo: max(1, maxLength))
        received += chunk.count
        if chunk.isEmpty {
            g_input_stream_close(stream.raw.assumingMemoryBound(to: GInputStream.self), nil, nil)
            input = nil
            // Nothing arrived: nothing can be cut short (and an app still there may send nothing).
            if confirmsSourceAtEnd, received > 0 { try await confirmSourceStillThere() }
            ended = true
        }
        return chunk
    }

    /// At the end of the data on Wayland: asks for the type again. Nothing at all arriving is
    /// the compositor closing the pipe of a source that has gone: the read fails. Otherwise the
    /// second copy is dropped in the background.
    private func confirmSourceStillThere() async throws(TransferError) {
        guard let again = try await open() else { throw .sourceUnavailable(ExternalDrop.sourceQuitReason) }
        let first = try await read(again, upTo: 4096)
        guard first.isEmpty else {
            Self.drainInBackground(again, silence: silence.seconds)
            return
        }
        g_input_stream_close(again.raw.assumingMemoryBound(to: GInputStream.self), nil, nil)
        failure = ExternalDrop.sourceQuitReason
        throw .sourceUnavailable(ExternalDrop.sourceQuitReason)
    }

    /// Reads `stream` to its end and closes it, so that an app still sending its second copy
    /// never writes into a closed pipe; gives up after `silence` seconds without bytes.
    private static func drainInBackground(_ stream: GObjectRef, silence: Double) {
        Task { @MainActor in
            let quiet = ReadSilence(seconds: silence)
            let cancellable = GObjectRef(adopting: g_cancellable_new().map { UnsafeMutableRawPointer($0) })
            let gCancellable = cancellable?.pointer(to: GCancellable.self)
            let input = stream.raw.assumingMemoryBound(to: GInputStream.self)
            while true {
                quiet.arm { _ in g_cancellable_cancel(gCancellable) }
                let skipped = try? await GAsync.call(
                    start: { callback, data in
                        g_input_stream_skip_async(input, 1 << 20, 0, gCancellable, callback, data)
                    },
                    finish: { source, result in
                        var error: UnsafeMutablePointer<GError>?
                        let count = g_input_stream_skip_finish(
                            source?.assumingMemoryBound(to: GInputStream.self), result, &error)
                        if error != nil || count <= 0 {
                            if let error { g_error_free(error) }
                            return .success(0)
                        }
                        return .success(UInt(count))
                    })
                quiet.disarm()
                if (skipped ?? 0) == 0 { break }
            }
            g_input_stream_close(input, nil, nil)
        }
    }

    /// One chunk of `stream` (empty at its end).
    private func read(_ stream: GObjectRef, upTo count: Int) async throws(TransferError) -> Data {
        let raw = stream.raw
        let bits = try await guarded(
            GAsync.Call(
                finish: { source, result in
                    var error: UnsafeMutablePointer<GError>?
                    let bytes = g_input_stream_read_bytes_finish(
                        source?.assumingMemoryBound(to: GInputStream.self), result, &error)
                    guard let bytes else {
                        return .failure(GIOFailure(error, fallback: Localization.format(.readingFailed)))
                    }
                    return .success(UInt(bitPattern: UnsafeMutableRawPointer(bytes)))
                },
                discard: { bits in if let bytes = OpaquePointer(bitPattern: bits) { g_bytes_unref(bytes) } })
        ) { callback, data in
            g_input_stream_read_bytes_async(
                raw.assumingMemoryBound(to: GInputStream.self), gsize(count), 0, self.gCancellable, callback, data)
        }
        guard let bytes = OpaquePointer(bitPattern: bits) else { return Data() }
        defer { g_bytes_unref(bytes) }
        var size: gsize = 0
        return g_bytes_get_data(bytes, &size).map { Data(bytes: $0, count: Int(size)) } ?? Data()
    }

    /// Asks the other app for the data (`gdk_drop_read_async`, or `gdk_clipboard_read_async`
    /// for a paste): the stream to read it from.
    private func open() async throws(TransferError) -> GObjectRef? {
        let drop = drop.raw
        let mime = mimeType
        let origin = origin
        let bits = try await guarded(
            GAsync.Call(
                finish: { source, result in
                    var error: UnsafeMutablePointer<GError>?
                    let stream =
                        origin == .drop
                        ? gdk_drop_read_finish(OpaquePointer(source), result, nil, &error)
                        : gdk_clipboard_read_finish(OpaquePointer(source), result, nil, &error)
                    guard let stream else {
                        return .failure(GIOFailure(error, fallback: Localization.format(.otherAppSentNothing)))
                    }
                    return .success(UInt(bitPattern: UnsafeMutableRawPointer(stream)))
                },
                discard: { bits in if let stream = UnsafeMutableRawPointer(bitPattern: bits) { g_object_unref(stream) }
                })
        ) { callback, data in
            withCStrings([mime]) { types in
                switch origin {
                case .drop: gdk_drop_read_async(OpaquePointer(drop), types, 0, self.gCancellable, callback, data)
                case .clipboard:
                    gdk_clipboard_read_async(OpaquePointer(drop), types, 0, self.gCancellable, callback, data)
                }
            }
        }
        return GObjectRef(adopting: UnsafeMutableRawPointer(bitPattern: bits))
    }

    /// Runs one GIO call, abandoned if nothing comes back within `timeout` seconds or when
    /// ``cancel(reason:)`` is called (X11 selection streams ignore their cancellable); maps
    /// failures to `TransferError`.
    private func guarded(_ call: GAsync.Call, start: (GAsyncReadyCallback, gpointer) -> Void)
        async throws(TransferError)
        -> UInt
    {
        silence.arm { [weak self] reason in self?.cancel(reason: reason) }
        current = call
        defer {
            current = nil
            silence.disarm()
        }
        do {
            return try await call.run(start: start)
        } catch let failure as GIOFailure {
            if let reason = self.failure { throw .sourceUnavailable(reason) }
            throw failure.cancelled ? .cancelled : .sourceUnavailable(failure.message)
        } catch {
            throw .sourceUnavailable("\(error)")
        }
    }
}
