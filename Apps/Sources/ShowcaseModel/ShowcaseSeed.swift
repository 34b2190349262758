import Foundation
import GRDB

/// A styled note's content: plain text and the runs of style over it (A7).
public struct NotePayload: Sendable, Hashable, Codable {
    /// A span of style, in characters of ``text``.
    public struct Run: Sendable, Hashable, Codable {
        /// The first character.
        public var start: Int
        /// How many characters.
        public var length: Int
        /// Style names: "bold", "italic", "underline", "heading", "checklist", "link".
        public var styles: [String]
        /// The address of a "link" run.
        public var link: String?
        /// Creates a run.
        public init(start: Int, length: Int, styles: [String], link: String? = nil) {
            self.start = start
            self.length = length
            self.styles = styles
            self.link = link
        }
    }
    /// The note's text.
    public var text: String
    /// Its styled spans.
    public var runs: [Run]
    /// Creates a note payload.
    public init(text: String, runs: [Run] = []) {
        self.text = text
        self.runs = runs
    }
}

/// A mail message's content.
public struct MessagePayload: Sendable, Hashable, Codable {
    /// Sender, "Name <address>".
    public var from: String
    /// Recipients, "Name <address>".
    public var to: [String]
    /// The body text.
    public var body: String
    /// Creates a message payload.
    public init(from: String, to: [String], body: String) {
        self.from = from
        self.to = to
        self.body = body
    }
}

/// A contact card's content. Dropped on a recipient field only name and email are taken (A3).
public struct ContactPayload: Sendable, Hashable, Codable {
    /// Full name.
    public var name: String
    /// Email address.
    public var email: String
    /// Phone number.
    public var phone: String
    /// Postal address.
    public var address: String
    /// Creates a contact payload.
    public init(name: String, email: String, phone: String, address: String) {
        self.name = name
        self.email = email
        self.phone = phone
        self.address = address
    }
}

/// The seed data: believable documents for every pane, inserted once per database.
enum ShowcaseSeed {
    /// The version recorded in `showcaseMeta` under `seeded`.
    static let version = "1"

    /// Inserts the seed data unless the database says it already has it.
    static func insertIfNeeded(_ db: Database) throws {
        if try String.fetchOne(db, sql: "SELECT value FROM showcaseMeta WHERE key = 'seeded'") != nil { return }
        try insert(db)
        try db.execute(sql: "INSERT INTO showcaseMeta(key, value) VALUES ('seeded', ?)", arguments: [version])
    }

    private static func insert(_ db: Database) throws {
        let created = Date(timeIntervalSinceReferenceDate: 795_000_000)  // March 2026

        func collection(
            _ pane: ShowcasePane, _ key: String, _ name: String, _ kind: CollectionKind, _ flags: CollectionFlags = [],
            in parent: CollectionID? = nil
        ) throws -> CollectionID {
            let c = try ShowcaseStore.createCollection(
                ShowcaseCollection(pane: pane, key: key, name: name, kind: kind, flags: flags, parentId: parent), db)
            return c.id!
        }
        func items(_ collection: CollectionID, _ kind: ItemKind, _ entries: [(String, Data?)]) throws {
            for (position, entry) in entries.enumerated() {
                var row = ShowcaseItem(
                    collectionId: collection, rank: RankSpacing.standard.rank(at: position), title: entry.0,
                    kind: kind, payload: entry.1,
                    created: created)
                try row.insert(db)
            }
        }
        func json<T: Encodable>(_ value: T) -> Data { ShowcaseJSON.encode(value) }

        // Notes (situation 1).
        let notes = try collection(.notes, "notes", "Notes", .list)
        try items(
            notes, .note,
            [
                (
                    "Packing list",
                    json(
                        NotePayload(
                            text: "Packing list\nPassport, charger, rain jacket, the good headphones.",
                            runs: [.init(start: 0, length: 12, styles: ["heading"])]))
                ),
                (
                    "Book club: March",
                    json(
                        NotePayload(
                            text: "We are reading The Remains of the Day. Bring questions about Stevens.",
                            runs: [.init(start: 15, length: 22, styles: ["italic"])]))
                ),
                (
                    "Sourdough",
                    json(
                        NotePayload(
                            text: "Feed the starter at 8 pm. Bake at 250 °C for 20 minutes, then 220 °C.",
                            runs: [.init(start: 26, length: 4, styles: ["bold"])]))
                ),
            ])
        let ideas = try collection(.notes, "ideas", "Ideas", .list)
        try items(
            ideas, .note,
            [("Garden plan", json(NotePayload(text: "Tomatoes along the south fence; basil between them.")))])

        // Reminders (situation 2).
        let groceries = try collection(.reminders, "groceries", "Groceries", .list)
        try items(
            groceries, .reminder,
            ["Oat milk", "Lemons", "Sourdough flour", "Coffee beans", "Cherry tomatoes"].map { ($0, nil) })
        let work = try collection(.reminders, "work", "Work", .list)
        try items(
            work, .reminder,
            ["Send the quarterly report", "Book the meeting room", "Review Priya's pull request"].map { ($0, nil) })
        let home = try collection(.reminders, "home", "Home", .list)
        try items(home, .reminder, ["Call the plumber", "Water the ferns"].map { ($0, nil) })

        // Home screen (situation 4).
        let page1 = try collection(.homeScreen, "page-1", "Home", .grid)
        let utilities = try collection(.homeScreen, "folder-utilities", "Utilities", .folder)
        let apps = [
            "Messages", "Calendar", "Photos", "Camera", "Maps", "Weather", "Clock", "Notes", "Reminders", "Music",
            "Podcasts", "Settings",
        ]
        try items(page1, .app, apps.map { ($0, nil) })
        var folder = ShowcaseItem(
            collectionId: page1, rank: RankSpacing.standard.rank(at: apps.count), title: "Utilities", kind: .folder,
            payload: json(FolderPayload(opens: utilities)), created: created)
        try folder.insert(db)
        try items(utilities, .app, ["Calculator", "Compass", "Voice Memos", "Measure"].map { ($0, nil) })
        let page2 = try collection(.homeScreen, "page-2", "Page 2", .grid)
        try items(page2, .app, ["Books", "Translate", "Stocks", "Fitness"].map { ($0, nil) })

        // Photos (situation 5).
        struct Photo: Encodable {
            var width: Int
            var height: Int
            var color: String
        }
        let library = try collection(.photos, "library", "Library", .grid)
        let photos: [(String, Data?)] = [
            ("Tram 28.jpg", json(Photo(width: 4032, height: 3024, color: "#e8b04a"))),
            ("Alfama rooftops.jpg", json(Photo(width: 4032, height: 3024, color: "#c4673b"))),
            ("Pastel de nata.jpg", json(Photo(width: 3024, height: 4032, color: "#f0d9a0"))),
            ("Belém tower.jpg", json(Photo(width: 4032, height: 3024, color: "#9fb7c9"))),
            ("Sunset at Cais do Sodré.jpg", json(Photo(width: 4032, height: 2268, color: "#f08a5d"))),
            ("Grandma's birthday.jpg", json(Photo(width: 3024, height: 4032, color: "#d98fb0"))),
        ]
        try items(library, .photo, photos)
        let favorites = try collection(.photos, "favorites", "Favorites", .album)
        try items(favorites, .photo, [photos[1], photos[4]])
        _ = try collection(.photos, "lisbon", "Trip to Lisbon", .album)
        let family = try collection(.photos, "family-stream", "Family Stream", .album, .shared)
        try items(family, .photo, [photos[5]])

        // Mail (situations 3, 6, 9).
        let inbox = try collection(.mail, "inbox", "Inbox", .mailbox)
        let me = "Sam Rivera <sam@example.org>"
        try items(
            inbox, .message,
            [
                (
                    "Dinner on Friday?",
                    json(MessagePayload(from: "Ana Sousa <ana@example.org>", to: [me], body: "Shall we try the new place on Rua da Rosa?"))
                ),
                (
                    "Your order has shipped",
                    json(MessagePayload(from: "Orders <orders@example.com>", to: [me], body: "Your headphones are on their way."))
                ),
                (
                    "Minutes of Tuesday's meeting",
                    json(MessagePayload(from: "Priya Shah <priya@example.org>", to: [me], body: "Attached are the minutes."))
                ),
            ])
        let archive = try collection(.mail, "archive", "Archive", .mailbox)
        try items(
            archive, .message,
            [("Flight confirmation LIS", json(MessagePayload(from: "Airline <noreply@example.com>", to: [me], body: "Seat 14A.")))])
        let sent = try collection(.mail, "sent", "Sent", .mailbox, .readOnly)
        try items(
            sent, .message,
            [("Re: Dinner on Friday?", json(MessagePayload(from: me, to: ["Ana Sousa <ana@example.org>"], body: "Yes! 8 pm?")))])
        let drafts = try collection(.mail, "drafts", "Drafts", .mailbox)
        let longBody = (1...60).map { "Paragraph \($0) of the trip report: the trams, the hills, the tiles." }
            .joined(separator: "\n\n")
        try items(drafts, .draft, [("Trip report", json(MessagePayload(from: me, to: [], body: longBody)))])
        // Mailboxes inside mailboxes (T1): Work ▸ Projects ▸ 2026, and Work ▸ Receipts.
        let workBox = try collection(.mail, "work", "Work", .mailbox)
        let projects = try collection(.mail, "projects", "Projects", .mailbox, in: workBox)
        let year = try collection(.mail, "2026", "2026", .mailbox, in: projects)
        try items(
            year, .message,
            [("Kick-off agenda", json(MessagePayload(from: "Priya Shah <priya@example.org>", to: [me], body: "Room 4, 10:00.")))])
        _ = try collection(.mail, "receipts", "Receipts", .mailbox, in: workBox)

        // Calendar (situation 7): a week of days.
        struct Event: Encodable {
            var start: String
            var end: String
        }
        let days: [(String, String, [(String, String, String)])] = [
            ("2026-03-09", "Monday 9 March", [("Team stand-up", "09:30", "09:45"), ("Dentist", "16:00", "16:30")]),
            ("2026-03-10", "Tuesday 10 March", [("Design review", "11:00", "12:00")]),
            ("2026-03-11", "Wednesday 11 March", []),
            ("2026-03-12", "Thursday 12 March", [("Lunch with Ana", "12:30", "13:30")]),
            ("2026-03-13", "Friday 13 March", [("Book club", "19:00", "21:00")]),
        ]
        for (key, name, events) in days {
            let day = try collection(.calendar, key, name, .calendarDay)
            try items(day, .event, events.map { ($0.0, json(Event(start: $0.1, end: $0.2))) })
        }

        // Files (situation 8): the folders' flags; the files live on disk (FilesLibrary).
        _ = try collection(.files, "Documents", "Documents", .folder)
        _ = try collection(.files, "Pictures", "Pictures", .folder)
        _ = try collection(.files, "Drop Box", "Drop Box", .folder, .writeOnly)

        // Contacts (situation 9).
        let contacts = try collection(.contacts, "all", "All Contacts", .list)
        try items(
            contacts, .contact,
            [
                ContactPayload(name: "Ana Sousa", email: "ana@example.org", phone: "+351 912 345 678", address: "Rua da Rosa 12, Lisboa"),
                ContactPayload(name: "Priya Shah", email: "priya@example.org", phone: "+44 20 7946 0958", address: "4 Elm Row, Edinburgh"),
                ContactPayload(name: "Tomás Ruiz", email: "tomas@example.org", phone: "+34 600 123 456", address: "Calle Mayor 3, Madrid"),
            ].map { ($0.name, json($0)) })
        let directory = try collection(.contacts, "directory", "Company Directory", .list, .readOnly)
        try items(
            directory, .contact,
            [ContactPayload(name: "Help Desk", email: "help@example.com", phone: "+1 555 0100", address: "Building 2")]
                .map { ($0.name, json($0)) })

        // Charts (situation 10).
        struct Chart: Encodable {
            var type: String
            var labels: [String]
            var values: [Double]
        }
        let charts = try collection(.charts, "charts", "Charts", .shelf)
        try items(
            charts, .chart,
            [
                ("Quarterly sales", json(Chart(type: "bar", labels: ["Q1", "Q2", "Q3", "Q4"], values: [120, 135, 128, 160]))),
                ("Visitors", json(Chart(type: "line", labels: ["Mon", "Tue", "Wed", "Thu", "Fri"], values: [310, 280, 402, 390, 455]))),
            ])

        // Drawing (situation 11).
        struct Drawing: Encodable {
            var strokes: [[Double]]
        }
        let sketches = try collection(.drawing, "sketches", "Sketches", .shelf)
        try items(
            sketches, .drawing,
            [
                ("House", json(Drawing(strokes: [[10, 90, 50, 40, 90, 90], [20, 90, 20, 140, 80, 140, 80, 90]]))),
                ("Wave", json(Drawing(strokes: [[0, 50, 25, 20, 50, 50, 75, 80, 100, 50]]))),
            ])

        // Upload (situation 12).
        let uploads = try collection(.upload, "uploads", "Uploads", .shelf)
        try items(uploads, .video, [("Kayaking.mov", json(["size": 184_000_000]))])
    }
}
