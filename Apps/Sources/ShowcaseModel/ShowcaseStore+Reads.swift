import GRDB

/// Reads for views of big collections, which know their items' ids in order (one query) and
/// read the rows on screen by id, without counting their way to a place in the collection.
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

    /// The items with these ids, in the order given (missing ones left out): a page of rows on
    /// screen by primary key, as fast at the end of 100,000 items as at the start (an `OFFSET`
    /// walks the index to the place).
    public func items(_ ids: [ItemID]) throws(ShowcaseStoreError) -> [ShowcaseItem] {
        guard !ids.isEmpty else { return [] }
        let found = try read { db in try ShowcaseItem.fetchAll(db, keys: ids) }
        let byID = Dictionary(found.compactMap { item in item.id.map { ($0, item) } }) { first, _ in first }
        return ids.compactMap { byID[$0] }
    }
}
