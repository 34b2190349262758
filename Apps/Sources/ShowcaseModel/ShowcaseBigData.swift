import Foundation
import GRDB

/// The showcase's big collections, which the panes must handle as smoothly as small ones: an
/// *All Mail* mailbox of 100,000 messages and a photo *Library* of 20,000 more photos (the Files
/// pane's *Archive* folder of 100,000 files is on disk, see ``FilesArchive``).
///
/// Generated on first run, each in one transaction, by SQLite itself (a recursive query writes
/// the rows without a round trip per row): about a quarter of a second for both on this
/// machine. Every title and payload is worked out from the row's number, so nothing is stored
/// twice and a photo's thumbnail is drawn from its colour when it is dragged out (P1).
public enum ShowcaseBigData {
    /// How many messages All Mail gets.
    public static let messageCount = 100_000
    /// How many photos the Library gets after the seeded ones.
    public static let photoCount = 20_000
    /// All Mail's collection key (pane ``ShowcasePane/mail``).
    public static let allMailKey = "all-mail"
    /// The *Shared* mailbox's key: a tree of 100,000 mailboxes below it (T7), ten regions of 99
    /// teams of 100 cases each.
    public static let sharedKey = "shared"
    public static let regionCount = 10
    public static let teamsPerRegion = 99
    public static let casesPerTeam = 100
    /// How many mailboxes Shared holds, at every depth.
    public static var sharedMailboxCount: Int {
        regionCount + regionCount * teamsPerRegion + regionCount * teamsPerRegion * casesPerTeam
    }

    /// The name of region `region` (1-based).
    public static func regionName(_ region: Int) -> String { "Region \(region)" }
    /// The name of team `team` (1-based) of region `region`.
    public static func teamName(region: Int, team: Int) -> String {
        "Team \(region)-" + String(team + 100).dropFirst()
    }
    /// The name of case `number` (1-based, counted across every team in order).
    public static func caseName(_ number: Int) -> String { "Case " + String(number + 100_000).dropFirst() }
    /// The `showcaseMeta` key recording that the big collections were inserted.
    static let metaKey = "big-data"

    static let subjects = [
        "Weekly digest", "Invoice", "Re: Project plan", "Build failed", "Lunch on Thursday?", "Your receipt",
        "Meeting notes", "Photos from the weekend", "Re: Holiday dates", "Newsletter", "Security alert",
        "Fwd: Tickets",
    ]
    static let senders = [
        "Ana Sousa <ana@example.org>", "Priya Shah <priya@example.org>", "Tomás Ruiz <tomas@example.org>",
        "Orders <orders@example.com>", "Build Bot <ci@example.com>", "Help Desk <help@example.com>",
        "Newsletter <news@example.com>",
    ]

    /// The title of generated message `number` (1-based): what tests and people look for.
    public static func messageTitle(_ number: Int) -> String {
        "\(subjects[(number - 1) % subjects.count]) #\(number)"
    }

    /// The title of generated photo `number` (1-based).
    public static func photoTitle(_ number: Int) -> String {
        "IMG_\(String(format: "%05d", number)).jpg"
    }
}

extension ShowcaseStore {
    /// Inserts All Mail (100,000 messages) and 20,000 photos at the end of the Library, once
    /// (recorded in `showcaseMeta`), in one transaction. Returns whether it inserted them.
    @discardableResult
    public func insertBigDataIfNeeded() throws(ShowcaseStoreError) -> Bool {
        do {
            return try database.write { db in
                if try String.fetchOne(
                    db, sql: "SELECT value FROM showcaseMeta WHERE key = ?", arguments: [ShowcaseBigData.metaKey])
                    != nil
                {
                    return false
                }
                try Self.insertBigData(db)
                try db.execute(
                    sql: "INSERT INTO showcaseMeta(key, value) VALUES (?, '1')", arguments: [ShowcaseBigData.metaKey])
                return true
            }
        } catch {
            throw ShowcaseStoreError.wrap(error)
        }
    }

    private static func insertBigData(_ db: Database) throws {
        let created = ShowcaseItem.now()
        let allMail = try createCollection(
            ShowcaseCollection(
                pane: .mail, key: ShowcaseBigData.allMailKey, name: "All Mail", kind: .mailbox, flags: []), db)
        let subjects = String(decoding: ShowcaseJSON.encode(ShowcaseBigData.subjects), as: UTF8.self)
        let senders = String(decoding: ShowcaseJSON.encode(ShowcaseBigData.senders), as: UTF8.self)
        // Row i (0-based) is message i + 1: its title is ShowcaseBigData.messageTitle(i + 1).
        try db.execute(
            sql: """
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < :count)
                INSERT INTO item (collectionId, rank, title, kind, payload, created)
                SELECT :collection, i * :spacing,
                    json_extract(:subjects, '$[' || (i % :subjectCount) || ']') || ' #' || (i + 1),
                    :kind,
                    CAST(json_object(
                        'from', json_extract(:senders, '$[' || (i % :senderCount) || ']'),
                        'to', json_array('Sam Rivera <sam@example.org>'),
                        'body', 'Message ' || (i + 1) || ' of All Mail.') AS BLOB),
                    :created
                FROM n
                """,
            arguments: [
                "count": ShowcaseBigData.messageCount, "collection": allMail.id,
                "spacing": RankSpacing.standard.spacing, "subjects": subjects,
                "subjectCount": ShowcaseBigData.subjects.count, "senders": senders,
                "senderCount": ShowcaseBigData.senders.count, "kind": ItemKind.message.rawValue, "created": created,
            ])
        try insertSharedMailboxes(db)
        guard
            let library = try ShowcaseCollection.filter(Column("pane") == ShowcasePane.photos.rawValue)
                .filter(Column("key") == "library").fetchOne(db), let libraryID = library.id
        else { return }
        // After the Library's last photo, a spacing apart.
        let spacing = RankSpacing.standard.spacing
        let start =
            try Int64.fetchOne(db, sql: "SELECT MAX(rank) FROM item WHERE collectionId = ?", arguments: [libraryID])
            .map { $0 + spacing } ?? 0
        // A photo's colour comes from its number (a multiplicative hash, spread over the colours).
        try db.execute(
            sql: """
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < :count)
                INSERT INTO item (collectionId, rank, title, kind, payload, created)
                SELECT :collection, :start + i * :spacing, printf('IMG_%05d.jpg', i + 1), :kind,
                    CAST(printf('{"width":4032,"height":3024,"color":"#%06x"}', ((i + 1) * 2654435761) % 16777216)
                        AS BLOB),
                    :created
                FROM n
                """,
            arguments: [
                "count": ShowcaseBigData.photoCount, "collection": libraryID, "start": start, "spacing": spacing,
                "kind": ItemKind.photo.rawValue, "created": created,
            ])
    }

    /// Shared and the 100,000 mailboxes inside it, level by level, each level one statement;
    /// every name is worked out from the mailbox's place.
    private static func insertSharedMailboxes(_ db: Database) throws {
        let shared = try createCollection(
            ShowcaseCollection(
                pane: .mail, key: ShowcaseBigData.sharedKey, name: "Shared", kind: .mailbox, flags: []), db)
        let common: [String: (any DatabaseValueConvertible)?] = [
            "pane": ShowcasePane.mail.rawValue, "kind": CollectionKind.mailbox.rawValue, "shared": shared.id,
            "regions": ShowcaseBigData.regionCount, "teams": ShowcaseBigData.teamsPerRegion,
            "cases": ShowcaseBigData.casesPerTeam,
        ]
        try db.execute(
            sql: """
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < :regions)
                INSERT INTO collection (pane, key, name, kind, flags, position, parentId)
                SELECT :pane, NULL, 'Region ' || (i + 1), :kind, 0, i, :shared FROM n
                """, arguments: StatementArguments(common))
        try db.execute(
            sql: """
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < :teams)
                INSERT INTO collection (pane, key, name, kind, flags, position, parentId)
                SELECT :pane, NULL, printf('Team %d-%02d', region.position + 1, n.i + 1), :kind, 0, n.i, region.id
                FROM collection AS region, n WHERE region.parentId = :shared
                ORDER BY region.position, n.i
                """, arguments: StatementArguments(common))
        try db.execute(
            sql: """
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < :cases)
                INSERT INTO collection (pane, key, name, kind, flags, position, parentId)
                SELECT :pane, NULL,
                    printf('Case %05d', (region.position * :teams + team.position) * :cases + n.i + 1),
                    :kind, 0, n.i, team.id
                FROM collection AS region JOIN collection AS team ON team.parentId = region.id, n
                WHERE region.parentId = :shared
                ORDER BY region.position, team.position, n.i
                """, arguments: StatementArguments(common))
    }
}
