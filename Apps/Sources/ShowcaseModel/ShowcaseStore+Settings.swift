import Foundation
import GRDB

/// Settings: small named values a pane keeps between launches (a switch, a slider's value, the
/// page shown), in the `setting` table (`key TEXT PRIMARY KEY, value TEXT`), added by the
/// migration `v2-settings`. Keys are namespaced by pane: `settings.wifi`, `home.page`.
extension ShowcaseStore {
    /// The value of the setting `key`, or nil when it was never set.
    public func setting(_ key: String) throws(ShowcaseStoreError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) }
    }

    /// Every setting whose key starts with `prefix`, by key.
    public func settings(prefix: String) throws(ShowcaseStoreError) -> [String: String] {
        try read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT key, value FROM setting WHERE substr(key, 1, ?) = ?",
                arguments: [prefix.count, prefix])
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["key"] as String, $0["value"] as String) })
        }
    }

    /// Sets several settings in ONE transaction (a switch and the switches it turned off commit
    /// together or not at all).
    public func setSettings(_ values: [String: String]) throws(ShowcaseStoreError) {
        try write { db in
            for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                try db.execute(
                    sql:
                        "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    arguments: [key, value])
            }
        }
    }

    /// The `v2-settings` migration: the `setting` table.
    static func migrateSettings(_ db: Database) throws {
        try db.create(table: "setting") { t in
            t.primaryKey("key", .text)
            t.column("value", .text).notNull()
        }
    }
}

/// A Wi-Fi network of the Settings pane (situation 14): what its details show.
public struct NetworkPayload: Sendable, Hashable, Codable {
    /// "WPA3 Personal", "Open".
    public var security: String
    /// Signal bars, 1 to 3.
    public var signal: Int
    /// The address the network gave this device.
    public var address: String
    /// Creates a network payload.
    public init(security: String, signal: Int, address: String) {
        self.security = security
        self.signal = signal
        self.address = address
    }
}

/// The seed data of the panes added with the controls page (situations 13 to 15), inserted once
/// per database under `seeded-controls`, so a database seeded before them gets them too.
enum ControlsSeed {
    /// The version recorded in `showcaseMeta` under `seeded-controls`.
    static let version = "1"

    static func insertIfNeeded(_ db: Database) throws {
        if try String.fetchOne(db, sql: "SELECT value FROM showcaseMeta WHERE key = 'seeded-controls'") != nil {
            return
        }
        try insert(db)
        try db.execute(sql: "INSERT INTO showcaseMeta(key, value) VALUES ('seeded-controls', ?)", arguments: [version])
    }

    private static func insert(_ db: Database) throws {
        let created = Date(timeIntervalSinceReferenceDate: 795_000_000)  // March 2026
        func collection(_ pane: ShowcasePane, _ key: String, _ name: String, _ kind: CollectionKind) throws
            -> CollectionID
        {
            if let existing = try ShowcaseCollection.filter(Column("pane") == pane && Column("key") == key).fetchOne(db)
            {
                return existing.id!
            }
            return try ShowcaseStore.createCollection(
                ShowcaseCollection(pane: pane, key: key, name: name, kind: kind), db
            )
            .id!
        }
        func items(_ collection: CollectionID, _ kind: ItemKind, _ entries: [(String, Data?)]) throws {
            // After the collection's last item, a spacing apart.
            let last = try Int64.fetchOne(
                db, sql: "SELECT MAX(rank) FROM item WHERE collectionId = ?", arguments: [collection])
            let spacing = RankSpacing.standard.spacing
            let start = last.map { $0 + spacing } ?? 0
            for (offset, entry) in entries.enumerated() {
                var row = ShowcaseItem(
                    collectionId: collection, rank: start + Int64(offset) * spacing, title: entry.0, kind: kind,
                    payload: entry.1, created: created)
                try row.insert(db)
            }
        }
        func json<T: Encodable>(_ value: T) -> Data { ShowcaseJSON.encode(value) }

        // Home screen pages (situation 13): a third page after Home and Page 2.
        let page3 = try collection(.homeScreen, "page-3", "Page 3", .grid)
        try items(page3, .app, ["Health", "Wallet"].map { ($0, nil) })

        // Settings (situation 14): the networks around, and the switches' and slider's values.
        let networks = try collection(.settings, "networks", "Networks", .list)
        try items(
            networks, "network",
            [
                ("Home", json(NetworkPayload(security: "WPA3 Personal", signal: 3, address: "192.168.1.24"))),
                ("Café Rosa", json(NetworkPayload(security: "Open", signal: 2, address: "10.0.4.117"))),
                ("Office", json(NetworkPayload(security: "WPA2 Enterprise", signal: 1, address: "172.16.8.40"))),
            ])
        let settings = [
            "settings.airplane": "false", "settings.wifi": "true", "settings.bluetooth": "true",
            "settings.brightness": "70", "settings.network": "Home", "home.page": "0", "inbox.to": "",
        ]
        for (key, value) in settings.sorted(by: { $0.key < $1.key }) {
            try db.execute(sql: "INSERT OR IGNORE INTO setting(key, value) VALUES (?, ?)", arguments: [key, value])
        }

        // Mail inbox (situation 15): what is in the inbox, and what the server holds for the next
        // refreshes, oldest first.
        let me = "Sam Rivera <sam@example.org>"
        let inbox = try collection(.inbox, "inbox", "Inbox", .mailbox)
        try items(
            inbox, .message,
            [
                ("Tickets for Saturday", "Lena Fischer <lena@example.org>", "Two seats, row F."),
                ("Your library books are due", "Library <loans@example.com>", "Three books, due Monday."),
                ("Team lunch moved", "Priya Shah <priya@example.org>", "Thursday at 12:30 instead."),
            ].map { ($0.0, json(MessagePayload(from: $0.1, to: [me], body: $0.2))) })
        _ = try collection(.inbox, "archive", "Archive", .mailbox)
        let server = try collection(.inbox, "server", "Server", .mailbox)
        try items(
            server, .message,
            [
                ("Photos from the hike", "Tomás Ruiz <tomas@example.org>", "The view from the ridge."),
                ("Invoice 2026-031", "Studio Lume <billing@example.com>", "Due in 30 days."),
                ("Re: Tickets for Saturday", "Lena Fischer <lena@example.org>", "See you at the door."),
                ("Weekly summary", "Calendar <calendar@example.com>", "Four events next week."),
            ].map { ($0.0, json(MessagePayload(from: $0.1, to: [me], body: $0.2))) })
    }
}
