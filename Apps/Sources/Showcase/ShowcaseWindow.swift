import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol
import Foundation
import ShowcaseModel

/// The showcase window: a toolbar (Undo, Redo), a sidebar of the fifteen situations, the
/// selected situation's pane, and a status line that says what the last drag did.
@MainActor
final class ShowcaseWindow {
    static let windowID: TargetID = "showcase"

    let options: ShowcaseOptions
    let output: TourOutput?
    private(set) var host: GtkDragHost?
    private var store: ShowcaseStore?
    private var panes: [any ShowcasePane] = []
    private var active: (any ShowcasePane)?
    private(set) var window: UnsafeMutablePointer<GtkWidget>?
    private var stack: UnsafeMutablePointer<GtkWidget>?
    private var sidebar: GObjectRef?
    private var sidebarRows: [(slug: String, row: GObjectRef)] = []
    private var undoButton: UnsafeMutablePointer<GtkWidget>?
    /// Each pane's undo history, by slug (the shown one is the window's).
    private var paneHistories: [String: UndoStack] = [:]
    private var redoButton: UnsafeMutablePointer<GtkWidget>?
    private var status: UnsafeMutablePointer<GtkWidget>?

    init(options: ShowcaseOptions) {
        self.options = options
        output = options.tour ? TourOutput() : nil
    }

    func activate(_ app: UnsafeMutablePointer<GtkApplication>) {
        let host = GtkDragHost(app: "Showcase")
        if let exports = options.exportsDirectory { host.fileExport.directory = exports }
        self.host = host
        if let seconds = options.transferTimeout { host.otherAppReadTimeout = seconds }
        if let seconds = options.transferDeadline { DropLoading.deadline = seconds }
        guard let window = gtk_application_window_new(app) else { return }
        self.window = window
        gtk_window_set_title(dd_window(window), options.title)
        gtk_window_set_default_size(dd_window(window), options.size.width, options.size.height)
        installStyles(window)

        let root = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        gtk_window_set_child(dd_window(window), root)
        UI.append(root, makeToolbar(host))
        UI.append(root, gtk_separator_new(GTK_ORIENTATION_HORIZONTAL))
        let body = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 0)
        gtk_widget_set_vexpand(body, 1)
        UI.append(root, body)
        UI.append(root, gtk_separator_new(GTK_ORIENTATION_HORIZONTAL))
        let status = UI.label(words("Pick a situation on the left, then drag."), selectable: true, css: ["sc-status"])
        self.status = status
        // A status may quote a long path from another app: it wraps anywhere, at most three
        // lines, so it never widens or heightens the window.
        let statusLabel = dd_label(UnsafeMutableRawPointer(status))
        gtk_label_set_wrap(statusLabel, 1)
        gtk_label_set_wrap_mode(statusLabel, PANGO_WRAP_WORD_CHAR)
        gtk_label_set_lines(statusLabel, 3)
        gtk_label_set_ellipsize(statusLabel, PANGO_ELLIPSIZE_END)
        UI.append(root, status)

        let stack = gtk_stack_new()!
        self.stack = stack
        gtk_stack_set_transition_type(OpaquePointer(stack), GTK_STACK_TRANSITION_TYPE_NONE)
        // As wide as the pane shown needs, not as the widest pane (Mail's three columns): a
        // narrow window keeps its size on the panes that fit in it.
        gtk_stack_set_hhomogeneous(OpaquePointer(stack), 0)
        gtk_widget_set_hexpand(stack, 1)

        do {
            let store = try ShowcaseStore(path: options.databasePath)
            self.store = store
            if options.bigData {
                // One transaction written by SQLite itself: a quarter of a second on first run.
                let clock = ContinuousClock()
                let start = clock.now
                if try store.insertBigDataIfNeeded() {
                    let seconds = (clock.now - start) / .seconds(1)
                    FileHandle.standardError.write(
                        Data(
                            "showcase: generated All Mail and the photo library in \(String(format: "%.2f", seconds)) s\n"
                                .utf8))
                }
            }
            store.onUndoFailure = { error in
                Task { @MainActor [weak self] in self?.showStatus(Sentence.explaining(words("Could not undo"), error)) }
            }
            panes = Self.makePanes(store: store, host: host, options: options)
            if let output, let notes = panes.first(where: { $0 is NotesPane }) as? NotesPane {
                // The tour sees an activated link instead of a browser opening.
                notes.onOpenLink = { address in output.write(LinkLine(opened: address)) }
            }
        } catch {
            panes = Situation.all.map { PendingPane($0) }
            showStatus(
                Sentence.explaining(
                    words("Could not open the showcase's data at {path}", ["path": options.databasePath]), error))
        }
        for pane in panes {
            pane.onChange = { [weak self, weak pane] in
                guard let self, let pane, pane === self.active else { return }
                self.updateUndoButtons()
                self.printState()
            }
            pane.onError = { [weak self] message in self?.showStatus(message) }
            // Titled: a screen reader names the page by its pane ("Reminders panel"), not
            // by GTK's type name ("GtkStackPage panel").
            gtk_stack_add_titled(OpaquePointer(stack), makePage(pane), pane.situation.slug, pane.situation.title)
        }
        UI.append(body, makeSidebar())
        UI.append(body, gtk_separator_new(GTK_ORIENTATION_VERTICAL))
        UI.append(body, stack)

        host.onEvent = { [weak self] event in self?.handle(event) }
        // One history per pane (U1): the pane shown is the window's document, so Ctrl+Z, the
        // toolbar and the edit menus undo its steps only, never a hidden pane's. Every new,
        // undone or redone step (a deferred drop's arrives after its content): the Undo and Redo
        // titles, and the tour's state line, follow the shown pane's stack.
        for pane in panes {
            let history = UndoStack()
            history.onChange = { [weak self] _ in
                MainActor.assumeIsolated {
                    guard let self, self.paneHistories[pane.situation.slug] === history else { return }
                    self.updateUndoButtons()
                    self.printState()
                }
            }
            paneHistories[pane.situation.slug] = history
        }
        host.onDiagnostic = { [weak self] message in self?.output?.write(GtkLine(message: message)) }
        do {
            try host.addWindow(window, id: Self.windowID, name: options.title)
        } catch {
            showStatus("\(error)")
        }
        trackPaints(window)
        trackFocusAndMenus(window)
        if let output { LoopWatch(output: output, reportMilliseconds: options.loopReportSeconds * 1000).start() }
        output?.write(
            SituationsLine(
                items: Situation.all.map { situation in
                    let implemented = panes.contains { $0.situation == situation && !($0 is PendingPane) }
                    return SituationsLine.Situation(
                        number: situation.number, slug: situation.slug, title: situation.title,
                        pane: implemented ? "implemented" : "placeholder", pending: situation.pending)
                }))
        gtk_window_present(dd_window(window))
        select(Situation.named(options.pane)?.slug ?? "reminders")
        updateUndoButtons()
    }

    /// The panes, in the order of the situations: implemented ones where the widgets exist,
    /// pending pages for the rest.
    static func makePanes(
        store: ShowcaseStore, host: GtkDragHost, options: ShowcaseOptions = ShowcaseOptions()
    ) -> [any ShowcasePane] {
        Situation.all.map { situation -> any ShowcasePane in
            switch situation.slug {
            case "notes": NotesPane(store: store, host: host)
            case "contacts-mail": ContactsMailPane(store: store, host: host)
            case "calendar": CalendarPane(store: store, host: host)
            case "reminders": RemindersPane(store: store, host: host)
            case "mail": MailPane(store: store, host: host)
            case "files": FilesPane(store: store, host: host, bigData: options.bigData)
            case "charts": AppsPanes.charts(host: host)
            case "drawing": AppsPanes.drawing(host: host)
            case "upload": UploadPane(store: store, host: host)
            case "home-screen": HomeScreenPane(store: store, host: host)
            case "photos": PhotosPane(store: store, host: host)
            case "web-mail": WebMailPane(host: host)
            case "home-pages": HomePagesPane(store: store, host: host)
            case "settings": SettingsPane(store: store, host: host)
            case "inbox": InboxPane(store: store, host: host, refreshEvery: options.refreshEvery)
            default: PendingPane(situation)
            }
        }
    }

    // MARK: Building

    private func installStyles(_ window: UnsafeMutablePointer<GtkWidget>) {
        guard let display = gtk_widget_get_display(window), let provider = gtk_css_provider_new() else { return }
        gtk_css_provider_load_from_data(provider, UI.css, -1)
        gtk_style_context_add_provider_for_display(
            display, dd_style_provider(UnsafeMutableRawPointer(provider)),
            guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(UnsafeMutableRawPointer(provider))
    }

    private func makeToolbar(_ host: GtkDragHost) -> UnsafeMutablePointer<GtkWidget> {
        let bar = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 4)
        UI.margins(bar, 6)
        let undo = UI.button(words("Undo"), tooltip: words("Undo (Ctrl+Z)")) { [weak host] in
            host?.undo(in: Self.windowID)
        }
        let redo = UI.button(words("Redo"), tooltip: words("Redo (Ctrl+Shift+Z)")) { [weak host] in
            host?.redo(in: Self.windowID)
        }
        undoButton = undo
        redoButton = redo
        UI.append(bar, undo)
        UI.append(bar, redo)
        UI.append(bar, makeEditMenuButton())
        return bar
    }

    /// The toolbar's Edit menu (F10 opens it): Move To…, Copy To… and Pick Up act on the focused
    /// row or tile and its selection, for dragging without a pointer (C4).
    private func makeEditMenuButton() -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_menu_button_new()!
        let raw = OpaquePointer(button)
        gtk_menu_button_set_label(raw, words("Edit"))
        if let model = GtkDragHost.makeDragMenu() {
            gtk_menu_button_set_menu_model(raw, model)
            g_object_unref(UnsafeMutableRawPointer(model))
        }
        gtk_menu_button_set_primary(raw, 1)
        gtk_menu_button_set_has_frame(raw, 0)
        gtk_widget_set_tooltip_text(button, words("Move To…, Copy To… and Pick Up (F10)"))
        return button
    }

    private func makeSidebar() -> UnsafeMutablePointer<GtkWidget> {
        let list = GObjectRef(newWidget: gtk_list_box_new())
        sidebar = list
        gtk_widget_add_css_class(list.widget, "navigation-sidebar")
        gtk_widget_add_css_class(list.widget, "sc-sidebar")
        dd_accessible_set_label(dd_accessible(list.raw), words("Situations"))
        for situation in Situation.all {
            let row = GObjectRef(newWidget: gtk_list_box_row_new())
            let label = UI.label("\(situation.number). \(situation.title)")
            gtk_list_box_row_set_child(dd_list_box_row(row.raw), label)
            gtk_list_box_append(dd_list_box(list.raw), row.widget)
            sidebarRows.append((situation.slug, row))
        }
        GSignal.connect(
            list.raw, "row-selected",
            pointer: { [weak self] row in
                guard let self, let row, let slug = self.sidebarRows.first(where: { $0.row.raw == row })?.slug else {
                    return
                }
                self.show(slug)
            })
        // Up and Down pick a situation; Tab goes on into its pane rather than to the next row.
        FocusNavigation.tabLeaves(list.widget)
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(
            dd_scrolled_window(UnsafeMutableRawPointer(scroller)), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(dd_scrolled_window(UnsafeMutableRawPointer(scroller)), list.widget)
        gtk_widget_set_size_request(scroller, 220, -1)
        return scroller
    }

    private func makePage(_ pane: any ShowcasePane) -> UnsafeMutablePointer<GtkWidget> {
        let page = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 10)
        UI.margins(page, 16)
        UI.append(page, UI.label(pane.situation.title, selectable: true, css: ["sc-pane-title"]))
        UI.append(page, UI.label(pane.situation.summary, selectable: true, wrap: true))
        UI.append(page, pane.widget)
        return page
    }

    // MARK: Panes

    /// Selects a situation in the sidebar (which shows its pane).
    func select(_ slug: String) {
        guard let sidebar, let row = sidebarRows.first(where: { $0.slug == slug })?.row else { return }
        gtk_list_box_select_row(dd_list_box(sidebar.raw), dd_list_box_row(row.raw))
        show(slug)
    }

    /// Shows a situation's pane: the pane shown before lets go of its targets first.
    private func show(_ slug: String) {
        guard let stack, let pane = panes.first(where: { $0.situation.slug == slug }), pane !== active else { return }
        // The status line speaks of the pane shown: the last pane's sentence goes with it.
        if let previous = active {
            previous.deactivate()
            showStatus("")
        }
        active = pane
        host?.engine.useUndoStack(paneHistories[slug], for: Self.windowID)
        updateUndoButtons()
        gtk_stack_set_visible_child_name(OpaquePointer(stack), slug)
        pane.activate(in: Self.windowID)
        printState()
    }

    // MARK: Feedback

    private func handle(_ event: FeedbackEvent) {
        if let output, let host {
            output.write(FeedbackLine(event, at: host.engine.clock.now))
        }
        switch event {
        case .undid, .redid:
            active?.reload()
        case .announcement(let sentence):
            showStatus(sentence.text)
        case .outcome(.returnToSource(let failure)), .outcome(.evaporate(let failure)):
            if failure.code != .cancelled { showStatus(failure.message) }
        default:
            break
        }
        updateUndoButtons()
    }

    /// Shows `text` on the status line. It often names what another app sent (a file, an
    /// app): bidirectional controls that reorder text are removed here too, the one place every
    /// status passes; the isolates a sentence puts around a name that reads the other way (L2:
    /// an English title in a Hebrew sentence) stay when balanced.
    private func showStatus(_ text: String) {
        let text = BidiControls.keepingIsolates(text)
        if let status { UI.setText(status, text) }
        output?.write(StatusLine(text: text))
    }

    private func updateUndoButtons() {
        guard let host, let undoButton, let redoButton else { return }
        let stack = host.engine.undoStack(for: Self.windowID)
        gtk_widget_set_sensitive(undoButton, stack.canUndo ? 1 : 0)
        gtk_widget_set_sensitive(redoButton, stack.canRedo ? 1 : 0)
        // A step that cannot be undone (a move into another app) says so (U1).
        gtk_widget_set_tooltip_text(
            undoButton,
            stack.canUndo
                ? "\(stack.undoMenuItemTitle) (Ctrl+Z)"
                : stack.undoIsBlocked ? stack.undoMenuItemTitle : words("Nothing to Undo"))
        gtk_widget_set_tooltip_text(
            redoButton, stack.canRedo ? "\(stack.redoMenuItemTitle) (Ctrl+Shift+Z)" : words("Nothing to Redo"))
    }

    // MARK: Tour output

    private func printState() {
        guard let output, let active, let host else { return }
        let stack = host.engine.undoStack(for: Self.windowID)
        var state = active.state()
        state.pane = active.situation.slug
        state.undo = stack.canUndo || stack.undoIsBlocked ? stack.undoMenuItemTitle : ""
        state.redo = stack.canRedo ? stack.redoMenuItemTitle : ""
        output.writeIfChanged(state)
    }

    private func trackPaints(_ window: UnsafeMutablePointer<GtkWidget>) {
        guard output != nil else { return }
        let connect: @MainActor () -> Void = { [weak self] in
            guard let clock = gtk_widget_get_frame_clock(window) else { return }
            GSignal.connect(UnsafeMutableRawPointer(clock), "after-paint") { [weak self] in self?.printLayout() }
        }
        if gtk_widget_get_realized(window) != 0 {
            connect()
        } else {
            GSignal.connect(UnsafeMutableRawPointer(window), "realize", connect)
        }
    }

    /// Where things are, in window coordinates, once the shown pane is laid out; printed when
    /// it changed. `surface` is the window's offset inside its X window (client-side
    /// decorations), so screen = X window origin + surface + frame.
    private func printLayout() {
        guard let output, let window, let active, let host, !host.engine.isDragging,
            let paneLayout = active.layout()
        else { return }
        var sx = 0.0, sy = 0.0
        gtk_native_get_surface_transform(OpaquePointer(window), &sx, &sy)
        var layout = LayoutLine()
        layout.pane = active.situation.slug
        layout.window = [Double(gtk_widget_get_width(window)), Double(gtk_widget_get_height(window))]
        layout.surface = [sx, sy]
        layout.sidebar = [:]
        for (slug, row) in sidebarRows {
            guard let b = UI.bounds(of: row.widget, in: window), b.height > 0 else { return }
            layout.sidebar?[slug] = Frame(x: b.x, y: b.y, width: b.width, height: b.height)
        }
        layout.buttons = [:]
        for (name, button) in [("Undo", undoButton), ("Redo", redoButton)] {
            guard let button, let b = UI.bounds(of: button, in: window) else { continue }
            layout.buttons?[name] = Frame(x: b.x, y: b.y, width: b.width, height: b.height)
        }
        layout.lists = keyed(paneLayout.lists.map { ($0.0, Frame($0.1)) })
        layout.rows = keyed(
            paneLayout.rows.map { name, rows in
                (name, rows.map { TitledFrame(title: $0.title, frame: Frame($0.frame)) })
            })
        layout.targets = keyed(paneLayout.targets.map { ($0.0, $0.1.rawValue) })
        if output.writeIfChanged(layout) {
            var controls = ControlsReport.line(under: window, targets: titleContainers())
            controls.pane = active.situation.slug
            output.writeIfChanged(controls)
            output.announceReadyOnce()
        }
    }

    /// The registered drag sources' and destinations' widgets: their labels are titles (a press
    /// on them starts a drag), not text to copy (K3).
    func titleContainers() -> Set<UnsafeMutableRawPointer> {
        guard let host else { return [] }
        return Set(
            host.registeredTargetIDs.filter { $0 != Self.windowID }.compactMap { host.widget(for: $0) }.map {
                UnsafeMutableRawPointer($0)
            })
    }

    /// The pane shown now, for `--check`.
    var activePane: (any ShowcasePane)? { active }

    /// In tour mode, prints a `focus` line whenever the keyboard focus moves and a `menu` line
    /// whenever an edit menu opens (its commands, in order), for the keyboard checks.
    private func trackFocusAndMenus(_ window: UnsafeMutablePointer<GtkWidget>) {
        guard let output else { return }
        GSignal.connect(
            UnsafeMutableRawPointer(window), "notify::focus-widget",
            pointer: { _ in
                guard let focus = ControlsReport.focus(in: window) else { return }
                output.write(focus)
            })
        EditMenu.onOpen = { owner, items in
            output.write(MenuLine(owner: owner, items: items.map(\.title)))
        }
        // A contact-add button's list (situations 9 and 15): its contacts and where they are.
        ContactAddButton.onOpen = { field, rows in
            output.write(
                PickerLine(
                    field: field, rows: rows.map(\.name),
                    frames: keyed(rows.map { ($0.name, $0.frame.map(Frame.init)) })))
        }
    }
}

extension Frame {
    /// A rectangle of the engine's, as printed.
    init(_ r: Rect) { self.init(x: r.minX, y: r.minY, width: r.width, height: r.height) }
}
