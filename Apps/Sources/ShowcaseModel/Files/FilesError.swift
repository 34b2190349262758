import DragDrop
import Foundation

/// Why a Files operation was refused or failed. A failed operation leaves every folder as it
/// was (A6): no partial file, no temporary file, nothing half-moved.
public enum FilesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The dropped URI list is not a valid `text/uri-list`.
    case invalidURIList(String)
    /// A line of the URI list is not a `file:` URI (files are copied only from this machine).
    case notAFileURI(String)
    /// A `file:` URI names another host.
    case remoteHost(String)
    /// A path is relative (`file:notes.txt`, or a line with no scheme).
    case relativePath(String)
    /// A path has a `..` or `.` segment, which could escape where it seems to point.
    case pathEscape(String)
    /// The file is a symbolic link; links are never followed.
    case symlink(String)
    /// The path is a directory, a pipe, a device or a socket, not a regular file.
    case notARegularFile(String)
    /// There is no such file (it was deleted, or never existed).
    case noSuchFile(String)
    /// A name is not a plain file name (empty, `.`, `..`, or containing `/`).
    case invalidName(String)
    /// No folder of the library has this path.
    case noSuchFolder(String)
    /// The folder is write-only: its content cannot be listed or taken out.
    case writeOnly(folder: String)
    /// The folder is write-only and a drop into it cannot be undone: ask first (U2), then call
    /// again with `confirmed: true`.
    case confirmationRequired(folder: String)
    /// Moving a folder's content to the same folder does nothing.
    case sameFolder(String)
    /// Another app's file to be moved in is on another file system: it can be copied, not
    /// renamed into place.
    case otherDisk(String)
    /// Another app's content that is not a list of this computer's files cannot be moved in
    /// (nothing here could put it back on undo); it can be copied.
    case onlyFilesMove
    /// The file that an undo or redo needs is gone, or its name is taken again.
    case undoUnavailable(String)
    /// Copying the bytes failed (the source shrank, grew or vanished mid-copy, a limit…).
    case transfer(TransferError)
    /// A system call failed.
    case io(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalidURIList(let reason): "The dropped list of files is not valid: \(reason)"
        case .notAFileURI(let uri): "Only files on this computer can be copied here, not \(uri)."
        case .remoteHost(let uri): "\(uri) is on another computer."
        case .relativePath(let uri): "\(uri) is not a full path."
        case .pathEscape(let uri): "\(uri) contains '..' or '.'."
        case .symlink(let path): "\(path) is a symbolic link; links are not followed."
        case .notARegularFile(let path): "\(path) is not a regular file."
        case .noSuchFile(let path): "\(path) no longer exists."
        case .invalidName(let name): "\(name.debugDescription) is not a valid file name."
        case .noSuchFolder(let path): "There is no folder \(path)."
        case .writeOnly(let folder): "\(folder) is write-only: its content cannot be seen or taken out."
        case .confirmationRequired(let folder): "Items dropped into \(folder) cannot be taken back; confirm first."
        case .sameFolder(let folder): "The items are already in \(folder)."
        case .otherDisk(let path): "\(path) is on another disk: it can be copied here (drag it without Shift), not moved."
        case .onlyFilesMove: "Only files can be moved here from another app; drag without Shift to copy it."
        case .undoUnavailable(let reason): "This cannot be undone any more: \(reason)."
        case .transfer(let error): error.description
        case .io(let path, let reason): "Could not read or write \(path): \(reason)."
        }
    }

    /// The failure to report when a drop ends because of this error (A6, F7).
    public var dropFailure: DropFailure {
        if case .transfer(let error) = self { return error.dropFailure }
        return DropFailure(.failed, description)
    }
}
