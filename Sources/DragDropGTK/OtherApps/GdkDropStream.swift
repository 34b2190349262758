import CDragDropGTKSupport
import CGtk4
import DragDrop
import Foundation

/// One type of another app's drop, read in chunks with `gdk_drop_read_async` and
/// `g_input_stream_read_bytes_async` on the main actor, without blocking GTK's loop.
///
/// Reads fail (never hang) when the other app goes away (``cancel(reason:)``) or sends nothing
/// for `timeout` seconds (``ReadSilence``, in the same words as ``X11DropStream``); the
/// destination then gets ``TransferError/sourceUnavailable(_:)``.
@MainActor
final class GdkDropStream: ByteSource {
    nonisolated let knownSize: Int64? = nil
    private let drop: GObjectRef
    private let mimeType: String
    private let silence: ReadSilence
    private let cancellable: GObjectRef?
    private var input: GObjectRef?
    private var ended = false
    private var failure: String?
    /// The GIO call in progress.
    private var current: GAsync.Call?

    init(drop: GObjectRef, mimeType: String, timeout: Double) {
        self.drop = drop
        self.mimeType = mimeType
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
        if input == nil, current != nil { releaseSelectionRead() }
        current?.abandon(GIOFailure(message: reason, cancelled: true))
    }

    /// Ends GDK's waiting X11 read of this type (the X targets GDK may have asked for it).
    private func releaseSelectionRead() {
        var targets = [mimeType]
        if mimeType.hasPrefix("text/plain") { targets += ["UTF8_STRING", "STRING", "TEXT", "COMPOUND_TEXT", "text/plain"] }
        guard let surface = gdk_drop_get_surface(OpaquePointer(drop.raw)) else { return }
        withCStrings(targets) { array in
            dd_x11_release_selection_reads(surface, "XdndSelection", array, gsize(targets.count))
        }
    }

    private var gCancellable: UnsafeMutablePointer<GCancellable>? { cancellable?.pointer(to: GCancellable.self) }

    private func next(_ maxLength: Int) async throws(TransferError) -> Data {
        if ended { return Data() }
        if let failure { throw .sourceUnavailable(failure) }
        if input == nil { try await open() }
        guard let stream = input?.raw else { return Data() }
        let count = max(1, maxLength)
        let bits = try await guarded(
            GAsync.Call(
                finish: { source, result in
                    var error: UnsafeMutablePointer<GError>?
                    let bytes = g_input_stream_read_bytes_finish(
                        source?.assumingMemoryBound(to: GInputStream.self), result, &error)
                    guard let bytes else {
                        return .failure(GIOFailure(error, fallback: "Reading the dropped data failed."))
                    }
                    return .success(UInt(bitPattern: UnsafeMutableRawPointer(bytes)))
                },
                discard: { bits in if let bytes = OpaquePointer(bitPattern: bits) { g_bytes_unref(bytes) } })
        ) { callback, data in
            g_input_stream_read_bytes_async(
                stream.assumingMemoryBound(to: GInputStream.self), gsize(count), 0, self.gCancellable, callback, data)
        }
        guard let bytes = OpaquePointer(bitPattern: bits) else { return Data() }
        defer { g_bytes_unref(bytes) }
        var size: gsize = 0
        let chunk = g_bytes_get_data(bytes, &size).map { Data(bytes: $0, count: Int(size)) } ?? Data()
        if chunk.isEmpty {
            ended = true
            if let stream = input?.raw {
                g_input_stream_close(stream.assumingMemoryBound(to: GInputStream.self), nil, nil)
            }
            input = nil
        }
        return chunk
    }

    /// Asks the other app for the data (`gdk_drop_read_async`).
    private func open() async throws(TransferError) {
        let drop = drop.raw
        let mime = mimeType
        let bits = try await guarded(
            GAsync.Call(
                finish: { source, result in
                    var error: UnsafeMutablePointer<GError>?
                    let stream = gdk_drop_read_finish(OpaquePointer(source), result, nil, &error)
                    guard let stream else {
                        return .failure(GIOFailure(error, fallback: "The other app sent no data."))
                    }
                    return .success(UInt(bitPattern: UnsafeMutableRawPointer(stream)))
                },
                discard: { bits in if let stream = UnsafeMutableRawPointer(bitPattern: bits) { g_object_unref(stream) }
                })
        ) { callback, data in
            withCStrings([mime]) { types in
                gdk_drop_read_async(OpaquePointer(drop), types, 0, self.gCancellable, callback, data)
            }
        }
        input = GObjectRef(adopting: UnsafeMutableRawPointer(bitPattern: bits))
    }

    /// Runs one GIO call, abandoned if nothing comes back within `timeout` seconds or when
    /// ``cancel(reason:)`` is called (X11 selection streams ignore their cancellable); maps
    /// failures to ``TransferError``.
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
