import Foundation
import GRDB

extension ShowcaseStore {
    /// Replaces the content of item `id` (a note edited in place). Its place and title are kept.
    public func setPayload(_ payload: Data?, of id: ItemID) throws(ShowcaseStoreError) {
        try write { db in
            try db.execute(sql: "UPDATE item SET payload = ? WHERE id = ?", arguments: [payload, id])
        }
    }
}
