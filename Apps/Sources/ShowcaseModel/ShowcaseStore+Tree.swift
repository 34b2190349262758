import DragDrop
import Foundation
import GRDB

/// Where a collection is in its pane's outline: its parent (nil: the top level) and its
/// position in the pane's order read top to bottom.
public struct CollectionPlace: Sendable, Hashable {
    public var id: CollectionID
    public var parent: CollectionID?
    public var position: Int

    public init(id: CollectionID, parent: CollectionID?, position: Int) {
        self.id = id
        self.parent = parent
        self.position = position
    }
}

/// Collections inside collections (Mail's nested mailboxes, T1, T6): the outline is stored as
/// each collection's parent and its position in the pane's order.
extension ShowcaseStore {
    /// Where each collection of `pane` is, in the pane's order.
    public func places(in pane: ShowcasePane) throws(ShowcaseStoreError) -> [CollectionPlace] {
        try collections(in: pane).map { CollectionPlace(id: $0.id ?? 0, parent: $0.parentId, position: $0.position) }
    }

    /// The collections of `pane` directly inside `parent` (nil: the top level), in their order:
    /// what a row of the outline shows when it opens. O(children) over an index.
    public func collections(in pane: ShowcasePane, under parent: CollectionID?) throws(ShowcaseStoreError)
        -> [ShowcaseCollection]
    {
        try read { db in
            try ShowcaseCollection.filter(Column("pane") == pane).filter(Column("parentId") == parent)
                .order(Column("position"), Column("id")).fetchAll(db)
        }
    }

    /// How many collections of `pane` each of `parents` holds directly (absent: none), in one
    /// query per 500 parents.
    public func childCounts(of parents: [CollectionID], in pane: ShowcasePane) throws(ShowcaseStoreError)
        -> [CollectionID: Int]
    {
        try counts(
            of: parents, leading: [pane.rawValue],
            sql: {
                "SELECT parentId, COUNT(*) FROM collection WHERE pane = ? AND parentId IN (\($0)) GROUP BY parentId"
            })
    }

    /// How many items each of `collections` holds (absent: none), in one query per 500.
    public func itemCounts(in collections: [CollectionID]) throws(ShowcaseStoreError) -> [CollectionID: Int] {
        try counts(
            of: collections, leading: [],
            sql: { "SELECT collectionId, COUNT(*) FROM item WHERE collectionId IN (\($0)) GROUP BY collectionId" })
    }

    /// Runs a grouped count (`sql` given the `?` marks of a chunk of `ids`, after the
    /// `leading` arguments) over 500 ids at a time: the id and its count on each row.
    private func counts(
        of ids: [CollectionID], leading: [any DatabaseValueConvertible], sql: (String) -> String
    ) throws(ShowcaseStoreError) -> [CollectionID: Int] {
        try read { db in
            var counts: [CollectionID: Int] = [:]
            for start in stride(from: 0, to: ids.count, by: 500) {
                let chunk = Array(ids[start..<min(start + 500, ids.count)])
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                let values: [(any DatabaseValueConvertible)?] = leading + chunk.map { $0 }
                let arguments = StatementArguments(values)
                for row in try Row.fetchAll(db, sql: sql(marks), arguments: arguments) { counts[row[0]] = row[1] }
            }
            return counts
        }
    }

    /// Puts collections at `places` in ONE transaction, and returns where they were. A place
    /// naming an unknown collection, a parent of another pane, or a parent inside the
    /// collection itself (a cycle) throws, and nothing changes.
    @discardableResult
    public func arrange(_ places: [CollectionPlace]) throws(ShowcaseStoreError) -> [CollectionPlace] {
        try write { db in
            var before: [CollectionPlace] = []
            var byID: [CollectionID: ShowcaseCollection] = [:]
            for place in places {
                guard let collection = try ShowcaseCollection.fetchOne(db, key: place.id) else {
                    throw ShowcaseStoreError.noSuchCollection(place.id)
                }
                before.append(CollectionPlace(id: place.id, parent: collection.parentId, position: collection.position))
                byID[place.id] = collection
            }
            for place in places {
                guard var collection = byID[place.id] else { continue }
                if let parent = place.parent {
                    guard let holder = try ShowcaseCollection.fetchOne(db, key: parent) else {
                        throw ShowcaseStoreError.noSuchCollection(parent)
                    }
                    guard holder.pane == collection.pane else {
                        throw ShowcaseStoreError.insideItself(collection: collection.name)
                    }
                }
                collection.parentId = place.parent
                collection.position = place.position
                try collection.update(db)
            }
            // No collection may end up inside itself: walk up from each moved one.
            for place in places {
                var seen: Set<CollectionID> = [place.id]
                var current = try CollectionID.fetchOne(
                    db, sql: "SELECT parentId FROM collection WHERE id = ?", arguments: [place.id])
                while let parent = current {
                    guard seen.insert(parent).inserted else {
                        throw ShowcaseStoreError.insideItself(collection: byID[place.id]?.name ?? "\(place.id)")
                    }
                    current = try CollectionID.fetchOne(
                        db, sql: "SELECT parentId FROM collection WHERE id = ?", arguments: [parent])
                }
            }
            return before
        }
    }

    /// The undoable step of an arrangement made from `before` to `after`: undo puts `before`
    /// back, redo `after`, each in one transaction; a failure goes to ``onUndoFailure`` and
    /// changes nothing.
    public func undoableArrangement(from before: [CollectionPlace], to after: [CollectionPlace]) -> UndoableAction {
        UndoableAction(
            undo: { [self] in
                do { try arrange(before) } catch { reportUndoFailure(error) }
            },
            redo: { [self] in
                do { try arrange(after) } catch { reportUndoFailure(error) }
            })
    }
}
