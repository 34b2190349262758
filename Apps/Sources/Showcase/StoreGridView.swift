import CGtk4
import DragDrop
import DragDropGTK
import Foundation
import ShowcaseModel

/// A grid of one store collection's items (home-screen icons, photos): a
/// ``StoreCollectionView`` in tiles. Tiles drag out with the selection (M1, Ctrl-click adds, a
/// plain click toggles in ``StoreCollectionView/isSelectionMode``), drops land between tiles
/// (F8) or on a folder tile, which takes them into its collection and springs open while content
/// hovers (SP1) or on a double click (SP2).
@MainActor
final class StoreGridView: StoreCollectionView {
    private let columns: Int
    private let tileSize: (width: Int32, height: Int32)

    init(
        collection: ShowcaseCollection, store: ShowcaseStore, host: GtkDragHost, itemType: ContentType, noun: Noun,
        columns: Int = 5, tileSize: (width: Int32, height: Int32) = (96, 56)
    ) {
        self.columns = columns
        self.tileSize = tileSize
        super.init(collection: collection, store: store, host: host, itemType: itemType, noun: noun)
        start()
    }

    override func options(for collection: ShowcaseCollection) -> DragCollectionView.Options {
        var options = super.options(for: collection)
        options.layout = .grid(columns: columns)
        options.tileSize = tileSize
        return options
    }

    // MARK: Folders

    override func detail(at index: Int) -> String? {
        guard let item = item(at: index), item.kind == .folder, let folder = item.payload(as: FolderPayload.self) else {
            return nil
        }
        let count = (try? store.itemCount(in: folder.opens)) ?? 0
        return "Folder \u{00B7} \(count)"
    }

    override func isFolder(at index: Int) -> Bool { item(at: index)?.kind == .folder }

    /// The folders' indexes, in order, as of the last reload (one query for the folder ids;
    /// none for a Library of 20,000 photos without folders).
    private var folderIndexes: [Int] = []

    override func reload(selecting ids: [ItemID]?) {
        super.reload(selecting: ids)
        let folders = (try? store.folderIDs(in: collection.id ?? 0)) ?? []
        folderIndexes = folders.isEmpty ? [] : self.ids.indices.filter { folders.contains(self.ids[$0]) }
    }

    /// The nearest folder from the folders' indexes, without reading items (a keyboard drag, C4).
    override func indexOfFolder(after index: Int?, forward: Bool) -> Int? {
        guard let index else { return forward ? folderIndexes.first : folderIndexes.last }
        return forward ? folderIndexes.first { $0 > index } : folderIndexes.last { $0 < index }
    }

    override func collectionView(_ view: DragCollectionView, perform drop: DropRequest, intoFolderAt index: Int)
        -> DropResult
    {
        guard let folder = item(at: index)?.id else {
            return .failed(DropFailure(.failed, words("The folder is not there any more.")))
        }
        if drop.items.contains(where: { ShowcaseTargets.itemID($0.id) == folder }) {
            return .failed(DropFailure(.failed, words("A folder cannot go into itself.")))
        }
        return ShowcaseDrops.perform(drop, store: store, host: host) { [weak self] ids in self?.onStoreChanged?(ids) }
    }

    override func collectionView(_ view: DragCollectionView, openFolderAt index: Int, duringDrag: Bool) {
        guard let item = item(at: index), item.kind == .folder else { return }
        onOpenFolder?(item, duringDrag)
    }
}
