import CDragDropGTKSupport
import CGtk4
import Foundation

/// The file transfer portal as a sandboxed app uses it (run inside `bwrap` with a
/// `.flatpak-info`, the portal takes this app for a Flatpak): files offered by their transfer
/// key, and a drop's files retrieved by the key it carries, as paths under the portal's mount.
@MainActor
enum Portal {
    /// The portal's type names.
    static let mimeTypes = ["application/vnd.portal.filetransfer", "application/vnd.portal.files"]

    private final class Box {
        let done: @MainActor (Result<[String], CommandError>) -> Void
        init(_ done: @escaping @MainActor (Result<[String], CommandError>) -> Void) { self.done = done }
    }

    /// Opens a transfer of `paths`: `done` gets its key (one element).
    static func register(_ paths: [String], done: @escaping @MainActor (Result<[String], CommandError>) -> Void) {
        let callback: GAsyncReadyCallback = { _, result, data in
            guard let data else { return }
            let box = Unmanaged<Box>.fromOpaque(data).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let key = dd_portal_register_files_finish(result, &error)
            let outcome: Result<[String], CommandError> = key.map { .success([String(cString: $0)]) }
                ?? .failure(CommandError(portalMessage(error)))
            g_free(key)
            MainActor.assumeIsolated { box.done(outcome) }
        }
        var pointers: [UnsafeMutablePointer<CChar>?] = paths.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { array in
                dd_portal_register_files_async(array, 0, nil, callback, Unmanaged.passRetained(Box(done)).toOpaque())
            }
        }
    }

    /// The paths of the transfer `key`.
    static func retrieve(_ key: String, done: @escaping @MainActor (Result<[String], CommandError>) -> Void) {
        let callback: GAsyncReadyCallback = { _, result, data in
            guard let data else { return }
            let box = Unmanaged<Box>.fromOpaque(data).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let outcome: Result<[String], CommandError>
            if let list = dd_portal_retrieve_files_finish(result, &error) {
                var paths: [String] = []
                var index = 0
                while let path = list[index] {
                    paths.append(String(cString: path))
                    index += 1
                }
                g_strfreev(list)
                outcome = .success(paths)
            } else {
                outcome = .failure(CommandError(portalMessage(error)))
            }
            MainActor.assumeIsolated { box.done(outcome) }
        }
        dd_portal_retrieve_files_async(key, nil, callback, Unmanaged.passRetained(Box(done)).toOpaque())
    }
}

/// A failed portal call's message (frees the error).
private func portalMessage(_ error: UnsafeMutablePointer<GError>?) -> String {
    defer { if let error { g_error_free(error) } }
    return error?.pointee.message.map { String(cString: $0) } ?? "the portal failed"
}
