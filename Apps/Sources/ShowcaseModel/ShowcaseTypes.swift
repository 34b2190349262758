import DragDrop
import Foundation
import GRDB

/// The row id of a collection in the showcase database.
public typealias CollectionID = Int64

/// The row id of an item in the showcase database. Ids are never reused (the table is
/// `AUTOINCREMENT`), so an undo that puts an item back can give it its old id safely.
public typealias ItemID = Int64

/// The showcase's panes, one per example situation of the requirements.
public enum ShowcasePane: String, Sendable, Hashable, Codable, CaseIterable, DatabaseValueConvertible {
    /// Styled notes (situation 1).
    case notes
    /// Lists of reminders (situation 2).
    case reminders
    /// A grid of icons and folders (situation 4).
    case homeScreen
    /// A photo library, albums and a shared album (situation 5).
    case photos
    /// Mailboxes with messages, and drafts (situations 3, 6, 9).
    case mail
    /// Events on dates (situation 7).
    case calendar
    /// Folders of files; the files themselves live on disk (``FilesLibrary``) (situation 8).
    case files
    /// Contact cards (situation 9).
    case contacts
    /// Charts that offer a native chart and an image (situation 10).
    case charts
    /// Line drawings offered as PDF, PNG and JPEG (situation 11).
    case drawing
    /// Uploads started by drops (situation 12).
    case upload
    /// Switch rows, a brightness slider and networks with details (situation 14); the switches'
    /// and the slider's values are settings (``ShowcaseStore/settings(prefix:)``).
    case settings
    /// A mail inbox that refreshes, and the server's messages it has not fetched yet
    /// (situation 15).
    case inbox

    /// The pane's title as shown in the window.
    public var title: String {
        switch self {
        case .notes: "Notes"
        case .reminders: "Reminders"
        case .homeScreen: "Home Screen"
        case .photos: "Photos"
        case .mail: "Mail"
        case .calendar: "Calendar"
        case .files: "Files"
        case .contacts: "Contacts"
        case .charts: "Charts"
        case .drawing: "Drawing"
        case .upload: "Upload"
        case .settings: "Settings"
        case .inbox: "Mail Inbox"
        }
    }
}

/// What a collection is, which decides how a pane lays it out ("list", "grid", "album"…).
/// Open-ended: a pane may use its own kinds.
public struct CollectionKind: RawRepresentable, Sendable, Hashable, Codable, DatabaseValueConvertible,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    /// The stored name.
    public var rawValue: String
    /// Creates a kind from its stored name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a kind from a literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// A vertical list (notes, reminders, contacts).
    public static let list: CollectionKind = "list"
    /// A grid of icons (the home screen, a photo library).
    public static let grid: CollectionKind = "grid"
    /// A photo album.
    public static let album: CollectionKind = "album"
    /// A mailbox of messages.
    public static let mailbox: CollectionKind = "mailbox"
    /// A folder (a home-screen folder, a Files folder).
    public static let folder: CollectionKind = "folder"
    /// The events of one calendar day; its ``ShowcaseCollection/key`` is the date, `yyyy-MM-dd`.
    public static let calendarDay: CollectionKind = "calendar-day"
    /// A shelf of documents (charts, drawings, uploads).
    public static let shelf: CollectionKind = "shelf"
}

/// What an item is ("note", "photo", "message"…). Open-ended.
public struct ItemKind: RawRepresentable, Sendable, Hashable, Codable, DatabaseValueConvertible,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    /// The stored name.
    public var rawValue: String
    /// Creates a kind from its stored name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a kind from a literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// A styled note.
    public static let note: ItemKind = "note"
    /// A reminder.
    public static let reminder: ItemKind = "reminder"
    /// A home-screen app icon.
    public static let app: ItemKind = "app"
    /// A home-screen folder icon; its payload names the collection it opens
    /// (``FolderPayload``).
    public static let folder: ItemKind = "folder"
    /// A photo.
    public static let photo: ItemKind = "photo"
    /// A mail message.
    public static let message: ItemKind = "message"
    /// A draft message being written.
    public static let draft: ItemKind = "draft"
    /// A calendar event.
    public static let event: ItemKind = "event"
    /// A contact card.
    public static let contact: ItemKind = "contact"
    /// A chart.
    public static let chart: ItemKind = "chart"
    /// A line drawing.
    public static let drawing: ItemKind = "drawing"
    /// A video (something to upload).
    public static let video: ItemKind = "video"
    /// A file reference.
    public static let file: ItemKind = "file"

    /// How announcements count items of this kind ("3 photos").
    public var noun: Noun {
        switch self {
        case .note: Noun("note")
        case .reminder: Noun("reminder")
        case .app: Noun("app")
        case .folder: Noun("folder")
        case .photo: Noun("photo")
        case .message: Noun("message")
        case .draft: Noun("draft")
        case .event: Noun("event")
        case .contact: Noun("contact")
        case .chart: Noun("chart")
        case .drawing: Noun("drawing")
        case .video: Noun("video")
        case .file: Noun("file")
        default: Noun("item")
        }
    }
}

/// Flags of a collection, stored as one integer (bit 0 write-only, bit 1 shared, bit 2
/// read-only).
public struct CollectionFlags: OptionSet, Sendable, Hashable, Codable, DatabaseValueConvertible {
    public let rawValue: Int
    /// Creates flags from their stored bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Content can go in but nobody can see or take it back out (a drop box): a drop into it
    /// cannot be undone, so the UI asks for confirmation first (U2).
    public static let writeOnly = CollectionFlags(rawValue: 1 << 0)
    /// Others see the content as soon as it arrives (a shared album): a drop into it is not
    /// undone but can be cancelled afterwards ("Stop Sharing", U3).
    public static let shared = CollectionFlags(rawValue: 1 << 1)
    /// Nothing can be added, moved out or removed (a directory of contacts, Sent mail).
    public static let readOnly = CollectionFlags(rawValue: 1 << 2)
}

/// A named, ordered container of items in one pane: a list, a grid, an album, a mailbox…
public struct ShowcaseCollection: Sendable, Hashable, Codable, Identifiable, FetchableRecord,
    MutablePersistableRecord
{
    /// The database table.
    public static let databaseTableName = "collection"

    /// The row id; nil before the collection is inserted.
    public var id: CollectionID?
    /// The pane the collection belongs to.
    public var pane: ShowcasePane
    /// A stable name the app finds the collection by (`"inbox"`, `"2026-03-14"`), unique in its
    /// pane; nil when the app does not need one.
    public var key: String?
    /// The name shown to people ("Groceries").
    public var name: String
    /// How the pane lays it out.
    public var kind: CollectionKind
    /// Write-only, shared, read-only.
    public var flags: CollectionFlags
    /// The collection's place among its pane's collections (0 first); in a pane whose
    /// collections nest (Mail's mailboxes), its place among its siblings: only the order of
    /// collections with the same parent means anything.
    public var position: Int
    /// The collection holding this one (a mailbox inside a mailbox); nil at the top level.
    public var parentId: CollectionID?

    /// Creates a collection value (insert it with ``ShowcaseStore/createCollection(_:)``).
    public init(
        id: CollectionID? = nil, pane: ShowcasePane, key: String? = nil, name: String, kind: CollectionKind,
        flags: CollectionFlags = [], position: Int = 0, parentId: CollectionID? = nil
    ) {
        self.parentId = parentId
        self.id = id
        self.pane = pane
        self.key = key
        self.name = name
        self.kind = kind
        self.flags = flags
        self.position = position
    }

    /// Whether a drop into the collection must be confirmed first because it cannot be undone
    /// (U2): true for write-only collections.
    public var requiresConfirmation: Bool { flags.contains(.writeOnly) }

    /// The drag-and-drop target identifier of this collection (`"collection-7"`).
    public var targetID: TargetID { ShowcaseTargets.collection(id ?? 0) }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// One item of a collection: a note, a reminder, an icon, a photo, a message…
public struct ShowcaseItem: Sendable, Hashable, Codable, Identifiable, FetchableRecord, MutablePersistableRecord {
    /// The database table.
    public static let databaseTableName = "item"

    /// The row id; nil before the item is inserted.
    public var id: ItemID?
    /// The collection holding the item.
    public var collectionId: CollectionID
    /// The item's sort key in its collection: items are in ascending order of rank, unique per
    /// collection, with gaps between neighbours (see ``RankSpacing``). It is not an index: the
    /// store reads an item's index with ``ShowcaseStore/slot(of:)``.
    public var rank: Int64
    /// The name shown to people ("Buy oat milk", "Beach.jpg").
    public var title: String
    /// What the item is.
    public var kind: ItemKind
    /// The item's content (JSON for the panes' own kinds, or raw bytes), if any.
    public var payload: Data?
    /// When the item was created (a copy is a new item, created at the copy).
    public var created: Date

    /// Creates an item value. The store assigns ``id`` and ``rank`` when it inserts it.
    public init(
        id: ItemID? = nil, collectionId: CollectionID, rank: Int64 = 0, title: String, kind: ItemKind,
        payload: Data? = nil, created: Date = ShowcaseItem.now()
    ) {
        self.id = id
        self.collectionId = collectionId
        self.rank = rank
        self.title = title
        self.kind = kind
        self.payload = payload
        self.created = created
    }

    /// The drag-and-drop target identifier of this item (`"item-42"`).
    public var targetID: TargetID { ShowcaseTargets.item(id ?? 0) }

    /// The payload decoded as JSON, or nil when there is none or it does not decode as `T`.
    public func payload<T: Decodable>(as type: T.Type) -> T? {
        guard let payload else { return nil }
        return try? JSONDecoder().decode(T.self, from: payload)
    }

    /// The current time rounded to the millisecond, the precision the database keeps, so an
    /// item reads back equal to the value that was written.
    public static func now() -> Date {
        Date(timeIntervalSinceReferenceDate: (Date().timeIntervalSinceReferenceDate * 1000).rounded() / 1000)
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// The content of an item to insert: everything but its id, collection and position.
public struct NewItem: Sendable, Hashable, Codable {
    /// The name shown to people.
    public var title: String
    /// What the item is.
    public var kind: ItemKind
    /// The item's content, if any.
    public var payload: Data?

    /// Creates new item content.
    public init(title: String, kind: ItemKind, payload: Data? = nil) {
        self.title = title
        self.kind = kind
        self.payload = payload
    }

    /// Creates new item content whose payload is `value` encoded as JSON (keys sorted).
    public init<T: Encodable>(title: String, kind: ItemKind, json value: T) {
        self.init(title: title, kind: kind, payload: ShowcaseJSON.encode(value))
    }
}

/// The payload of a home-screen folder icon: the collection it opens.
public struct FolderPayload: Sendable, Hashable, Codable {
    /// The folder's contents.
    public var opens: CollectionID
    /// Creates a folder payload.
    public init(opens: CollectionID) { self.opens = opens }
}

/// JSON encoding with sorted keys, so equal values give equal bytes.
public enum ShowcaseJSON {
    /// `value` as JSON with sorted keys.
    public static func encode<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding plain value types into JSON only fails for non-finite numbers, which the
        // showcase never stores.
        return (try? encoder.encode(value)) ?? Data("null".utf8)
    }
}

/// How the showcase names its collections and items as drag-and-drop targets: `collection-7`
/// and `item-42`.
public enum ShowcaseTargets {
    /// The target id of collection `id`.
    public static func collection(_ id: CollectionID) -> TargetID { TargetID("collection-\(id)") }
    /// The target id of item `id`.
    public static func item(_ id: ItemID) -> TargetID { TargetID("item-\(id)") }
    /// The collection a target id names, or nil when it names none.
    public static func collectionID(_ target: TargetID) -> CollectionID? { number(target.rawValue, "collection-") }
    /// The item a target id names, or nil when it names none.
    public static func itemID(_ target: TargetID) -> ItemID? { number(target.rawValue, "item-") }

    private static func number(_ raw: String, _ prefix: String) -> Int64? {
        guard raw.hasPrefix(prefix), let n = Int64(raw.dropFirst(prefix.count)), n > 0 else { return nil }
        return n
    }
}
