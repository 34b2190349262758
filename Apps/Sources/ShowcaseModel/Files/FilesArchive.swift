import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The Files pane's *Archive*: a real folder of 100,000 small text files ("Scan 000001.txt"…),
/// made on first run with big data on, so dragging into, out of and across a folder that size
/// is exercised on real files (issue 12).
///
/// The files are written straight into the folder through its descriptor (no link followed,
/// never replacing a file that is there); a hidden marker written last says the folder is
/// complete, so a run stopped halfway finishes the job the next time.
public enum FilesArchive {
    /// The folder's name, next to the store's folders.
    public static let folderName = "Archive"
    /// How many files it holds once made.
    public static let fileCount = 100_000
    static let marker = ".generated"

    /// The name of file number `number` (1-based).
    public static func fileName(_ number: Int) -> String {
        "Scan " + String(number + 1_000_000).dropFirst() + ".txt"
    }

    /// Whether the folder was made completely already.
    public static func isGenerated(in library: FilesLibrary, folder: FilesFolder) -> Bool {
        guard let directory = try? library.directory(folder) else { return false }
        var st = stat()
        return fstatat(directory.fd, marker, &st, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// Writes the files that are missing, then the marker. Blocking: call it off the main loop.
    public static func generate(in library: FilesLibrary, folder: FilesFolder, count: Int = fileCount)
        throws(FilesError)
    {
        let directory = try library.directory(folder)
        for number in 1...count {
            let name = fileName(number)
            let fd = openat(directory.fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                if errno == EEXIST { continue }
                throw .io(path: "\(folder.path)/\(name)", reason: String(cString: strerror(errno)))
            }
            let text = "Scanned page \(number) of the archive.\n"
            let written = text.utf8CString.withUnsafeBytes { write(fd, $0.baseAddress, $0.count - 1) }
            close(fd)
            guard written == text.utf8.count else {
                throw .io(path: "\(folder.path)/\(name)", reason: "the disk took only part of the file")
            }
        }
        let fd = openat(directory.fd, marker, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .io(path: "\(folder.path)/\(marker)", reason: String(cString: strerror(errno))) }
        close(fd)
    }
}
