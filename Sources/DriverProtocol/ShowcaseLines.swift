// Lines only the showcase prints (`showcase --tour`).

/// `{"kind":"status","text":…}`: the status line's new text.
public struct StatusLine: AppEvent {
    public static let kind = "status"
    public var text: String
    public init(text: String) { self.text = text }
}

/// `{"kind":"link","opened":…}`: a link in a note was opened.
public struct LinkLine: AppEvent {
    public static let kind = "link"
    public var opened: String
    public init(opened: String) { self.opened = opened }
}

/// `{"kind":"copied","title":…}`: the Web Page window copied a photo.
public struct CopiedLine: AppEvent {
    public static let kind = "copied"
    public var title: String
    public init(title: String) { self.title = title }
}

/// `{"kind":"situations","items":[…]}`: once at launch, the situations in the sidebar.
public struct SituationsLine: AppEvent {
    public static let kind = "situations"
    public var items: [Situation]
    public init(items: [Situation]) { self.items = items }

    /// One situation: its number, slug and title, whether its pane is "implemented" or a
    /// "placeholder", and what a placeholder will show.
    public struct Situation: Codable, Sendable, Hashable {
        public var number: Int
        public var slug: String
        public var title: String
        public var pane: String
        public var pending: String?
        public init(number: Int, slug: String, title: String, pane: String, pending: String?) {
            self.number = number
            self.slug = slug
            self.title = title
            self.pane = pane
            self.pending = pending
        }
    }
}

/// `{"kind":"stall","ms":…,"cpu":…,"wall":…}`: the main loop did not run for `wall` ms, of
/// which the app was blocked `ms` (working or waiting in the kernel, not waiting for a CPU) and
/// its main thread ran on a CPU `cpu`.
public struct StallLine: AppEvent {
    public static let kind = "stall"
    public var ms: Double
    public var cpu: Double
    public var wall: Double
    public init(ms: Double, cpu: Double, wall: Double) {
        self.ms = ms
        self.cpu = cpu
        self.wall = wall
    }
}

/// `{"kind":"loop","longest":…,"wall":…,"ticks":…}`: the main loop's longest iteration over
/// the last report period, and how many ticks it ran.
public struct LoopLine: AppEvent {
    public static let kind = "loop"
    public var longest: Double
    public var wall: Double
    public var ticks: Int
    public init(longest: Double, wall: Double, ticks: Int) {
        self.longest = longest
        self.wall = wall
        self.ticks = ticks
    }
}
