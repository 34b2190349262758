import Foundation

/// A file a source wrote to the spool at the drop.
public struct SpooledFile: Sendable, Hashable {
    /// Where it is.
    public var path: String
    /// Its type.
    public var type: ContentType
    /// Its size in bytes.
    public var size: Int64
}

/// A directory owned by the user where sources write large representations at the drop, so a
/// long transfer completes even if the source app quits right after (P3).
///
/// Files are written under a temporary name and renamed when complete: a destination never
/// sees a partial file. ``remove(_:)`` deletes a file once the destination is done;
/// ``sweep(olderThan:now:)`` deletes what abandoned transfers left.
public struct SpoolDirectory: Sendable {
    /// The directory.
    public let path: String

    /// Uses (and creates, mode 0700) the directory at `path`.
    public init(path: String) throws(TransferError) {
        self.path = path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .io(path: path, reason: Localization.format(.notADirectory)) }
        } else {
            do {
                try FileManager.default.createDirectory(
                    atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .io(
                    path: path,
                    reason: Localization.format(
                        .cannotBeCreated, ["reason": .text(Sentence.clause(error.localizedDescription))]))
            }
        }
    }

    /// The user's spool: `$XDG_RUNTIME_DIR/dragdrop-spool` (private to the user, cleared at
    /// logout), else `$XDG_CACHE_HOME/dragdrop/spool`, else `~/.cache/dragdrop/spool`.
    public static func forCurrentUser(environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(TransferError) -> SpoolDirectory
    {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return try SpoolDirectory(path: runtime + "/dragdrop-spool")
        }
        let cache =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSTemporaryDirectory()) + "/.cache")
        return try SpoolDirectory(path: cache + "/dragdrop/spool")
    }

    /// Copies `content` into a new spool file in bounded chunks; the file appears under its
    /// final name only when complete, and only with `expectedSize` bytes when that is given.
    public func spool(
        _ content: RepresentationContent, type: ContentType, copier: ChunkedCopier = ChunkedCopier(),
        progress: Progress? = nil, expectedSize: Int64? = nil
    ) async throws(TransferError) -> SpooledFile {
        let final = path + "/" + UUID().uuidString + ".spool"
        let sink = try FileSink(destination: final)
        let source: any ByteSource
        do { source = try content.source() } catch {
            sink.abandon()
            throw error
        }
        let size = try await copier.copy(
            from: source, to: sink, type: type, progress: progress, expectedSize: expectedSize)
        return SpooledFile(path: final, type: type, size: size)
    }

    /// Deletes a spool file the destination is done with.
    public func remove(_ file: SpooledFile) {
        try? FileManager.default.removeItem(atPath: file.path)
    }

    /// The spool files and partial files present now.
    public func contents() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// Deletes files last modified before `now - age`: transfers abandoned by a destination
    /// that quit, and partial files of a source that died while writing.
    @discardableResult
    public func sweep(olderThan age: TimeInterval, now: Date = Date()) -> Int {
        var removed = 0
        for name in contents() {
            let file = path + "/" + name
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: file),
                let modified = attributes[.modificationDate] as? Date, now.timeIntervalSince(modified) > age
            else { continue }
            if (try? FileManager.default.removeItem(atPath: file)) != nil { removed += 1 }
        }
        return removed
    }
}
