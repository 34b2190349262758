import CShowcaseFS
import DragDrop
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
    private let systemRead = Glibc.read
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin
    private let systemRead = Darwin.read
    private let systemWrite = Darwin.write
#endif

/// The text of the current `errno`.
func errnoText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

/// An open file descriptor, closed when released.
final class Descriptor: Sendable {
    let fd: Int32
    init(_ fd: Int32) { self.fd = fd }
    deinit { close(fd) }

    /// `fstat` of the descriptor.
    func status(path: String) throws(FilesError) -> stat {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .io(path: path, reason: errnoText()) }
        return st
    }
}

extension stat {
    /// The file type bits.
    var fileType: mode_t { st_mode & mode_t(S_IFMT) }
    var isRegular: Bool { fileType == mode_t(S_IFREG) }
    var isDirectory: Bool { fileType == mode_t(S_IFDIR) }
    var isSymlink: Bool { fileType == mode_t(S_IFLNK) }
}

/// Directory-relative file operations that never follow symbolic links.
enum SafeFS {
    /// Opens the directory `name` inside `parent` (or the absolute `name` when `parent` is nil)
    /// without following a link there.
    static func openDirectory(_ name: String, in parent: Descriptor?, display: String) throws(FilesError) -> Descriptor {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        let fd = parent.map { openat($0.fd, name, flags) } ?? open(name, flags)
        guard fd >= 0 else {
            let code = errno
            switch code {
            case ELOOP: throw .symlink(display)
            case ENOENT: throw .noSuchFolder(display)
            case ENOTDIR:
                // O_NOFOLLOW on a link to a directory reports ENOTDIR on some systems.
                if let parent, let st = try? lstatAt(parent, name), st.isSymlink { throw .symlink(display) }
                throw .noSuchFolder(display)
            default: throw .io(path: display, reason: errnoText(code))
            }
        }
        return Descriptor(fd)
    }

    /// `fstatat` without following a link; nil when there is no such entry.
    static func lstatAt(_ directory: Descriptor, _ name: String) throws(FilesError) -> stat? {
        var st = stat()
        if fstatat(directory.fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 { return st }
        if errno == ENOENT { return nil }
        throw .io(path: name, reason: errnoText())
    }

    /// Opens a regular file for reading without following a link, and checks that what was
    /// opened is the regular file `lstat` saw (nothing was swapped in between).
    static func openRegularFile(_ name: String, in directory: Descriptor?, display: String) throws(FilesError)
        -> (Descriptor, stat)
    {
        var seen = stat()
        let statResult = directory.map { fstatat($0.fd, name, &seen, AT_SYMLINK_NOFOLLOW) } ?? lstat(name, &seen)
        guard statResult == 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw .noSuchFile(display) }
            throw .io(path: display, reason: errnoText())
        }
        if seen.isSymlink { throw .symlink(display) }
        guard seen.isRegular else { throw .notARegularFile(display) }
        // O_NONBLOCK: should a pipe be swapped in after the lstat, opening it must not hang.
        let flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        let fd = directory.map { openat($0.fd, name, flags) } ?? open(name, flags)
        guard fd >= 0 else {
            let code = errno
            switch code {
            case ELOOP: throw .symlink(display)
            case ENOENT: throw .noSuchFile(display)
            default: throw .io(path: display, reason: errnoText(code))
            }
        }
        let file = Descriptor(fd)
        let opened = try file.status(path: display)
        guard opened.isRegular else { throw .notARegularFile(display) }
        guard opened.st_dev == seen.st_dev, opened.st_ino == seen.st_ino else {
            throw .io(path: display, reason: "it was replaced while being opened")
        }
        return (file, opened)
    }

    /// Renames `from` in `source` to `to` in `destination` atomically, never replacing an
    /// existing entry: returns false when `to` is taken. Falls back to link-then-unlink for
    /// regular files where the file system cannot rename without replacing.
    static func renameNoReplace(_ source: Descriptor, _ from: String, _ destination: Descriptor, _ to: String)
        throws(FilesError) -> Bool
    {
        if showcase_renameat_noreplace(source.fd, from, destination.fd, to) == 0 { return true }
        let code = errno
        if code == EEXIST { return false }
        guard code == ENOSYS || code == EINVAL || code == ENOTSUP else { throw .io(path: to, reason: errnoText(code)) }
        if linkat(source.fd, from, destination.fd, to, 0) != 0 {
            if errno == EEXIST { return false }
            throw .io(path: to, reason: errnoText())
        }
        if unlinkat(source.fd, from, 0) != 0 {
            let reason = errnoText()
            unlinkat(destination.fd, to, 0)
            throw .io(path: from, reason: reason)
        }
        return true
    }
}

/// Reads a regular file's descriptor in chunks, reporting after each chunk.
final class DescriptorSource: ByteSource {
    private let file: Descriptor
    private let copied = Mutex<Int64>(0)
    private let afterChunk: (@Sendable (Int64) -> Void)?
    let knownSize: Int64?

    init(_ file: Descriptor, size: Int64, afterChunk: (@Sendable (Int64) -> Void)?) {
        self.file = file
        self.knownSize = size
        self.afterChunk = afterChunk
    }

    func read(upTo maxLength: Int) async throws -> Data {
        var buffer = [UInt8](repeating: 0, count: max(1, maxLength))
        var count: Int
        repeat {
            count = systemRead(file.fd, &buffer, buffer.count)
        } while count < 0 && errno == EINTR
        guard count >= 0 else { throw TransferError.sourceUnavailable(errnoText()) }
        let total = copied.withLock { total in
            total += Int64(count)
            return total
        }
        if count > 0 { afterChunk?(total) }
        return Data(buffer[0..<count])
    }
}

/// Writes a new temporary file (mode 0600, created exclusively, never through a link) in a
/// directory. `finish()` syncs and closes it but leaves it under its temporary name; the caller
/// publishes it. `abandon()` deletes it.
final class TemporaryFileSink: ByteSink {
    let directory: Descriptor
    let name: String
    private var fd: Int32

    init(in directory: Descriptor, display: String) throws(FilesError) {
        self.directory = directory
        self.name = ".dragdrop-\(UUID().uuidString).partial"
        fd = openat(directory.fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io(path: display, reason: errnoText()) }
    }

    deinit { if fd >= 0 { close(fd) } }

    func write(_ chunk: Data) throws {
        try chunk.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws in
            var offset = 0
            while offset < raw.count {
                let n = systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw TransferError.io(path: name, reason: errnoText())
                }
                offset += n
            }
        }
    }

    func finish() throws {
        fchmod(fd, 0o644)
        let synced = fsync(fd)
        let code = errno
        close(fd)
        fd = -1
        if synced != 0 { throw TransferError.io(path: name, reason: errnoText(code)) }
    }

    func abandon() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
        unlinkat(directory.fd, name, 0)
    }

    /// Deletes the finished temporary file (a later file of the same import failed).
    func discard() { unlinkat(directory.fd, name, 0) }
}
