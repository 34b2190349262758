import Foundation
import Synchronization

/// Reading a file named by another app: regular files only, no symbolic link followed.
public enum RegularFile {
    /// Opens `path` for reading in chunks. Fails when it is a symbolic link (not followed), not
    /// a regular file (a directory, a pipe, a device), missing or unreadable.
    public static func open(_ path: String) throws(TransferError) -> any ByteSource {
        // O_NONBLOCK: a pipe swapped in for the file must not block the open.
        let fd = Foundation.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            switch code {
            case ELOOP: throw .io(path: path, reason: Localization.format(.symbolicLink))
            case ENOENT, ENOTDIR: throw .io(path: path, reason: Localization.format(.doesNotExist))
            default: throw .io(path: path, reason: String(cString: strerror(code)))
            }
        }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .io(path: path, reason: Localization.format(.notRegularFile))
        }
        return DescriptorSource(FileHandle(fileDescriptor: fd, closeOnDealloc: true), size: Int64(st.st_size))
    }
}

/// An open file read in chunks; `knownSize` from its status when opened.
final class DescriptorSource: ByteSource {
    private let handle: Mutex<FileHandle?>
    let knownSize: Int64?

    init(_ handle: FileHandle, size: Int64?) {
        self.handle = Mutex(handle)
        knownSize = size
    }

    func read(upTo maxLength: Int) async throws -> Data {
        try handle.withLock { handle in
            guard let h = handle else { return Data() }
            let chunk = try h.read(upToCount: maxLength) ?? Data()
            if chunk.isEmpty { handle = nil }
            return chunk
        }
    }
}
