import GRDB

extension ShowcaseStore {
    /// The ids of a collection's folder items (``ItemKind/folder``), in one query: where a
    /// keyboard drag can go in a big grid without reading its items page by page.
    public func folderIDs(in collection: CollectionID) throws(ShowcaseStoreError) -> Set<ItemID> {
        try read { db in
            Set(
                try ItemID.fetchAll(
                    db, sql: "SELECT id FROM item WHERE collectionId = ? AND kind = ?",
                    arguments: [collection, ItemKind.folder]))
        }
    }
}
