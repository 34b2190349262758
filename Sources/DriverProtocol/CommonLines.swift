// Lines every app prints: ready, GTK's happenings, errors, the engine's feedback is in
// FeedbackLine.swift.

/// `{"kind":"ready"}`: printed once, when the app's window is laid out and can be driven.
public struct ReadyLine: AppEvent {
    public static let kind = "ready"
    public init() {}
}

/// `{"kind":"gtk","message":…}`: a GTK-level happening (drag signals, actions, keys), from
/// ``GtkDragHost``'s diagnostics.
public struct GtkLine: AppEvent {
    public static let kind = "gtk"
    public var message: String
    public init(message: String) { self.message = message }

    /// Whether it says GTK's drag ended (`drag-end`).
    public var isDragEnd: Bool { message.hasPrefix("drag-end") }
}

/// `{"kind":"error","message":…}`: the app could not set itself up (or a command failed).
public struct ErrorLine: AppEvent {
    public static let kind = "error"
    public var message: String
    public init(message: String) { self.message = message }
}

/// `{"kind":"notice","message":…}`: a failure reason the app showed a person.
public struct NoticeLine: AppEvent {
    public static let kind = "notice"
    public var message: String
    public init(message: String) { self.message = message }
}

/// `{"kind":"menu","owner":…,"items":[…],"frames":{title: frame}}`: an edit menu opened.
public struct MenuLine: AppEvent {
    public static let kind = "menu"
    public var owner: String
    public var items: [String]
    public var frames: [String: Frame?]?
    public init(owner: String, items: [String], frames: [String: Frame?]? = nil) {
        self.owner = owner
        self.items = items
        self.frames = frames
    }
}

/// `{"kind":"picker","field":…,"rows":[names],"frames":{name: frame}}`: a contact-add
/// button's list opened (its contacts and where they are).
public struct PickerLine: AppEvent {
    public static let kind = "picker"
    public var field: String
    public var rows: [String]
    public var frames: [String: Frame?]
    public init(field: String, rows: [String], frames: [String: Frame?]) {
        self.field = field
        self.rows = rows
        self.frames = frames
    }
}

/// One finding of the HIG check (``HIGCheck``): the rule, what is wrong, and the widget.
public struct Finding: Codable, Sendable, Hashable, CustomStringConvertible {
    public var rule: String
    public var message: String
    public var widget: String
    public init(rule: String, message: String, widget: String) {
        self.rule = rule
        self.message = message
        self.widget = widget
    }
    public var description: String { "\(rule): \(message) [\(widget)]" }
}

/// `{"kind":"hig","findings":[…],"census":{…},"namesReadable":…}`: the HIG check of a
/// window once laid out: its findings, how many controls of each kind it looked at, and
/// whether accessible names could be read.
public struct HIGLine: AppEvent {
    public static let kind = "hig"
    public var findings: [Finding]
    public var census: [String: Int]?
    public var namesReadable: Bool?
    public init(findings: [Finding], census: [String: Int]? = nil, namesReadable: Bool? = nil) {
        self.findings = findings
        self.census = census
        self.namesReadable = namesReadable
    }
}

/// `{"kind":"state",…}`: what the window shows after every change. The GTK fixture's scenes
/// print `lists` and `selected`; the showcase adds the shown `pane`, the undo and redo titles,
/// and each pane's own fields (see the pane's `state()`).
public struct StateLine: AppEvent {
    public static let kind = "state"
    /// The shown pane's slug (showcase).
    public var pane: String?
    /// Every list (or mailbox, folder, grid) by name, with its rows' titles in order.
    public var lists: [String: [String]]?
    /// The selected rows' titles, by list.
    public var selected: [String: [String]]?
    /// The Undo and Redo commands' titles ("Undo Move 2 Reminders"), empty when unavailable.
    public var undo: String?
    public var redo: String?
    /// A pending situation's description.
    public var pending: String?
    /// Files: how many files each folder holds, and the files still being copied into it.
    public var counts: [String: Int]?
    public var copying: [String: [String]]?
    /// Notes: each note's length in characters.
    public var lengths: [String: Int]?
    /// Home pages: the shown page (from 0), its title, how many there are, how it was reached.
    public var page: Int?
    public var pageTitle: String?
    public var pages: Int?
    public var how: String?
    /// Home screen: the folder opened.
    public var opened: String?
    /// Mail Inbox: whether it is checking for mail, how often it did, what started the last
    /// check, the messages it fetched, those still waiting on the server, how far the
    /// indicator is pulled out, and the list's scroll offset.
    public var refreshing: Bool?
    public var refreshes: Int?
    public var trigger: String?
    public var fetched: String?
    public var waiting: Int?
    public var pulled: Double?
    public var scrollOffset: Double?
    /// Mail: the mailbox shown, the drag's level (mailboxes or messages), the draft's scroll
    /// offset and its attachments.
    public var mailbox: String?
    /// Mail's mailboxes in outline order, each indented two spaces a level under its parent.
    public var mailboxes: [String]?
    /// Files: every folder under its parent (two spaces a level), as the folder tree shows them.
    public var folders: [String]?
    public var level: String?
    public var draftOffset: Double?
    public var draft: [String]?
    /// Photos: whether the library is in selection mode, and whether "Stop Sharing" shows.
    public var selectionMode: Bool?
    public var stopSharing: Bool?
    /// Settings: each switch's state, whether each row is enabled, the brightness, the
    /// network whose details show, whether the info popover shows.
    public var switches: [String: Bool]?
    public var enabled: [String: Bool]?
    public var brightness: Double?
    public var details: String?
    public var info: Bool?
    /// Upload: the channel's shown items, the uploads under way, the notice shown.
    public var shownChannel: [String]?
    public var uploading: [Upload]?
    public var notice: String?
    /// Other apps (situation 13): what each destination received.
    public var receivedBy: [String: Received]?
    /// Web mail: what the new message received (nil: nothing yet), and the placeholder's
    /// text while it loads.
    public var received: Received?
    public var loading: String?

    public init() {}

    /// An upload under way: the items' titles and how far it got (0...1).
    public struct Upload: Codable, Sendable, Hashable {
        public var titles: [String]
        public var fraction: Double
        public init(titles: [String], fraction: Double) {
            self.titles = titles
            self.fraction = fraction
        }
    }

    /// What a destination received: its type, size in bytes, and where it came from.
    public struct Received: Codable, Sendable, Hashable {
        public var type: String
        public var size: Int
        public var detail: String?
        public var from: String?
        public var operation: String?
        public var origin: String?
        public var name: String?
        public init(
            type: String, size: Int, detail: String? = nil, from: String? = nil, operation: String? = nil,
            origin: String? = nil, name: String? = nil
        ) {
            self.type = type
            self.size = size
            self.detail = detail
            self.from = from
            self.operation = operation
            self.origin = origin
            self.name = name
        }
    }
}

/// `{"kind":"layout",…}`: where things are, in window coordinates, printed when it changed.
/// Lists and rows for the list scenes and the showcase; named `frames` (and words inside text
/// views) for the other fixture scenes.
public struct LayoutLine: AppEvent {
    public static let kind = "layout"
    /// The shown pane's slug (showcase; "page" for the Web Page window).
    public var pane: String?
    /// The window's size, `[width, height]`.
    public var window: [Double]?
    /// Two windows: each window's size by id, and each list's window.
    public var windows: [String: [Double]]?
    public var listWindows: [String: String]?
    /// The window's offset inside its X window (client-side decorations), `[x, y]`: screen =
    /// X window origin + surface + frame.
    public var surface: [Double]?
    /// Showcase: the sidebar's rows by slug, and the Undo and Redo buttons.
    public var sidebar: [String: Frame]?
    public var buttons: [String: Frame]?
    /// Containers by name (nil: not laid out).
    public var lists: [String: Frame?]?
    /// Each list's rows, in order, with their titles.
    public var rows: [String: [TitledFrame]]?
    /// The drop destinations' engine target ids by name ("Home": "collection-9").
    public var targets: [String: String]?
    /// Named frames ("home/Mail", "dot/0", "inbox/list").
    public var frames: [String: Frame]?
    /// Each text view's words (the first of each), by view id.
    public var words: [String: [String: Frame]]?

    public init() {}
}

/// `{"kind":"controls",…}`: the showcase's visible controls for the HIG and keyboard checks
/// (buttons, labels, fields, the HIG check's findings and census), or the GTK fixture's
/// visuals scene's controls (`spring`, `scroll`, `stack` frames).
public struct ControlsLine: AppEvent {
    public static let kind = "controls"
    public var pane: String?
    public var buttons: [Button]?
    public var labels: [Label]?
    public var fields: [Field]?
    public var findings: [Finding]?
    public var census: [String: Int]?
    public var spring: Frame?
    public var scroll: Frame?
    public var stack: Frame?

    public init() {}

    /// A visible button: its title (nil: an icon), whether it opens a menu, whether it is a
    /// segment of a linked group.
    public struct Button: Codable, Sendable, Hashable {
        public var title: String?
        public var menu: Bool
        public var segment: Bool
        public init(title: String?, menu: Bool, segment: Bool) {
            self.title = title
            self.menu = menu
            self.segment = segment
        }
    }

    /// A visible label outside a control: its text and whether it can be selected and copied.
    public struct Label: Codable, Sendable, Hashable {
        public var text: String
        public var selectable: Bool
        public init(text: String, selectable: Bool) {
            self.text = text
            self.selectable = selectable
        }
    }

    /// A text field: its placeholder and whether it hides what is typed.
    public struct Field: Codable, Sendable, Hashable {
        public var placeholder: String
        public var secure: Bool
        public init(placeholder: String, secure: Bool) {
            self.placeholder = placeholder
            self.secure = secure
        }
    }
}

/// `{"kind":"focus","widget":…,"text":…}`: the keyboard focus moved: the focused widget's GTK
/// type and the first text inside it.
public struct FocusLine: AppEvent {
    public static let kind = "focus"
    public var widget: String
    public var text: String
    public init(widget: String, text: String) {
        self.widget = widget
        self.text = text
    }
}
