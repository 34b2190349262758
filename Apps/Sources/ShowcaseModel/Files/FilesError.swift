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
        case .invalidURIList(let reason):
            words("The dropped list of files is not valid: {reason}", ["reason": "\(reason)"])
        case .notAFileURI(let uri):
            words("Only files on this computer can be copied here, not {uri}.", ["uri": "\(uri)"])
        case .remoteHost(let uri): words("{uri} is on another computer.", ["uri": "\(uri)"])
        case .relativePath(let uri): words("{uri} is not a full path.", ["uri": "\(uri)"])
        case .pathEscape(let uri): words("{uri} contains '..' or '.'.", ["uri": "\(uri)"])
        case .symlink(let path): words("{path} is a symbolic link; links are not followed.", ["path": "\(path)"])
        case .notARegularFile(let path): words("{path} is not a regular file.", ["path": "\(path)"])
        case .noSuchFile(let path): words("{path} no longer exists.", ["path": "\(path)"])
        case .invalidName(let name): words("{name} is not a valid file name.", ["name": "\(name.debugDescription)"])
        case .noSuchFolder(let path): words("There is no folder {path}.", ["path": "\(path)"])
        case .writeOnly(let folder):
            words("{folder} is write-only: its content cannot be seen or taken out.", ["folder": "\(folder)"])
        case .confirmationRequired(let folder):
            words("Items dropped into {folder} cannot be taken back; confirm first.", ["folder": "\(folder)"])
        case .sameFolder(let folder): words("The items are already in {folder}.", ["folder": "\(folder)"])
        case .otherDisk(let path):
            words(
                "{path} is on another disk: it can be copied here (drag it without Shift), not moved.",
                ["path": "\(path)"])
        case .onlyFilesMove: words("Only files can be moved here from another app; drag without Shift to copy it.")
        case .undoUnavailable(let reason): words("This cannot be undone any more: {reason}.", ["reason": "\(reason)"])
        case .transfer(let error): error.description
        case .io(let path, let reason):
            words("Could not read or write {path}: {reason}.", ["path": "\(path)", "reason": "\(reason)"])
        }
    }

    /// The failure to report when a drop ends because of this error (A6, F7).
    public var dropFailure: DropFailure {
        if case .transfer(let error) = self { return error.dropFailure }
        return DropFailure(.failed, description)
    }
}
