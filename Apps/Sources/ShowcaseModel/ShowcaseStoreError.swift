import DragDrop
import Foundation

/// Why a store operation was refused or failed. A failed operation changes nothing: its
/// transaction is rolled back whole (S4, A6).
public enum ShowcaseStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No collection has this id.
    case noSuchCollection(CollectionID)
    /// No item has this id (it was removed, or an undo refers to an item that is gone).
    case noSuchItem(ItemID)
    /// The collection is read-only: nothing can be added, moved out or removed.
    case readOnly(collection: String)
    /// The collection is write-only: what went in cannot be seen, copied or taken back out,
    /// not even by an undo (U2).
    case writeOnly(collection: String)
    /// An item to insert on redo already exists (the document changed outside the undo stack).
    case itemExists(ItemID)
    /// The same item was named twice in one operation.
    case duplicateItem(ItemID)
    /// A drop named no item this store knows and brought no new content.
    case nothingToDrop
    /// The collection has no rank left between its first and last possible ones for the
    /// items arriving (more items than ``RankSpacing/limit`` allows: never with the standard
    /// spacing, only in tests with a tiny one).
    case noRoom(collection: String)
    /// A collection would end up inside itself (a mailbox moved into its own sub-mailbox), or
    /// under a parent of another pane.
    case insideItself(collection: String)
    /// The database refused or failed (disk full, file damaged…).
    case database(String)

    public var description: String {
        switch self {
        case .noSuchCollection(let id): words("The collection {id} does not exist.", ["id": "\(id)"])
        case .noSuchItem(let id): words("The item {id} no longer exists.", ["id": "\(id)"])
        case .readOnly(let name): words("{name} is read-only.", ["name": "\(name)"])
        case .writeOnly(let name): words("{name} is write-only: nothing can be taken out of it.", ["name": "\(name)"])
        case .itemExists(let id): words("The item {id} already exists.", ["id": "\(id)"])
        case .duplicateItem(let id): words("The item {id} was named twice.", ["id": "\(id)"])
        case .nothingToDrop: words("The drop holds nothing this pane can take.")
        case .noRoom(let name): words("{name} has no room for more items.", ["name": "\(name)"])
        case .insideItself(let name): words("{name} cannot go inside itself.", ["name": "\(name)"])
        case .database(let message): words("The document could not be saved: {message}", ["message": "\(message)"])
        }
    }

    /// The failure to report when a drop fails because of this error (A6, F7).
    public var dropFailure: DropFailure { DropFailure(.failed, description) }

    /// Wraps any error thrown inside a transaction.
    static func wrap(_ error: any Error) -> ShowcaseStoreError {
        if let error = error as? ShowcaseStoreError { return error }
        return .database(String(describing: error))
    }
}
