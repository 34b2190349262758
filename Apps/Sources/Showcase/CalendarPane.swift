import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol
import ShowcaseModel

/// Situation 7: Monday's events beside a calendar with Day / Week / Month / Year segments
/// (SegmentedControl). An event held over a segment springs that view open (SP1; a click works
/// too, SP2); dropped on a date of the shown view it moves to that date, one store transaction
/// and one undo step. A date gets its store collection with its first event.
@MainActor
final class CalendarPane: ShowcasePane {
    static let itemType: ContentType = "application/x-showcase-event"
    static let views = ["Day", "Week", "Month", "Year"]
    /// The calendar shows March 2026; the Day view shows the 10th, the Week view the 9th to 15th.
    static let year = 2026, month = 3, monthName = "March", today = 10
    static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    /// The weekday (0 = Monday) of 1 March 2026, a Sunday.
    static let firstWeekday = 6

    let situation = Situation.named("calendar")!
    let widget: UnsafeMutablePointer<GtkWidget>
    var onChange: (@MainActor () -> Void)?
    var onError: (@MainActor (String) -> Void)?

    private let store: ShowcaseStore
    private unowned let host: GtkDragHost
    private let row: UnsafeMutablePointer<GtkWidget>
    private var source: StoreListView?
    private var control: SegmentedControl?
    private let viewArea: UnsafeMutablePointer<GtkWidget>
    /// Below the segments: the shown view's dates (the segments must not lie inside the target
    /// of the dates, or it would hide them from the pointer).
    private let datesArea: UnsafeMutablePointer<GtkWidget>
    private var content: UnsafeMutablePointer<GtkWidget>?
    /// The date cells of the shown view: day of March, target, widget.
    private var cells: [(day: Int, target: TargetID, widget: UnsafeMutablePointer<GtkWidget>)] = []
    private var window: TargetID?
    private let viewID = TargetID("calendar-view")

    init(store: ShowcaseStore, host: GtkDragHost) {
        self.store = store
        self.host = host
        row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 18)
        gtk_widget_set_vexpand(row, 1)
        viewArea = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        gtk_widget_set_hexpand(viewArea, 1)
        datesArea = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        gtk_widget_set_vexpand(datesArea, 1)
        widget = row
    }

    static func key(_ day: Int) -> String { String(format: "%04d-%02d-%02d", year, month, day) }
    static func name(_ day: Int) -> String { "\(weekdays[(firstWeekday + day - 1) % 7]) \(day) \(monthName)" }

    func activate(in window: TargetID) {
        self.window = window
        if source == nil { build() }
        source?.register(in: window)
        do {
            try control?.register(in: window)
            try host.register(
                datesArea, as: DragTarget(id: viewID, name: "Calendar", frame: .zero, parent: window), delegate: self)
        } catch {
            onError?("\(error)")
        }
        showView(control?.selectedIndex ?? 0)
    }

    func deactivate() {
        source?.unregister()
        if let control {
            for index in Self.views.indices { host.unregister(control.segmentID(index)) }
            host.unregister(control.id)
        }
        unregisterCells()
        host.unregister(viewID)
        window = nil
    }

    func reload() {
        source?.reload(selecting: nil)
        if let control { showView(control.selectedIndex) } else { onChange?() }
    }

    private func build() {
        do {
            let monday = try store.ensureCollection(
                pane: .calendar, key: Self.key(9), name: Self.name(9), kind: .calendarDay)
            let list = StoreListView(
                collection: monday, store: store, host: host,
                options: .init(itemType: Self.itemType, noun: Noun("event"), emptyText: words("No Events")))
            list.onStoreChanged = { [weak self] _ in self?.reload() }
            list.onError = { [weak self] message in self?.onError?(message) }
            gtk_widget_set_size_request(list.widget, 180, -1)
            UI.append(row, list.widget)
            source = list
        } catch {
            onError?(Sentence.explaining(words("Could not read the calendar"), error))
        }
        // Shown and spoken in the person's language; the state and layout lines keep the
        // English keys (``views``).
        let segments = SegmentedControl(
            id: "calendar-views", name: words("View"),
            segments: [words("Day"), words("Week"), words("Month"), words("Year")], host: host)
        segments.onSelect = { [weak self] index, _ in
            guard let self else { return }
            // After the host's callback returns: the view's targets change.
            self.host.scheduleUpdate(key: self) { [weak self] in self?.showView(index) }
        }
        UI.append(viewArea, segments.widget)
        UI.append(viewArea, datesArea)
        UI.append(row, viewArea)
        control = segments
    }

    private func unregisterCells() {
        for cell in cells { host.unregister(cell.target) }
        cells = []
    }

    /// Rebuilds the shown view (`index` into ``views``) and registers its dates.
    private func showView(_ index: Int) {
        unregisterCells()
        if let content { gtk_box_remove(dd_box(UnsafeMutableRawPointer(datesArea)), content) }
        let events = eventsByDay()
        let grid = gtk_grid_new()!
        let g = UnsafeMutablePointer<GtkGrid>(OpaquePointer(grid))
        gtk_grid_set_row_spacing(g, 4)
        gtk_grid_set_column_spacing(g, 4)
        gtk_grid_set_column_homogeneous(g, 1)
        gtk_widget_set_vexpand(grid, 1)
        var days: [(day: Int, column: Int32, row: Int32)] = []
        switch index {
        case 0: days = [(Self.today, 0, 0)]
        case 1: days = (9...15).enumerated().map { ($0.element, Int32($0.offset), 0) }
        case 2:
            days = (1...31).map { day in
                let slot = Self.firstWeekday + day - 1
                return (day, Int32(slot % 7), Int32(slot / 7))
            }
        default:
            let months = [
                "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December",
            ]
            for (i, name) in months.enumerated() {
                let label = UI.label(name, xalign: 0.5, css: i == Self.month - 1 ? ["heading", "card"] : ["card"])
                gtk_grid_attach(g, label, Int32(i % 4), Int32(i / 4), 1, 1)
            }
            let hint = UI.label(words("{year}: choose Month to drop on a date.", ["year": "\(Self.year)"]), wrap: true)
            gtk_grid_attach(g, hint, 0, 3, 4, 1)
        }
        for (day, column, line) in days {
            let cell = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 2)
            gtk_widget_add_css_class(cell, "card")
            gtk_widget_set_size_request(cell, -1, index == 2 ? 60 : 120)
            UI.append(cell, UI.label(index == 2 ? "\(day)" : Self.name(day), css: ["heading"]))
            for title in events[Self.key(day)] ?? [] {
                // Short enough for seven columns; the full title is in the tooltip.
                let label = UI.label(title, css: ["dim-label"])
                gtk_label_set_ellipsize(dd_label(UnsafeMutableRawPointer(label)), PANGO_ELLIPSIZE_END)
                gtk_label_set_max_width_chars(dd_label(UnsafeMutableRawPointer(label)), index == 2 ? 6 : 12)
                gtk_widget_set_tooltip_text(label, title)
                UI.append(cell, label)
            }
            gtk_grid_attach(g, cell, column, line, 1, 1)
            cells.append((day, TargetID("calendar-date-\(Self.key(day))"), cell))
        }
        UI.append(datesArea, grid)
        content = grid
        if window != nil {
            for cell in cells {
                var target = DragTarget(id: cell.target, name: Self.name(cell.day), frame: .zero, parent: viewID)
                target.accepts = [Self.itemType]
                target.operationPolicy = .preferMove
                do { try host.register(cell.widget, as: target, delegate: self) } catch { onError?("\(error)") }
            }
            if host.engine.isDragging { GLibSource.idle(priority: 300) { [weak self] in self?.placeCellsDuringDrag() } }
        }
        onChange?()
    }

    /// The host reads frames only between drags; a view sprung open during a drag tells the
    /// engine where its new dates are itself, once GTK has laid them out.
    private func placeCellsDuringDrag(attempt: Int = 0) {
        guard host.engine.isDragging, let window, let origin = host.engine.registry.target(window)?.frame,
            let root = gtk_widget_get_root(datesArea).map({
                UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self)
            })
        else { return }
        var missing = false
        for cell in cells {
            var bounds = graphene_rect_t()
            guard gtk_widget_compute_bounds(cell.widget, root, &bounds) != 0, bounds.size.height > 0 else {
                missing = true
                continue
            }
            let frame = Rect(
                x: origin.minX + Double(bounds.origin.x), y: origin.minY + Double(bounds.origin.y),
                width: Double(bounds.size.width), height: Double(bounds.size.height))
            try? host.engine.setFrame(frame, for: cell.target)
        }
        if missing, attempt < 20 {
            GLibSource.once(afterMilliseconds: 30) { [weak self] in self?.placeCellsDuringDrag(attempt: attempt + 1) }
        }
    }

    /// Every date's events in the store, by key.
    private func eventsByDay() -> [String: [String]] {
        var result: [String: [String]] = [:]
        do {
            for collection in try store.collections(in: .calendar) {
                result[collection.key ?? ""] = try store.items(in: collection.id ?? 0).map(\.title)
            }
        } catch {
            onError?(Sentence.explaining(words("Could not read the calendar"), error))
        }
        return result
    }

    func state() -> StateLine {
        var state = StateLine()
        state.lists = eventsByDay()
        state.selected = ["View": [Self.views[control?.selectedIndex ?? 0]]]
        return state
    }

    /// `lists`: the events list, the segments and the view; `rows`: the events, the segments
    /// ("Views") and the shown dates ("Dates", titled by day of the month).
    func layout() -> PaneLayout? {
        guard let source, let control, let frame = source.frame(), frame.height > 0,
            let rowFrames = source.elementFrames()
        else { return nil }
        var layout = PaneLayout()
        layout.lists = [(source.collection.name, frame)]
        layout.rows = [(source.collection.name, rowFrames)]
        var segments: [(title: String, frame: Rect)] = []
        for (index, title) in Self.views.enumerated() {
            guard let f = host.frameInWindow(of: control.segmentID(index)) else { return nil }
            segments.append((title, f))
        }
        layout.rows.append(("Views", segments))
        var dates: [(title: String, frame: Rect)] = []
        for cell in cells {
            guard let f = host.frameInWindow(of: cell.target) else { return nil }
            dates.append(("\(cell.day)", f))
            layout.targets.append((Self.key(cell.day), cell.target))
        }
        layout.rows.append(("Dates", dates))
        return layout
    }
}

extension CalendarPane: GtkDragHostDelegate {
    func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        guard let cell = cells.first(where: { $0.target == drop.destination }) else {
            return .failed(DropFailure(.forbidden, words("Drop events on a date.")))
        }
        let ids = drop.items.compactMap { ShowcaseTargets.itemID($0.id) }
        guard !ids.isEmpty else { return .failed(DropFailure(.forbidden, words("Only events can go on a date."))) }
        do {
            let day = try store.ensureCollection(
                pane: .calendar, key: Self.key(cell.day), name: Self.name(cell.day), kind: .calendarDay)
            let edit = try store.move(ids, to: day.id ?? 0)
            host.scheduleUpdate(key: ShowcaseDropsKey.shared) { [weak self] in self?.reload() }
            return .committed(undo: edit.action)
        } catch {
            return .failed(DropFailure(.failed, Sentence.explaining(words("The event could not be moved"), error)))
        }
    }
}
