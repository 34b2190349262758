import CDragDropGTKSupport
import CGtk4
import DragDropGTK
import Foundation
import Glibc

/// Writes one representation to the reading app's stream, the way its behaviour says, without
/// blocking the main loop (`g_output_stream_write_all_async`, chunk after chunk).
@MainActor
final class Writer {
    static let chunkSize = 64 * 1024
    /// Writers still running (a silent or trickling one runs until the app quits).
    private static var running: [ObjectIdentifier: Writer] = [:]

    private let representation: Offer.Representation
    private let stream: UnsafeMutablePointer<GOutputStream>
    private let task: OpaquePointer?
    private let log: @MainActor (String) -> Void
    private var written = 0
    private var nextReport = 1 << 20
    private var finished = false

    init(
        _ representation: Offer.Representation, stream: UnsafeMutablePointer<GOutputStream>, task: OpaquePointer?,
        log: @escaping @MainActor (String) -> Void
    ) {
        self.representation = representation
        self.stream = stream
        self.task = task
        self.log = log
        g_object_ref(stream)
    }

    func start() {
        Self.running[ObjectIdentifier(self)] = self
        log("write-start type=\(representation.type) behaviour=\(representation.behaviour.rawValue)")
        switch representation.behaviour {
        case .silent:
            break  // never a byte, never the end
        case .send:
            writeNext(upTo: representation.bytes.count)
        case .trickle, .die:
            writeNext(upTo: min(representation.after, representation.bytes.count))
        case .late:
            GLibSource.once(afterMilliseconds: representation.interval) { [weak self] in
                guard let self else { return }
                self.log("late-start")
                self.writeNext(upTo: self.representation.bytes.count)
            }
        }
    }

    /// Writes the next chunk of the bytes below `limit`; at `limit`, goes on as the behaviour
    /// says.
    private func writeNext(upTo limit: Int) {
        guard written < limit else {
            reachedLimit()
            return
        }
        let count = min(Self.chunkSize, limit - written)
        write(representation.bytes.subdata(in: written..<(written + count))) { [weak self] in
            guard let self else { return }
            self.written += count
            if self.written >= self.nextReport {
                self.log("write-progress bytes=\(self.written)")
                self.nextReport += 1 << 20
            }
            if self.representation.flush {
                self.flush { [weak self] in self?.writeNext(upTo: limit) }
            } else {
                self.writeNext(upTo: limit)
            }
        }
    }

    private func reachedLimit() {
        switch representation.behaviour {
        case .send, .silent, .late:
            finish(error: nil)
        case .die:
            log("dying bytes=\(written)")
            kill(getpid(), SIGKILL)
        case .trickle:
            trickle()
        }
    }

    /// One byte every `interval` ms, cycling through the bytes, until the reader goes away;
    /// with `flush`, each byte is flushed (on X11, one INCR piece each: a stream that never
    /// goes quiet, given up only at the reader's deadline).
    private func trickle() {
        guard !finished else { return }
        let bytes = representation.bytes.isEmpty ? Data("x".utf8) : representation.bytes
        GLibSource.once(afterMilliseconds: representation.interval) { [weak self] in
            guard let self, !self.finished else { return }
            let index = bytes.startIndex + self.written % bytes.count
            self.write(bytes.subdata(in: index..<(index + 1))) { [weak self] in
                guard let self else { return }
                self.written += 1
                if self.written % 50 == 0 { self.log("trickle bytes=\(self.written)") }
                if self.representation.flush {
                    self.flush { [weak self] in self?.trickle() }
                } else {
                    self.trickle()
                }
            }
        }
    }

    private func finish(error: String?) {
        guard !finished else { return }
        finished = true
        if let error {
            log("write-failed bytes=\(written) reason=\(error)")
        } else {
            log("write-done bytes=\(written)")
        }
        dd_lazy_provider_return(task, error)
        g_object_unref(stream)
        Self.running[ObjectIdentifier(self)] = nil
    }

    // MARK: GIO

    private final class Pending {
        let buffer: UnsafeMutableRawPointer
        let done: @MainActor () -> Void
        weak var writer: Writer?
        init(buffer: UnsafeMutableRawPointer, done: @escaping @MainActor () -> Void, writer: Writer) {
            self.buffer = buffer
            self.done = done
            self.writer = writer
        }
    }

    /// `g_output_stream_flush_async`, then `done` (or the transfer fails).
    private func flush(done: @escaping @MainActor () -> Void) {
        let pending = Unmanaged.passRetained(
            Pending(buffer: UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1), done: done, writer: self)
        ).toOpaque()
        let callback: GAsyncReadyCallback = { source, result, data in
            guard let data else { return }
            let pending = Unmanaged<Pending>.fromOpaque(data).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let ok = g_output_stream_flush_finish(
                UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: GOutputStream.self), result, &error)
            var message: String?
            if ok == 0 {
                message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "flush failed"
                if let error { g_error_free(error) }
            }
            pending.buffer.deallocate()
            MainActor.assumeIsolated {
                if let message {
                    pending.writer?.finish(error: message)
                } else {
                    pending.done()
                }
            }
        }
        g_output_stream_flush_async(stream, 0, nil, callback, pending)
    }

    /// `g_output_stream_write_all_async` of `data`, then `done` (or the transfer fails).
    private func write(_ data: Data, done: @escaping @MainActor () -> Void) {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(1, data.count), alignment: 1)
        data.copyBytes(to: buffer.assumingMemoryBound(to: UInt8.self), count: data.count)
        let pending = Unmanaged.passRetained(Pending(buffer: buffer, done: done, writer: self)).toOpaque()
        let callback: GAsyncReadyCallback = { source, result, data in
            guard let data else { return }
            let pending = Unmanaged<Pending>.fromOpaque(data).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let ok = g_output_stream_write_all_finish(
                UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: GOutputStream.self), result, nil, &error)
            var message: String?
            if ok == 0 {
                message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "write failed"
                if let error { g_error_free(error) }
            }
            pending.buffer.deallocate()
            MainActor.assumeIsolated {
                if let message {
                    pending.writer?.finish(error: message)
                } else {
                    pending.done()
                }
            }
        }
        g_output_stream_write_all_async(stream, buffer, gsize(data.count), 0, nil, callback, pending)
    }
}
