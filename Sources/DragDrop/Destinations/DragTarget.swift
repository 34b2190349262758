/// A string-backed identifier: created from a string literal, coded as a bare string.
public protocol StringIdentifier: Hashable, Sendable, Codable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The identifier's text.
    var rawValue: String { get }
    /// Creates an identifier from its text.
    init(_ rawValue: String)
}

extension StringIdentifier {
    public init(stringLiteral value: String) { self.init(value) }
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }
}

/// Names a registered target: a container, a draggable item, a drop point or a control.
public struct TargetID: StringIdentifier {
    /// The app-chosen name, unique among registered targets.
    public var rawValue: String
    /// Creates an identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// Names an application (a process) taking part in drags, for the "another app always copies"
/// rule (S2) and for content limited to its own app (P5).
public struct AppID: StringIdentifier {
    /// The app's name or bundle-like identifier.
    public var rawValue: String
    /// Creates an app identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// How to name one or several items of a kind in announcements ("photo", "photos").
public struct Noun: Hashable, Sendable, Codable {
    /// The name of one item.
    public var singular: String
    /// The name of several items.
    public var plural: String

    /// Creates a noun; the plural defaults to the singular plus "s".
    public init(_ singular: String, plural: String? = nil) {
        self.singular = singular
        self.plural = plural ?? singular + "s"
    }

    /// The generic noun, "item" / "items".
    public static let item = Noun("item")

    /// "1 photo", "3 photos", in the current language (``Localization``): "사진 3장", "写真3枚",
    /// "3 фотографии". A noun no catalog knows is counted with the language's general pattern
    /// around the app's own word (English: its own singular and plural).
    public func counted(_ count: Int) -> String {
        localized(EngineMessage.counted(self), general: .countedNoun, count: count) {
            "\(count) \(count == 1 ? singular : plural)"
        }
    }

    /// "Photo" for one, "3 Photos" for several: the noun in an undo action's name ("Move 3
    /// Photos"), in the current language.
    public func titled(_ count: Int) -> String {
        localized(EngineMessage.title(self), general: .titleNoun, count: count) {
            count == 1 ? singular.capitalizedFirst : "\(count) \(plural.capitalizedFirst)"
        }
    }

    private func localized(_ own: EngineMessage, general: EngineMessage, count: Int, english: () -> String) -> String {
        let localizer = Localization.current
        if localizer.isTranslated(own) { return localizer.format(own, count: count, [:]) }
        if localizer.language == "en" || !localizer.isTranslated(general) { return english() }
        let word = count == 1 ? singular : plural
        return localizer.format(general, count: count, ["noun": .name(word)])
    }
}

/// How items in a container are laid out, so a drop can land between two of them (F8).
///
/// Horizontal orders follow the container's ``LayoutDirection``: in a right-to-left layout the
/// first column of a horizontal list, and the first item of each row of a grid, is on the
/// right (L3).
public enum InsertionLayout: String, Sendable, Codable, Hashable {
    /// Rows from top to bottom.
    case vertical
    /// Columns in the reading direction: left to right, or right to left in a right-to-left
    /// layout.
    case horizontal
    /// Items in reading order, wrapping into rows: each row in the reading direction.
    case grid
}

/// Which way a layout reads horizontally (L3): left to right, as in English, or mirrored for
/// right-to-left languages (Hebrew, Arabic), where a horizontal list's first item is on the
/// right and a grid fills each row from the right.
///
/// A container is told its direction with ``DragTarget/layoutDirection``; one that is not told
/// takes its parent's, and a root takes the engine's ``DragEngine/layoutDirection``
/// (left to right unless the app says otherwise).
public enum LayoutDirection: String, Sendable, Codable, Hashable {
    /// Left to right (the default).
    case leftToRight
    /// Right to left: horizontal orders mirror.
    case rightToLeft
}

/// What a destination does with the default operation rules (S2).
public enum OperationPolicy: Sendable, Hashable, Codable {
    /// Same container moves, another container copies, another app copies.
    case automatic
    /// Drops from the same app move (reminders dragged between lists); other apps still copy.
    case preferMove
    /// Drops always copy.
    case alwaysCopy
    /// The destination takes this kind of content but refuses it now, with a reason to show.
    case forbidden(reason: String)
}

/// One registered target: a rectangle in the target tree with the roles it plays.
///
/// A target can be a drop destination (non-empty ``accepts``), a drag source (non-empty
/// ``offers``), both (a folder icon), or neither (a window or a Back button that only springs).
///
/// ```swift
/// var list = DragTarget(id: "groceries", name: "Groceries", frame: Rect(x: 0, y: 0, width: 300, height: 600))
/// list.accepts = ["application/x-reminder"]
/// list.insertion = .vertical
/// list.operationPolicy = .preferMove
/// try engine.register(list)
/// ```
public struct DragTarget: Sendable {
    /// Unique identifier.
    public var id: TargetID
    /// Accessible name, used in announcements ("Album 'Trips'").
    public var name: String
    /// Frame in the platform's coordinate space (window or screen points).
    public var frame: Rect
    /// The enclosing target, which must be registered first; `nil` for a root (a window).
    public var parent: TargetID?
    /// The app this target belongs to; `nil` inherits the parent's, and a root's defaults to the
    /// engine's own app.
    public var app: AppID?
    /// Types this target accepts as a drop destination; empty means it is not a destination.
    public var accepts: [ContentType] = []
    /// Types this target offers as a drag source, richest first; empty means not draggable.
    public var offers: [ContentType] = []
    /// How to name this item in announcements.
    public var kind: Noun = .item
    /// Whether a drag may take this item out of its place. False for read-only content (a sent
    /// message): it drags out as a copy whatever the destination prefers or the modifiers ask,
    /// so a drop never removes it (S2, S4).
    public var isMovable = true
    /// Set on a container whose items make room for a drop between them.
    public var insertion: InsertionLayout?
    /// Which way this target's horizontal orders read (L3): its ``insertion`` layout's, and the
    /// reading order of keyboard drop points inside it. `nil` takes the parent's, and a root's
    /// defaults to the engine's ``DragEngine/layoutDirection``.
    public var layoutDirection: LayoutDirection?
    /// Overrides of the default operation.
    public var operationPolicy: OperationPolicy = .automatic
    /// Whether this destination can carry out another app's move itself, so that content from
    /// another app moves here when the person holds the move modifier (S2: "where allowed"); it
    /// is copied otherwise. A folder that takes files by renaming them into place (and can rename
    /// them back on undo) sets it; a destination that only gets bytes leaves it off, because the
    /// other app would delete its original with nothing here able to bring it back.
    public var takesMovesFromOtherApps = false
    /// Set on a control that activates when content hovers over it (SP1).
    public var springLoading: SpringLoadingConfiguration?
    /// Set on a scroll container that scrolls when a drag nears its edges (A1).
    public var autoscroll: AutoscrollConfiguration?
    /// Whether descendants are only hit inside this target's frame (scroll views, windows).
    public var clipsChildren = false
    /// Hidden targets and their descendants are neither hit nor offered to keyboard dragging.
    public var isHidden = false
    /// Set on a destination whose drops cannot be undone: the question to confirm first (U2).
    public var confirmation: String?
    /// Set on a list whose rows have children (T1): its drops land between rows at a depth the
    /// pointer's horizontal position picks, or on a row that holds children, as
    /// ``OutlineDropPoint``s from the tree the delegate gives
    /// (``DragEngineDelegate/dragEngine(_:outlineOf:)``). Its rows register as its children;
    /// they are not destinations of their own.
    public var outline: OutlineLayout?
    /// Set on a container whose items live in the app's model (a virtualized list): only the
    /// items on screen are registered, yet any item can be dragged with the others (a
    /// selection of 100,000 files; see ``ModelItems``).
    public var modelItems: ModelItems?

    /// Creates a target with no roles; set the properties for the roles it plays.
    public init(id: TargetID, name: String, frame: Rect, parent: TargetID? = nil) {
        self.id = id
        self.name = name
        self.frame = frame
        self.parent = parent
    }

    /// Whether the target is a drop destination.
    public var isDestination: Bool { !accepts.isEmpty }
    /// Whether the target can be dragged.
    public var isSource: Bool { !offers.isEmpty }
}

/// What every item of a model-backed container shares (``DragTarget/modelItems``): a virtualized
/// list registers only the rows on screen, and a drag can still carry rows scrolled out of view.
/// Such an item is named by the engine's delegate
/// (``DragEngineDelegate/dragEngine(_:nameOfItem:in:)``) and otherwise has these traits.
///
/// ```swift
/// var files = DragTarget(id: "archive", name: "Archive", frame: listFrame, parent: "window")
/// files.accepts = ["application/x-file"]
/// files.insertion = .vertical
/// files.modelItems = ModelItems(offers: ["application/x-file"], kind: Noun("file"))
/// try engine.register(files)
/// // Rows on screen register as children; a selection of 100,000 still drags:
/// try engine.beginDrag(items: selection, at: p, from: "archive")
/// ```
public struct ModelItems: Sendable, Hashable {
    /// The types every item offers, richest first.
    public var offers: [ContentType]
    /// How the items are named in announcements.
    public var kind: Noun
    /// Whether the items may leave the container (see ``DragTarget/isMovable``).
    public var isMovable: Bool

    /// Creates the traits of a container's items.
    public init(offers: [ContentType], kind: Noun = .item, isMovable: Bool = true) {
        self.offers = offers
        self.kind = kind
        self.isMovable = isMovable
    }
}

/// A registered target's place in the registry, for updates that skip the identifier lookup
/// (``DragEngine/setFrame(_:for:)-(_,TargetHandle)``): a layout pass that re-frames thousands
/// of targets per pointer move. Stale once its target is unregistered (the slot may be reused
/// by another target: the generation tells them apart).
public struct TargetHandle: Hashable, Sendable {
    let slot: Int32
    let generation: UInt32
}

/// How an outline's rows are indented (``DragTarget/outline``): the pointer's horizontal
/// position over a gap between two rows picks the depth of the drop (T1), one level per
/// ``indent`` points from ``origin``.
public struct OutlineLayout: Sendable, Hashable {
    /// The width of one level of indentation, in points.
    public var indent: Double
    /// Where depth 0 starts, in points from the outline's left edge (its right edge in a
    /// right-to-left layout, L3): a pointer left of `origin + indent` (right of it) asks for
    /// the top level.
    public var origin: Double
    /// Whether items that are not rows of the outline (messages dragged onto mailboxes, files
    /// onto folders) drop on the row under the pointer, the whole row, and never between rows;
    /// a row the tree refuses them (``OutlineTree/refusals``) is forbidden with the reason.
    /// When false they drop where the outline's own rows would.
    public var dropsFromOutsideOnRows: Bool
    /// Whether every drop goes into a row, the outline's own rows too: for an outline whose
    /// app orders each row's children itself (folders sorted by name), where a place between
    /// two rows would promise a position the drop does not keep. A row dropped on a row that
    /// holds children goes inside it; never into itself or its own rows (T3).
    public var dropsOnRowsOnly: Bool

    /// Creates a layout.
    public init(
        indent: Double, origin: Double = 0, dropsFromOutsideOnRows: Bool = false, dropsOnRowsOnly: Bool = false
    ) {
        self.indent = indent
        self.origin = origin
        self.dropsFromOutsideOnRows = dropsFromOutsideOnRows
        self.dropsOnRowsOnly = dropsOnRowsOnly
    }
}
