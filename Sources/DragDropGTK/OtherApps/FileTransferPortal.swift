import CDragDropGTKSupport
import CGtk4
import DragDrop
import Foundation

/// Files to and from sandboxed apps (Flatpak) through the file transfer portal
/// (`org.freedesktop.portal.FileTransfer`, served by `xdg-document-portal`), as GTK 4 apps
/// exchange them: a sandboxed app cannot open the paths of a `text/uri-list` from outside its
/// sandbox, and the paths it lists are often of its own sandbox, meaningless outside.
///
/// Giving: a drag whose files are offered as `text/uri-list` also offers
/// `application/vnd.portal.filetransfer` (and GTK 4.6's `application/vnd.portal.files`), first,
/// while the portal runs: asked for those bytes, we open a transfer of the files with the portal
/// (read-only: the other app gets copies of its rights, not our files to change) and send its
/// key. Taking: a drop offering one of those types is read as a file list the portal hands us
/// for its key; when that fails, the drop's own `text/uri-list` is read, if it has one.
///
/// The portal is used only while its service runs (its bus name is watched, never started, as
/// GTK does), so where there are no portals nothing changes.
@MainActor
enum FileTransferPortal {
    /// The portal's type names, current first.
    nonisolated static let mimeTypes = ["application/vnd.portal.filetransfer", "application/vnd.portal.files"]
    /// The longest key read from another app (the portal's keys are 20 digits or so).
    nonisolated static let keyLimit = 256

    /// Starts watching for the portal (once per process).
    static func watch() { dd_portal_watch() }

    /// Whether the portal's service runs now.
    static var isAvailable: Bool { dd_portal_available() != 0 }

    /// Whether `type` is one of the portal's types.
    nonisolated static func isPortalType(_ type: ContentType) -> Bool { mimeTypes.contains(type.essence) }

    /// The portal type among another app's offered `types`, when it offers one.
    nonisolated static func offered(in types: [ContentType]) -> ContentType? { types.first(where: isPortalType) }

    /// The transfer key in the bytes another app sent under a portal type: printable ASCII,
    /// ended by a NUL (or by the end of the data), at most ``keyLimit`` bytes.
    nonisolated static func key(from data: Data) throws(TransferError) -> String {
        let body = data.prefix { $0 != 0 }
        let type = mimeTypes[0]
        guard !body.isEmpty else { throw .malformed(type: type, reason: Localization.format(.noTransferKey)) }
        guard body.count <= keyLimit else {
            throw .tooLarge(type: type, limit: Int64(keyLimit), size: Int64(body.count))
        }
        guard body.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .malformed(type: type, reason: Localization.format(.badTransferKey))
        }
        return String(decoding: body, as: UTF8.self)
    }

    /// The local paths named by a `text/uri-list` (`file:` addresses; other schemes are skipped),
    /// checked as every URI list is (``ContentValidation/uriList(_:type:)``).
    nonisolated static func paths(inURIList data: Data) throws(TransferError) -> [String] {
        try ContentValidation.uriList(String(decoding: data, as: UTF8.self)).filter(\.isFileURL).map(\.path)
    }

    /// A `text/uri-list` naming `paths`.
    nonisolated static func uriList(_ paths: [String]) -> Data {
        Data(paths.map { URL(fileURLWithPath: $0).absoluteString + "\r\n" }.joined().utf8)
    }

    /// Opens a read-only transfer of `paths` with the portal; its key.
    static func register(_ paths: [String]) async throws(TransferError) -> String {
        guard isAvailable else { throw .sourceUnavailable(Localization.format(.portalNotRunning)) }
        do {
            let bits = try await GAsync.call { callback, data in
                withCStrings(paths) { array in
                    dd_portal_register_files_async(array, 0, nil, callback, data)
                }
            } finish: { _, result in
                var error: UnsafeMutablePointer<GError>?
                guard let key = dd_portal_register_files_finish(result, &error) else {
                    return .failure(GIOFailure(error, fallback: Localization.format(.portalTookNoFiles)))
                }
                return .success(UInt(bitPattern: key))
            }
            guard let raw = UnsafeMutablePointer<CChar>(bitPattern: bits) else {
                throw GIOFailure(message: Localization.format(.portalTookNoFiles))
            }
            defer { g_free(raw) }
            return String(cString: raw)
        } catch {
            throw .sourceUnavailable(
                Localization.format(.portalRefused, ["reason": .text(DropLoading.clause("\(error)"))]))
        }
    }

    /// The paths of the transfer `key`, as this app may open them.
    static func retrieve(_ key: String) async throws(TransferError) -> [String] {
        guard isAvailable else { throw .sourceUnavailable(Localization.format(.portalNotRunning)) }
        do {
            let bits = try await GAsync.call { callback, data in
                dd_portal_retrieve_files_async(key, nil, callback, data)
            } finish: { _, result in
                var error: UnsafeMutablePointer<GError>?
                guard let paths = dd_portal_retrieve_files_finish(result, &error) else {
                    return .failure(GIOFailure(error, fallback: Localization.format(.portalGaveNoFiles)))
                }
                return .success(UInt(bitPattern: paths))
            }
            guard let raw = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>(bitPattern: bits) else { return [] }
            defer { g_strfreev(raw) }
            var paths: [String] = []
            var index = 0
            while let path = raw[index] {
                paths.append(String(cString: path))
                index += 1
            }
            return paths
        } catch {
            throw .sourceUnavailable(
                Localization.format(.portalGaveNothing, ["reason": .text(DropLoading.clause("\(error)"))]))
        }
    }
}
