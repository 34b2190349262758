// Lines only the GTK fixture (`dragdrop-gtk-fixture`) prints, scene by scene.

/// `{"kind":"live",…}` (`--a11y`): the announcement status line changed: the sentence, what
/// the label shows, and its accessible label, description and role.
public struct LiveLine: AppEvent {
    public static let kind = "live"
    public var text: String
    public var shown: String
    public var label: String?
    public var description: String?
    public var role: String
    public init(text: String, shown: String, label: String?, description: String?, role: String) {
        self.text = text
        self.shown = shown
        self.label = label
        self.description = description
        self.role = role
    }
}

/// `{"kind":"accessible","targets":[…]}` (`--a11y`): every list's and row's accessible
/// properties.
public struct AccessibleLine: AppEvent {
    public static let kind = "accessible"
    public var targets: [Target]
    public init(targets: [Target]) { self.targets = targets }

    public struct Target: Codable, Sendable, Hashable {
        public var id: String
        public var name: String
        public var label: String?
        public var description: String?
        public var shortcuts: String?
        public init(id: String, name: String, label: String?, description: String?, shortcuts: String?) {
            self.id = id
            self.name = name
            self.label = label
            self.description = description
            self.shortcuts = shortcuts
        }
    }
}

/// `{"kind":"apps-state","name":…,"received":[…],"status":…,"pending":n}` (`--scene apps`).
public struct AppsStateLine: AppEvent {
    public static let kind = "apps-state"
    public var name: String
    public var received: [String]
    public var status: String
    public var pending: Int
    public init(name: String, received: [String], status: String, pending: Int) {
        self.name = name
        self.received = received
        self.status = status
        self.pending = pending
    }
}

/// `{"kind":"apps-layout","window":[w,h],"item":frame,"inbox":frame}` (`--scene apps`).
public struct AppsLayoutLine: AppEvent {
    public static let kind = "apps-layout"
    public var window: [Double]
    public var item: Frame
    public var inbox: Frame
    public init(window: [Double], item: Frame, inbox: Frame) {
        self.window = window
        self.item = item
        self.inbox = inbox
    }
}

/// `{"kind":"selection","id":…,"text":…,"selected":…}` (`--scene editing`).
public struct SelectionLine: AppEvent {
    public static let kind = "selection"
    public var id: String
    public var text: String
    public var selected: String
    public init(id: String, text: String, selected: String) {
        self.id = id
        self.text = text
        self.selected = selected
    }
}

/// `{"kind":"secure","length":…}` (`--scene editing`): the password's length.
public struct SecureLine: AppEvent {
    public static let kind = "secure"
    public var length: Int
    public init(length: Int) { self.length = length }
}

/// `{"kind":"grid","id":…,"tiles":[…],…}` (`--scene grid`, `--scene pages`): a grid's tiles,
/// its folders' contents, its selection and whether it is in selection mode.
public struct GridLine: AppEvent {
    public static let kind = "grid"
    public var id: String
    public var tiles: [String]
    public var folders: [String: [String]]?
    public var selected: [String]?
    public var selectionMode: Bool?
    public init(
        id: String, tiles: [String], folders: [String: [String]]? = nil, selected: [String]? = nil,
        selectionMode: Bool? = nil
    ) {
        self.id = id
        self.tiles = tiles
        self.folders = folders
        self.selected = selected
        self.selectionMode = selectionMode
    }
}

/// `{"kind":"list","id":…,"items":[…],"selected":[…]}` (`--scene grid`): the list's rows.
public struct ListLine: AppEvent {
    public static let kind = "list"
    public var id: String
    public var items: [String]
    public var selected: [String]
    public init(id: String, items: [String], selected: [String]) {
        self.id = id
        self.items = items
        self.selected = selected
    }
}

/// `{"kind":"folderOpened","folder":…,"duringDrag":…}` (`--scene grid`).
public struct FolderOpenedLine: AppEvent {
    public static let kind = "folderOpened"
    public var folder: String
    public var duringDrag: Bool
    public init(folder: String, duringDrag: Bool) {
        self.folder = folder
        self.duringDrag = duringDrag
    }
}

/// `{"kind":"segment","id":…,"selected":…,"by":…}` (`--scene grid`): a segment was chosen,
/// and how ("click", "spring", "key").
public struct SegmentLine: AppEvent {
    public static let kind = "segment"
    public var id: String
    public var selected: String
    public var by: String
    public init(id: String, selected: String, by: String) {
        self.id = id
        self.selected = selected
        self.by = by
    }
}

/// `{"kind":"loading","token":…,"fraction":…}`: a slow drop's progress.
public struct LoadingLine: AppEvent {
    public static let kind = "loading"
    public var token: Int
    public var fraction: Double
    public init(token: Int, fraction: Double) {
        self.token = token
        self.fraction = fraction
    }
}

/// `{"kind":"pages","current":…,"count":…,"how":…}` (`--scene pages`): the page changed.
public struct PagesLine: AppEvent {
    public static let kind = "pages"
    public var current: Int
    public var count: Int
    public var how: String
    public init(current: Int, count: Int, how: String) {
        self.current = current
        self.count = count
        self.how = how
    }
}

/// `{"kind":"refused","message":…}` (`--scene pages`): what an eleventh page was refused with.
public struct RefusedLine: AppEvent {
    public static let kind = "refused"
    public var message: String
    public init(message: String) { self.message = message }
}

/// `{"kind":"refresh","event":"began"|"ended","trigger":…,"count":…}` (`--scene refresh`).
public struct RefreshLine: AppEvent {
    public static let kind = "refresh"
    public var event: String
    public var trigger: String
    public var count: Int
    public init(event: String, trigger: String, count: Int) {
        self.event = event
        self.trigger = trigger
        self.count = count
    }
}

/// `{"kind":"pull","distance":…}` (`--scene refresh`): the indicator pulled out (0: hidden).
public struct PullLine: AppEvent {
    public static let kind = "pull"
    public var distance: Double
    public init(distance: Double) { self.distance = distance }
}

/// `{"kind":"scroll","offset":…}`: a scrolled list's offset (`target`: which one).
public struct ScrollLine: AppEvent {
    public static let kind = "scroll"
    public var target: String?
    public var offset: Double
    public init(target: String? = nil, offset: Double) {
        self.target = target
        self.offset = offset
    }
}

/// `{"kind":"activated","control":…,"how":"click"|"spring","page":…}` (`--scene visuals`).
public struct ActivatedLine: AppEvent {
    public static let kind = "activated"
    public var control: String
    public var how: String
    public var page: String
    public init(control: String, how: String, page: String) {
        self.control = control
        self.how = how
        self.page = page
    }
}

/// `{"kind":"confirmation","cancel":frame,"confirm":frame}` (`--scene visuals`): the
/// confirmation sheet's buttons.
public struct ConfirmationLine: AppEvent {
    public static let kind = "confirmation"
    public var cancel: Frame?
    public var confirm: Frame?
    public init(cancel: Frame?, confirm: Frame?) {
        self.cancel = cancel
        self.confirm = confirm
    }
}

/// `{"kind":"network","selected":…}` (`--scene settings`): the network chosen.
public struct NetworkLine: AppEvent {
    public static let kind = "network"
    public var selected: String
    public init(selected: String) { self.selected = selected }
}

/// `{"kind":"switches","states":{…},"enabled":{…},"undo":…}` (`--scene settings`).
public struct SwitchesLine: AppEvent {
    public static let kind = "switches"
    public var states: [String: Bool]
    public var enabled: [String: Bool]
    public var undo: String
    public init(states: [String: Bool], enabled: [String: Bool], undo: String) {
        self.states = states
        self.enabled = enabled
        self.undo = undo
    }
}

/// `{"kind":"slider","id":…,"value":…}` (`--scene settings`).
public struct SliderLine: AppEvent {
    public static let kind = "slider"
    public var id: String
    public var value: Double
    public init(id: String, value: Double) {
        self.id = id
        self.value = value
    }
}

/// `{"kind":"entry","id":…,"text":…,…}`: a text field's text (placeholder and selection in
/// the text scene).
public struct EntryLine: AppEvent {
    public static let kind = "entry"
    public var id: String
    public var text: String
    public var placeholder: String?
    public var selection: String?
    public init(id: String, text: String, placeholder: String? = nil, selection: String? = nil) {
        self.id = id
        self.text = text
        self.placeholder = placeholder
        self.selection = selection
    }
}

/// `{"kind":"text","id":…,"text":…,"html":…,"selection":…}` (`--scene text`).
public struct TextLine: AppEvent {
    public static let kind = "text"
    public var id: String
    public var text: String
    public var html: String
    public var selection: String?
    public init(id: String, text: String, html: String, selection: String?) {
        self.id = id
        self.text = text
        self.html = html
        self.selection = selection
    }
}

/// `{"kind":"details","network":…}` (`--scene settings`): a network's details opened.
public struct DetailsLine: AppEvent {
    public static let kind = "details"
    public var network: String
    public init(network: String) { self.network = network }
}

/// `{"kind":"info","shown":true}` (`--scene settings`): the info popover opened.
public struct InfoLine: AppEvent {
    public static let kind = "info"
    public var shown: Bool
    public init(shown: Bool) { self.shown = shown }
}

/// `{"kind":"collection","id":…,"count":…,"head":[…],…}` (`--scene collection`): a
/// virtualized collection's items (the first eight and last three titles, those not named
/// "File n"/"Album n" with their index), its selection, its scroll offset, its folders'
/// sizes and how many placeholder rows it shows.
public struct CollectionLine: AppEvent {
    public static let kind = "collection"
    public var id: String
    public var count: Int
    public var head: [String]
    public var tail: [String]
    /// Items not named "File n" or "Album n" (the first 50), by title: their index.
    public var others: [String: Int]
    public var selectedCount: Int
    /// The first five selected items' titles.
    public var selectedHead: [String]
    /// The vertical scroll offset, in pixels.
    public var offset: Double
    /// The first 20 folders, by title: how many items each holds.
    public var folders: [String: Int]
    /// Placeholder rows shown (drops still loading).
    public var placeholders: Int
    /// Rows with a widget whose item is not the data source's item at their index (a view out of
    /// step with its data source after a change): always 0.
    public var misplacedRows: Int
    public init(
        id: String, count: Int, head: [String], tail: [String], others: [String: Int], selectedCount: Int,
        selectedHead: [String], offset: Double, folders: [String: Int], placeholders: Int, misplacedRows: Int = 0
    ) {
        self.misplacedRows = misplacedRows
        self.id = id
        self.count = count
        self.head = head
        self.tail = tail
        self.others = others
        self.selectedCount = selectedCount
        self.selectedHead = selectedHead
        self.offset = offset
        self.folders = folders
        self.placeholders = placeholders
    }
}
