import CDragDropGTKSupport
import CGtk4
import DragDrop
import Foundation

/// The data of one drag, produced only when another app (or a GTK widget) asks for one of its
/// types, at the drop (P1): a `GdkContentProvider` subclass (C) calls ``write(_:to:cancellable:task:)``.
@MainActor
final class LazyExport {
    /// Bytes read from a representation and written to GTK at once.
    static let chunkSize = 64 * 1024

    let plan: ExportPlan
    /// Lines for logs and tests: what was asked for and how much was written.
    let diagnose: @MainActor (String) -> Void

    init(plan: ExportPlan, diagnose: @escaping @MainActor (String) -> Void) {
        self.plan = plan
        self.diagnose = diagnose
    }

    /// A new content provider offering the plan's types (transfer full).
    func makeProvider() -> UnsafeMutableRawPointer? {
        let names = plan.mimeTypes
        let write: DDLazyProviderWrite = { data, mimeType, stream, _, cancellable, task in
            guard let export = CallbackBox<LazyExport>.from(data)?.body else {
                dd_lazy_provider_return(task, "The drag's data is no longer available.")
                return
            }
            let mime = mimeType.map { String(cString: $0) } ?? ""
            let stream = PointerBits(stream.map { UnsafeMutableRawPointer($0) })
            let cancellable = PointerBits(cancellable.map { UnsafeMutableRawPointer($0) })
            let task = PointerBits(task.map { UnsafeMutableRawPointer($0) })
            MainActor.assumeIsolated {
                export.write(mime, to: stream, cancellable: cancellable, task: task)
            }
        }
        let provider = withCStrings(names) { array in
            dd_lazy_provider_new(
                array, gsize(names.count), write, CallbackBox(self).retainedPointer, releaseSourceNotify)
        }
        return provider.map { UnsafeMutableRawPointer($0) }
    }

    /// Writes the entry for `mimeType` to `stream`, chunk by chunk without blocking the main
    /// loop, then completes `task` (success, or the error the reader gets).
    func write(_ mimeType: String, to stream: PointerBits, cancellable: PointerBits, task: PointerBits) {
        guard let entry = plan.entries.first(where: { $0.mimeType == mimeType }) else {
            diagnose("export refused mime=\(mimeType)")
            dd_lazy_provider_return(OpaquePointer(task.pointer), "Only drops inside the app can use \(mimeType).")
            return
        }
        diagnose("export start mime=\(mimeType)")
        Task { @MainActor in
            do {
                let total = try await self.send(entry, to: stream, cancellable: cancellable)
                self.diagnose("export done mime=\(mimeType) bytes=\(total)")
                dd_lazy_provider_return(OpaquePointer(task.pointer), nil)
            } catch {
                self.diagnose("export failed mime=\(mimeType) reason=\(error)")
                dd_lazy_provider_return(OpaquePointer(task.pointer), "\(error)")
            }
        }
    }

    /// Produces every part and writes it; returns the bytes written. A portal entry's parts (a
    /// `text/uri-list`) go to the file transfer portal, and its key is written instead.
    private func send(_ entry: ExportPlan.Entry, to stream: PointerBits, cancellable: PointerBits) async throws -> Int {
        if entry.viaPortal {
            var list = Data()
            try await produce(entry, cancellable: cancellable) { chunk, _ in list.append(chunk) }
            let paths = try FileTransferPortal.paths(inURIList: list)
            guard !paths.isEmpty else { throw GIOFailure(message: Localization.format(.noFilesHere)) }
            let key = try await FileTransferPortal.register(paths)
            diagnose("export portal files=\(paths.count)")
            let bytes = Data(key.utf8) + Data([0])
            try await Self.writeAll(bytes, to: stream, cancellable: cancellable)
            return bytes.count
        }
        var total = 0
        var nextReport = 1 << 20
        try await produce(entry, cancellable: cancellable) { chunk, isSeparator in
            try await Self.writeAll(chunk, to: stream, cancellable: cancellable)
            guard !isSeparator else { return }
            if total == 0 { self.diagnose("export progress mime=\(entry.mimeType) bytes=\(chunk.count)") }
            total += chunk.count
            if total >= nextReport {
                self.diagnose("export progress mime=\(entry.mimeType) bytes=\(total)")
                nextReport += 1 << 20
            }
        }
        return total
    }

    /// Produces `entry`'s parts, handing `body` each chunk in order, and the separator between
    /// parts (marked); stops when the other app cancelled.
    private func produce(
        _ entry: ExportPlan.Entry, cancellable: PointerBits, _ body: (Data, _ isSeparator: Bool) async throws -> Void
    ) async throws {
        for (index, part) in entry.parts.enumerated() {
            if index > 0, !entry.separator.isEmpty { try await body(entry.separator, true) }
            let source = try await part.produce().source()
            while true {
                if let c = cancellable.pointer,
                    g_cancellable_is_cancelled(c.assumingMemoryBound(to: GCancellable.self)) != 0
                {
                    throw GIOFailure(message: Localization.format(.otherAppCancelled), cancelled: true)
                }
                let chunk = try await source.read(upTo: Self.chunkSize)
                if chunk.isEmpty { break }
                try await body(chunk, false)
            }
        }
    }

    /// `g_output_stream_write_all_async` of `data`.
    private static func writeAll(_ data: Data, to stream: PointerBits, cancellable: PointerBits) async throws {
        guard !data.isEmpty, let raw = stream.pointer else { return }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: data.count, alignment: 1)
        data.copyBytes(to: buffer.assumingMemoryBound(to: UInt8.self), count: data.count)
        let bufferBits = PointerBits(buffer)
        let count = data.count
        _ = try await GAsync.call { callback, userData in
            g_output_stream_write_all_async(
                raw.assumingMemoryBound(to: GOutputStream.self), buffer, gsize(count), 0,
                cancellable.pointer?.assumingMemoryBound(to: GCancellable.self), callback, userData)
        } finish: { source, result in
            defer { bufferBits.pointer?.deallocate() }
            var error: UnsafeMutablePointer<GError>?
            let ok = g_output_stream_write_all_finish(
                source?.assumingMemoryBound(to: GOutputStream.self), result, nil, &error)
            return ok != 0 ? .success(0) : .failure(GIOFailure(error, fallback: Localization.format(.writingFailed)))
        }
    }
}
