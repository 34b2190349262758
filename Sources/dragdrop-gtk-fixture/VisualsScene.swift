import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol
import Glibc

// `--scene visuals`: what the user sees during and after drags.
//
//   [Groceries | Pantry (a stack)] [Inbox (loads slowly)] [Archive (read-only)] [Outbox (asks)] [Notes (scrolls)]
//   [Show Pantry (spring-loaded)]  status
//
// Besides the default scene's lines it prints:
//   {"kind":"controls","spring":[x,y,w,h],"scroll":[…],"stack":[…]}   with every layout line
//   {"kind":"activated","control":…,"how":"click"|"spring","page":…}   the spring button acted
//   {"kind":"scroll","target":"notes-scroll","offset":…}                the Notes list scrolled
//   {"kind":"notice","message":…}                                     a failure reason shown
//   {"kind":"confirmation","cancel":[…],"confirm":[…]}                the confirmation's buttons
//   {"kind":"loading","token":…,"fraction":…}                          the Inbox's slow loading

@MainActor
final class VisualsScene {
    unowned let fixture: Fixture
    let host: GtkDragHost
    let window: UnsafeMutablePointer<GtkWidget>
    let stack: GObjectRef
    var spring: SpringButton?
    var scroll: DragScrollView?
    var status: GObjectRef?
    var visibleLists: [DragListView] = []
    var page = "groceries"

    init(fixture: Fixture, host: GtkDragHost, window: UnsafeMutablePointer<GtkWidget>) {
        self.fixture = fixture
        self.host = host
        self.window = window
        stack = GObjectRef(newWidget: gtk_stack_new())
    }
}

@MainActor var visualsScene: VisualsScene?

extension Fixture {
    /// Builds the scene named by `--scene` if this file knows it; returns whether it did.
    func activateVisualsScene(_ app: UnsafeMutablePointer<GtkApplication>) -> Bool {
        let arguments = CommandLine.arguments
        guard let i = arguments.firstIndex(of: "--scene"), i + 1 < arguments.count, arguments[i + 1] == "visuals"
        else { return false }
        let host = GtkDragHost(app: "dragdrop-gtk-fixture")
        self.host = host
        // Slow enough for a screenshot to catch the animation.
        host.evaporateDuration = .milliseconds(1500)
        host.noticeDuration = .seconds(8)
        guard let window = gtk_application_window_new(app) else { return true }
        gtk_window_set_title(dd_window(window), "DragDrop fixture")
        gtk_window_set_default_size(dd_window(window), width, height)
        let scene = VisualsScene(fixture: self, host: host, window: window)
        visualsScene = scene
        do {
            try scene.build()
        } catch {
            LineWriter.write(ErrorLine(message: "\(error)"))
            g_application_quit(dd_application(app))
            return true
        }
        gtk_window_present(dd_window(window))
        printState()
        return true
    }
}

extension VisualsScene {
    func build() throws {
        let outer = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)
        for margin in [
            gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start,
            gtk_widget_set_margin_end,
        ] {
            margin(outer, 16)
        }
        let columns = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 16)
        gtk_box_set_homogeneous(dd_box(UnsafeMutableRawPointer(columns)), 1)
        gtk_widget_set_vexpand(columns, 1)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(outer)), columns)

        let groceries = DragListView(
            id: "groceries", title: "Groceries", items: ["Milk", "Eggs", "Bread", "Apples", "Cheese (damaged)"],
            host: host, operationPolicy: .preferMove)
        let pantry = DragListView(
            id: "pantry", title: "Pantry", items: ["Rice", "Beans"], host: host, operationPolicy: .preferMove)
        let inbox = DragListView(
            id: "inbox", title: "Inbox", items: ["Welcome"], host: host, operationPolicy: .preferMove)
        let archive = DragListView(
            id: "archive", title: "Archive", items: ["Old Note"], host: host,
            operationPolicy: .forbidden(reason: "The archive is read-only: nothing can be added to it."))
        let outbox = DragListView(
            id: "outbox", title: "Outbox", items: ["Draft"], host: host, operationPolicy: .preferMove)
        outbox.confirmation = "Sending cannot be undone. Move to the Outbox?"
        let notes = DragListView(
            id: "notes", title: "Notes", items: (1...30).map { "Note \($0)" }, host: host, operationPolicy: .preferMove)
        inbox.defersDrop = { [weak self] drop in
            self?.loadSlowly(drop, into: inbox)
            return true
        }

        gtk_stack_add_named(dd_stack(stack.raw), groceries.widget, "groceries")
        gtk_stack_add_named(dd_stack(stack.raw), pantry.widget, "pantry")
        gtk_box_append(dd_box(UnsafeMutableRawPointer(columns)), stack.widget)
        for list in [inbox, archive, outbox] { gtk_box_append(dd_box(UnsafeMutableRawPointer(columns)), list.widget) }
        let scroll = DragScrollView(id: "notes-scroll", name: "Notes", child: notes.widget, host: host)
        self.scroll = scroll
        gtk_box_append(dd_box(UnsafeMutableRawPointer(columns)), scroll.widget)

        let bottom = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)
        let spring = SpringButton(
            id: "show-pantry", title: "Show Pantry", host: host,
            springLoading: SpringLoadingConfiguration(delay: .milliseconds(1400), flashLead: .milliseconds(1000)))
        self.spring = spring
        let status = GObjectRef(newWidget: gtk_label_new("Showing Groceries"))
        self.status = status
        gtk_box_append(dd_box(UnsafeMutableRawPointer(bottom)), spring.widget)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(bottom)), status.widget)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(outer)), bottom)

        host.onEvent = { [weak self] event in self?.observe(event) }
        host.onDiagnostic = { message in LineWriter.write(GtkLine(message: message)) }
        host.onFramesChanged = { [weak self] in self?.printLayout() }
        host.onNotice = { message in LineWriter.write(NoticeLine(message: message)) }
        spring.onActivate = { [weak self] how in self?.togglePage(how) }
        scroll.onScroll = { offset in
            LineWriter.write(ScrollLine(target: "notes-scroll", offset: offset))
        }

        // The window is added empty and gets its content inside the host's feedback layer
        // (F7, A6, U2 are seen on screen through it); TwoWindowsScene adds windows that
        // already have content.
        try host.addWindow(window, id: "window", name: "DragDrop fixture")
        try host.setContent(outer, of: "window")
        try spring.register(in: "window")
        try groceries.register(in: "window")
        try pantry.register(in: "window")
        for list in [inbox, archive, outbox] { try list.register(in: "window") }
        try scroll.register(in: "window")
        try notes.register(in: scroll.id)
        fixture.lists = [groceries, pantry, inbox, archive, outbox, notes]
        for list in fixture.lists { list.onChange = { [weak self] in self?.fixture.printState() } }
    }

    /// The spring-loaded button switches the stack's page (SP1 by hovering, SP2 by clicking).
    func togglePage(_ how: SpringButton.Activation) {
        page = page == "groceries" ? "pantry" : "groceries"
        gtk_stack_set_visible_child_name(dd_stack(stack.raw), page)
        spring?.setTitle(page == "groceries" ? "Show Pantry" : "Show Groceries")
        if let status {
            gtk_label_set_text(dd_label(status.raw), page == "groceries" ? "Showing Groceries" : "Showing Pantry")
        }
        let kind: String
        switch how {
        case .click: kind = "click"
        case .springLoaded: kind = "spring"
        }
        LineWriter.write(ActivatedLine(control: "show-pantry", how: kind, page: page))
    }

    /// The Inbox loads dropped content over 4.8 s in 12 steps (slow enough for screenshots on a
    /// busy machine); an item whose name says "damaged" breaks halfway (A6).
    func loadSlowly(_ drop: DropRequest, into inbox: DragListView) {
        let token = drop.token
        let broken = drop.items.first { $0.name.contains("damaged") }
        var step = 0
        func next() {
            GLibSource.once(afterMilliseconds: 400) { [weak self] in
                guard let self else { return }
                step += 1
                let fraction = Double(step) / 12
                LineWriter.write(LoadingLine(token: token.rawValue, fraction: fraction))
                if let broken, step == 6 {
                    inbox.finishDeferredDrop(
                        token,
                        failure: DropFailure(
                            .failed,
                            "\u{201C}\(broken.name)\u{201D} could not be read: the transfer was interrupted. Nothing was lost."
                        ))
                    return
                }
                self.host.updateDeferredDrop(token, progress: fraction)
                if step < 12 { next() } else { inbox.finishDeferredDrop(token) }
            }
        }
        next()
    }

    func observe(_ event: FeedbackEvent) {
        fixture.printEvent(event)
        if case .confirmationRequested = event {
            GLibSource.once(afterMilliseconds: 150) { [weak self] in self?.printConfirmationButtons() }
        }
    }
}
