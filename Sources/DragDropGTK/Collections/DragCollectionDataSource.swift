import DragDrop

/// The app's storage behind a ``DragCollectionView``: a database table, a folder on disk, an
/// array. The view asks only for the items it shows (the rows on screen) and for the few a
/// command needs, so a collection of 100,000 items costs the view nothing per item it does not
/// show. Indexes are positions in the collection, `0..<numberOfItems`.
///
/// After the storage changed (a drop committed, an undo ran, another process wrote), call
/// ``DragCollectionView/reloadData(selecting:)``: the view compares the identifiers and moves,
/// inserts or removes only the rows that changed, so a list keeps its scroll position.
///
/// Only the counting, identifying, naming and dropping methods are required.
///
/// ```swift
/// final class Groceries: DragCollectionDataSource {
///     var items: [(id: TargetID, title: String)] = []
///     var numberOfItems: Int { items.count }
///     func itemID(at index: Int) -> TargetID { items[index].id }
///     func title(at index: Int) -> String { items[index].title }
///     func collectionView(_ view: DragCollectionView, perform drop: DropRequest, at index: Int) -> DropResult {
///         let before = items
///         items.insert(contentsOf: drop.items.map { (TargetID(UUID().uuidString), $0.name) }, at: index)
///         view.reloadData()
///         let after = items
///         return .committed(undo: UndoableAction(
///             undo: { self.items = before; view.reloadData() }, redo: { self.items = after; view.reloadData() }))
///     }
/// }
/// ```
@MainActor
public protocol DragCollectionDataSource: AnyObject {
    /// The number of items.
    var numberOfItems: Int { get }

    /// The target identifier of the item at `index`: unique in the app and stable while the item
    /// exists (a move, an undo or a redo keeps it).
    func itemID(at index: Int) -> TargetID

    /// The item's title: its row's text, its accessible name, what Copy and other apps get.
    func title(at index: Int) -> String

    /// A second, dimmer line (a folder's count, a file's size); nil for none. Default: nil.
    func detail(at index: Int) -> String?

    /// Whether the item is a folder: in a grid it takes drops and springs open while dragged
    /// content rests on it (SP1) or on a double click (SP2). Default: false.
    func isFolder(at index: Int) -> Bool

    /// The index of the nearest folder after `index` (before it when `forward` is false; from the
    /// first or the last item when `index` is nil), or nil when there is none: where a keyboard
    /// drag goes next (C4), folders off screen too. Default: asks ``isFolder(at:)`` item by item,
    /// which for a big collection without folders is a pass over all of it at every step; a
    /// collection of many items answers from its storage (its folders' indexes).
    func indexOfFolder(after index: Int?, forward: Bool) -> Int?

    /// A small picture for the item's tile in a grid (a photo's thumbnail, a document's first
    /// page), above its title; nil for none. Asked as GTK binds a tile (the tiles on screen, and
    /// a few more as it scrolls), so keep it small and quick: a cached or generated picture of
    /// about the tile's size. Default: nil.
    func thumbnail(at index: Int) -> DragCollectionView.Thumbnail?

    /// Performs a drop between the items, landing at `index` (S4: insert now; the source
    /// removes moved items afterwards). Return how to undo it (U1), or
    /// `.deferred(placeholders:)` to load the content later: the view then shows placeholder
    /// rows with progress where it lands (A4) until the host resolves or fails the drop.
    func collectionView(_ view: DragCollectionView, perform drop: DropRequest, at index: Int) -> DropResult

    /// Performs a drop on the folder at `index`. Default: fails, saying the folder takes nothing.
    func collectionView(_ view: DragCollectionView, perform drop: DropRequest, intoFolderAt index: Int)
        -> DropResult

    /// Takes moved items out of the collection after the destination committed them (S4);
    /// returns how to put them back (U1). Default: nothing to remove.
    func collectionView(_ view: DragCollectionView, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?

    /// Another app took `items` with a move (the person held the move modifier, S2): take out
    /// the ones that really left (a file another app moved is gone from its folder; a row whose
    /// content it took is deleted here) and return their identifiers, then apply the change
    /// (``DragCollectionView/applyChanges(_:selecting:)``). Nothing here can be undone: the
    /// other app owns what it took. Default: none left (the drop reads as a copy).
    func collectionView(_ view: DragCollectionView, itemsMovedToOtherApp items: [DragItem], app: AppID?)
        -> [TargetID]

    /// The data of the item at `index` for drags (P1), produced lazily. Default: its title as
    /// UTF-8 text.
    func collectionView(_ view: DragCollectionView, itemProviderAt index: Int) -> ItemProvider?

    /// Deletes the items `ids` (the edit menu's Delete and Cut, C1) as one undo step; returns
    /// its name ("Delete 2 Reminders") and action, or nil when this collection cannot delete.
    /// Call ``DragCollectionView/reloadData(selecting:)`` once the items are gone. Default: nil.
    func collectionView(_ view: DragCollectionView, deleteItems ids: [TargetID]) -> (
        name: String, action: UndoableAction
    )?

    /// Inserts one item per title at `index` (the edit menu's Paste, C1) as one undo step;
    /// returns the new items' identifiers, the step's name and action, or nil when this
    /// collection takes no pasted text. Default: nil.
    func collectionView(_ view: DragCollectionView, insertTitles titles: [String], at index: Int) -> (
        ids: [TargetID], name: String, action: UndoableAction
    )?

    /// The folder at `index` opened: by a double click or Return (`duringDrag` false, SP2) or
    /// by spring loading under a drag (SP1). Default: nothing.
    func collectionView(_ view: DragCollectionView, openFolderAt index: Int, duringDrag: Bool)
}

extension DragCollectionDataSource {
    /// No detail line.
    public func detail(at index: Int) -> String? { nil }
    /// No folders.
    public func isFolder(at index: Int) -> Bool { false }
    /// Asks ``isFolder(at:)`` item by item.
    public func indexOfFolder(after index: Int?, forward: Bool) -> Int? {
        let count = numberOfItems
        var next = index.map { forward ? $0 + 1 : $0 - 1 } ?? (forward ? 0 : count - 1)
        while next >= 0, next < count {
            if isFolder(at: next) { return next }
            next += forward ? 1 : -1
        }
        return nil
    }
    /// No pictures.
    public func thumbnail(at index: Int) -> DragCollectionView.Thumbnail? { nil }
    /// Refuses, saying the folder takes nothing.
    public func collectionView(_ view: DragCollectionView, perform drop: DropRequest, intoFolderAt index: Int)
        -> DropResult
    {
        .failed(DropFailure(.forbidden, Localization.format(.takesNothing, ["name": .name(title(at: index))])))
    }
    /// Nothing to remove.
    public func collectionView(
        _ view: DragCollectionView, removeMovedItems items: [DragItem], after drop: DropRequest
    ) -> UndoableAction? { nil }
    /// None left.
    public func collectionView(_ view: DragCollectionView, itemsMovedToOtherApp items: [DragItem], app: AppID?)
        -> [TargetID]
    { [] }
    /// The title as UTF-8 text.
    public func collectionView(_ view: DragCollectionView, itemProviderAt index: Int) -> ItemProvider? {
        ItemProvider(app: view.host.engine.app, representations: [.text(.utf8PlainText, title(at: index))])
    }
    /// Cannot delete.
    public func collectionView(_ view: DragCollectionView, deleteItems ids: [TargetID]) -> (
        name: String, action: UndoableAction
    )? { nil }
    /// Takes no pasted text.
    public func collectionView(_ view: DragCollectionView, insertTitles titles: [String], at index: Int) -> (
        ids: [TargetID], name: String, action: UndoableAction
    )? { nil }
    /// Nothing.
    public func collectionView(_ view: DragCollectionView, openFolderAt index: Int, duringDrag: Bool) {}
}
