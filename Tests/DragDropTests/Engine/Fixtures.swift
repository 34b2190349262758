import DragDrop
import DragDropTesting
import Testing

/// Scene builders and assertion helpers shared by the engine's rule tests.
///
/// Every laid-out list has 40-point rows starting at its top edge with no padding, so row `i` of
/// a list at `y = 0` spans `40 * i ..< 40 * i + 40` and its midpoint is `40 * i + 20`.
enum EngineFixtures {
    static let reminderType: ContentType = "application/x-reminder"
    static let photoType: ContentType = "image/jpeg"
    static let fileType: ContentType = "application/x-file"
    static let appIconType: ContentType = "application/x-app-icon"
    static let eventType: ContentType = "application/x-calendar-event"

    static let reminder = Noun("reminder")
    static let photo = Noun("photo")
    static let file = Noun("file")
    static let paragraph = Noun("paragraph")
    static let icon = Noun("icon")
    static let event = Noun("event")

    static let rowHeight = 40.0

    /// The midpoint of row `row` of a list whose top edge is at `top`.
    static func row(_ row: Int, x: Double, top: Double = 0) -> Point {
        Point(x: x, y: top + Double(row) * rowHeight + rowHeight / 2)
    }

    static func item(_ id: TargetID, _ name: String, offers: [ContentType], kind: Noun) -> SceneNode {
        var n = SceneNode(id: id, name: name, role: .item)
        n.offers = offers
        n.kind = kind
        return n
    }

    static func list(
        _ id: TargetID, _ name: String, frame: Rect, accepts: [ContentType], items: [SceneNode],
        policy: OperationPolicy = .automatic, layout: InsertionLayout? = .vertical
    ) -> SceneNode {
        var n = SceneNode(id: id, name: name, role: .container, frame: frame)
        n.accepts = accepts
        n.layout = layout
        n.policy = policy
        n.children = items
        return n
    }

    static func reminders(_ names: [(TargetID, String)]) -> [SceneNode] {
        names.map { item($0.0, $0.1, offers: [reminderType], kind: reminder) }
    }

    static func window(_ id: TargetID, _ name: String, frame: Rect, _ children: [SceneNode]) -> SceneNode {
        var w = SceneNode(id: id, name: name, role: .group, frame: frame)
        w.children = children
        return w
    }

    // MARK: Scenes

    /// Reminders (scenario 2): one 800×600 window holding two lists side by side.
    ///
    /// - `groceries` (x 0..<380): milk, eggs, bread, butter. Row midpoints at x = 100.
    /// - `work` (x 400..<780): report, email, call. Row midpoints at x = 500.
    /// - Between them (x 380..<400) only the window: nothing accepts there.
    static func remindersScene(policy: OperationPolicy = .preferMove) throws -> Scene {
        let groceries = list(
            "groceries", "Groceries", frame: Rect(x: 0, y: 0, width: 380, height: 600), accepts: [reminderType],
            items: reminders([("milk", "Milk"), ("eggs", "Eggs"), ("bread", "Bread"), ("butter", "Butter")]),
            policy: policy)
        let work = list(
            "work", "Work", frame: Rect(x: 400, y: 0, width: 380, height: 600), accepts: [reminderType],
            items: reminders([("report", "Report"), ("email", "Email"), ("call", "Call")]), policy: policy)
        return try Scene([
            window("window", "Reminders", frame: Rect(x: 0, y: 0, width: 800, height: 600), [groceries, work])
        ])
    }

    /// Two windows of one app, side by side, each with one list of reminders (automatic policy).
    /// `left` (x 0..<400) holds list `inbox`; `right` (x 500..<900) holds list `someday`.
    static func twoWindowsScene() throws -> Scene {
        let inbox = list(
            "inbox", "Inbox", frame: Rect(x: 0, y: 0, width: 400, height: 400), accepts: [reminderType],
            items: reminders([("milk", "Milk"), ("eggs", "Eggs")]))
        let someday = list(
            "someday", "Someday", frame: Rect(x: 500, y: 0, width: 400, height: 400), accepts: [reminderType],
            items: reminders([("trip", "Trip")]))
        return try Scene([
            window("left", "Inbox Window", frame: Rect(x: 0, y: 0, width: 400, height: 400), [inbox]),
            window("right", "Someday Window", frame: Rect(x: 500, y: 0, width: 400, height: 400), [someday]),
        ])
    }

    /// A note (scenario 1): one container of paragraphs, automatic policy, plus a second note
    /// to its right (x 400..<800) taking paragraphs too.
    static func notesScene() throws -> Scene {
        let paragraphs = ["intro", "body", "detail", "end"].map {
            item(TargetID($0), $0.capitalizedFirstLetter, offers: [.plainText], kind: paragraph)
        }
        let note = list(
            "note", "Note", frame: Rect(x: 0, y: 0, width: 380, height: 600), accepts: [.plainText], items: paragraphs)
        let other = list(
            "other", "Other Note", frame: Rect(x: 400, y: 0, width: 380, height: 600), accepts: [.plainText],
            items: [item("quote", "Quote", offers: [.plainText], kind: paragraph)])
        return try Scene([window("window", "Notes", frame: Rect(x: 0, y: 0, width: 800, height: 600), [note, other])])
    }

    /// Photos (scenarios 3 and 5): a sidebar of albums on the left, the library grid on the right.
    ///
    /// - `trips` (0, 0, 200×40), `family` (0, 40, 200×40): albums (drop points).
    /// - `shared` (0, 80, 200×40): a shared stream whose drops offer "Stop Sharing" (U3).
    /// - `more` (0, 120, 200×40): a spring-loaded control showing the hidden album `archive`
    ///   (0, 160, 200×40).
    /// - `library` (200, 0, 600×600): a grid of 100×100 photos beach, city, forest, lake.
    static func photosScene() throws -> Scene {
        func album(_ id: TargetID, _ name: String, y: Double) -> SceneNode {
            var a = SceneNode(id: id, name: name, role: .dropPoint, frame: Rect(x: 0, y: y, width: 200, height: 40))
            a.accepts = [photoType]
            return a
        }
        var shared = album("shared", "Shared Stream", y: 80)
        shared.cancellationTitle = "Stop Sharing"
        var more = SceneNode(
            id: "more", name: "More Albums", role: .control, frame: Rect(x: 0, y: 120, width: 200, height: 40))
        more.springLoading = SpringLoadingConfiguration()
        more.showsOnActivate = ["archive"]
        var archive = album("archive", "Archive", y: 160)
        archive.isHidden = true
        var library = list(
            "library", "Library", frame: Rect(x: 200, y: 0, width: 600, height: 600), accepts: [photoType],
            items: [("beach", "Beach"), ("city", "City"), ("forest", "Forest"), ("lake", "Lake")].map {
                item($0.0, $0.1, offers: [photoType], kind: photo)
            }, layout: .grid)
        library.itemSize = Size(width: 100, height: 100)
        return try Scene([
            window(
                "window", "Photos", frame: Rect(x: 0, y: 0, width: 800, height: 600),
                [album("trips", "Trips", y: 0), album("family", "Family", y: 40), shared, more, archive, library])
        ])
    }

    /// The centre of photo `index` in the library grid (6 columns of 100 points from x = 200).
    static func photoCenter(_ index: Int) -> Point {
        Point(x: 200 + Double(index % 6) * 100 + 50, y: Double(index / 6) * 100 + 50)
    }

    /// Home screen (scenario 4): a grid of app icons with a folder, and a dock.
    ///
    /// - `grid` (0, 0, 800×480): 100×100 icons in one row: maps (x 0), notes (x 100) and the
    ///   folder `utilities` (x 200), which accepts icons, holds calculator and compass, and is
    ///   spring-loaded: it opens `utilitiesView` (hidden, same frame as the grid) and hides the grid.
    /// - `dock` (0, 500, 800×100): phone (x 0), mail (x 100).
    /// Every container moves icons (preferMove), like a home screen.
    static func homeScene() throws -> Scene {
        func icon(_ id: TargetID, _ name: String) -> SceneNode {
            item(id, name, offers: [appIconType], kind: EngineFixtures.icon)
        }
        var folder = icon("utilities", "Utilities")
        folder.accepts = [appIconType]
        folder.policy = .preferMove
        folder.springLoading = SpringLoadingConfiguration()
        folder.showsOnActivate = ["utilitiesView"]
        folder.hidesOnActivate = ["grid"]
        for id in ["calculator", "compass"] {
            var inside = icon(TargetID(id), id.capitalizedFirstLetter)
            inside.frame = Rect(x: 200, y: 0, width: 0, height: 0)
            folder.children.append(inside)
        }
        var grid = list(
            "grid", "Home Screen", frame: Rect(x: 0, y: 0, width: 800, height: 480), accepts: [appIconType],
            items: [icon("maps", "Maps"), icon("notes", "Notes"), folder], policy: .preferMove, layout: .grid)
        grid.itemSize = Size(width: 100, height: 100)
        var view = list(
            "utilitiesView", "Utilities Folder", frame: Rect(x: 0, y: 0, width: 800, height: 480),
            accepts: [appIconType], items: [], policy: .preferMove, layout: .grid)
        view.itemSize = Size(width: 100, height: 100)
        view.isHidden = true
        var dock = list(
            "dock", "Dock", frame: Rect(x: 0, y: 500, width: 800, height: 100), accepts: [appIconType],
            items: [icon("phone", "Phone"), icon("mail", "Mail")], policy: .preferMove, layout: .horizontal)
        dock.itemSize = Size(width: 100, height: 100)
        return try Scene([window("home", "Home", frame: Rect(x: 0, y: 0, width: 800, height: 600), [grid, view, dock])])
    }

    static let messageType: ContentType = "message/rfc822"
    static let message = Noun("message")

    /// Mail (scenario 6): a Back button that springs open the mailbox list.
    ///
    /// - `back` (0, 0, 100×40): spring-loaded control; activating it shows `mailboxes` and hides
    ///   `inbox`.
    /// - `inbox` (0, 50, 400×550): messages lunch, invoice, newsletter (row midpoints y 70, 110, 150).
    /// - `mailboxes` (0, 50, 400×550, hidden): rows `archiveBox` and `junk`, folders taking messages.
    /// - Right of x = 400 the window holds nothing that accepts.
    static func mailScene() throws -> Scene {
        var back = SceneNode(id: "back", name: "Back", role: .control, frame: Rect(x: 0, y: 0, width: 100, height: 40))
        back.springLoading = SpringLoadingConfiguration()
        back.showsOnActivate = ["mailboxes"]
        back.hidesOnActivate = ["inbox"]
        let inbox = list(
            "inbox", "Inbox", frame: Rect(x: 0, y: 50, width: 400, height: 550), accepts: [messageType],
            items: [("lunch", "Lunch plans"), ("invoice", "Invoice"), ("newsletter", "Newsletter")].map {
                item($0.0, $0.1, offers: [messageType], kind: message)
            })
        var boxes: [SceneNode] = []
        for (id, name) in [("archiveBox", "Archive"), ("junk", "Junk")] {
            var box = SceneNode(id: TargetID(id), name: name, role: .item)
            box.accepts = [messageType]
            boxes.append(box)
        }
        var mailboxes = list(
            "mailboxes", "Mailboxes", frame: Rect(x: 0, y: 50, width: 400, height: 550), accepts: [], items: boxes)
        mailboxes.isHidden = true
        return try Scene([
            window("mail", "Mail", frame: Rect(x: 0, y: 0, width: 800, height: 600), [back, inbox, mailboxes])
        ])
    }

    /// A drag from another app (scenario 3): a photo from a web page.
    static let webPhoto = DragItem(
        id: "web-sunset", name: "Sunset", kind: photo, types: [photoType, .png], app: "Safari")
}

extension String {
    fileprivate var capitalizedFirstLetter: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}

// MARK: Assertion helpers

extension FeedbackEvent {
    /// Whether this is spoken text, which most steps leave out of their expectations.
    var isEngineAnnouncement: Bool {
        if case .announcement = self { return true }
        return false
    }
}

extension DragHarness {
    /// A position in the feedback log, to assert everything one step caused.
    var engineMark: Int { feedback.count }

    /// The feedback since `mark`, without announcements.
    func engineFeedback(since mark: Int) -> [FeedbackEvent] {
        feedback[mark...].filter { !$0.isEngineAnnouncement }
    }

    /// The announcements since `mark`, in order.
    func engineAnnouncements(since mark: Int = 0) -> [String] {
        feedback[mark...].compactMap { if case .announcement(let s) = $0 { s.text } else { nil } }
    }

    /// The feedback entries of the timeline since the timeline position `mark`, with their
    /// virtual time, without announcements.
    func engineTimedFeedback(sinceEntry mark: Int = 0) -> [(MonotonicInstant, FeedbackEvent)] {
        timeline[mark...].compactMap { entry in
            if case .feedback(let f) = entry.event, !f.isEngineAnnouncement { return (entry.time, f) }
            return nil
        }
    }

    /// Presses at `from` and moves 3 points right: the drag lifts (F1).
    func engineLift(at from: Point) {
        press(at: from)
        move(to: Point(x: from.x + 3, y: from.y))
    }

    /// The preview events recorded since `mark`.
    func enginePreviews(since mark: Int = 0) -> [PreviewState] {
        feedback[mark...].compactMap { if case .preview(let p) = $0 { p } else { nil } }
    }
}

/// An instant `seconds` after the virtual clock's origin.
func engineInstant(_ duration: Duration) -> MonotonicInstant { .origin + duration }
