import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol
import Glibc

// A GTK window with two reorderable lists, driven by tests with real pointer events.
//
//   dragdrop-gtk-fixture [--size WIDTHxHEIGHT] [--scene text|grid|visuals] [--a11y]
//                        [--list-policy move|automatic|move-after-register]
//   dragdrop-gtk-fixture --scene apps --name A …   (drags between apps: AppsScene.swift)
//   … --rtl   any scene laid out right to left, as on a Hebrew or Arabic desktop (L3)
//
// Prints one JSON object per line on stdout:
//   {"t":…,"kind":"feedback","event":…}   every engine feedback event (the timeline schema)
//   {"kind":"state","lists":{…},"selected":{…}}   both lists after every change
//   {"kind":"layout","window":[w,h],"lists":{…},"rows":{…}}   frames in window coordinates
//   {"kind":"ready"}   once, when the rows are laid out
//   {"kind":"gtk","message":…}   GTK-level happenings (drag signals)
// Quits on SIGTERM, SIGINT or end of standard input.

@MainActor
final class Fixture {
    let width: Int32
    let height: Int32
    var host: GtkDragHost?
    var lists: [DragListView] = []
    var announcedReady = false
    let printer = ChangedLineWriter()
    /// `--list-policy`: how the two lists get their operation policy (S2). `move` (the default):
    /// set to `.preferMove` after init, before registering; `automatic`: the guidelines' default
    /// (copies between lists); `move-after-register`: set to `.preferMove` once registered.
    let listPolicy: String

    init(arguments: [String]) {
        var size = (width: Int32(640), height: Int32(420))
        if let i = arguments.firstIndex(of: "--size"), i + 1 < arguments.count {
            let parts = arguments[i + 1].split(separator: "x").compactMap { Int32($0) }
            if parts.count == 2 { size = (parts[0], parts[1]) }
        }
        width = size.width
        height = size.height
        listPolicy =
            arguments.firstIndex(of: "--list-policy").flatMap { i in
                i + 1 < arguments.count ? arguments[i + 1] : nil
            } ?? "move"
    }

    func activate(_ app: UnsafeMutablePointer<GtkApplication>) {
        if activateVisualsScene(app) { return }  // --scene visuals (VisualsScene.swift)
        let host = GtkDragHost(app: "dragdrop-gtk-fixture")
        self.host = host
        host.onEvent = { [weak self] event in self?.printEvent(event) }
        host.onDiagnostic = { message in LineWriter.write(GtkLine(message: message)) }
        host.onFramesChanged = { [weak self] in self?.printLayout() }

        guard let window = gtk_application_window_new(app) else { return }
        gtk_window_set_title(dd_window(window), "DragDrop fixture")
        gtk_window_set_default_size(dd_window(window), width, height)
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 24)
        for margin in [
            gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start,
            gtk_widget_set_margin_end,
        ] {
            margin(box, 16)
        }
        gtk_box_set_homogeneous(dd_box(UnsafeMutableRawPointer(box)), 1)
        gtk_window_set_child(dd_window(window), box)

        lists = [
            DragListView(id: "groceries", title: "Groceries", items: ["Milk", "Eggs", "Bread", "Apples"], host: host),
            DragListView(id: "work", title: "Work", items: ["Report", "Slides"], host: host),
        ]
        if listPolicy == "move" { for list in lists { list.operationPolicy = .preferMove } }
        AccessibilityScene.arrangeIfRequested(fixture: self, window: window, content: box)
        do {
            try host.addWindow(window, id: "window", name: "DragDrop fixture")
            for list in lists {
                gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), list.widget)
                try list.register(in: "window")
                list.onChange = { [weak self] in self?.printState() }
            }
        } catch {
            LineWriter.write(ErrorLine(message: error.description))
            g_application_quit(dd_application(app))
            return
        }
        if listPolicy == "move-after-register" { for list in lists { list.operationPolicy = .preferMove } }
        AccessibilityScene.installIfRequested(fixture: self)
        gtk_window_present(dd_window(window))
        printState()
    }

    func printEvent(_ event: FeedbackEvent) {
        guard let host else { return }
        LineWriter.write(FeedbackLine(event, at: host.engine.clock.now))
    }

    func printState() {
        var state = StateLine()
        state.lists = Dictionary(uniqueKeysWithValues: lists.map { ($0.id.rawValue, $0.items.map(\.title)) })
        state.selected = Dictionary(
            uniqueKeysWithValues: lists.map { list in
                (list.id.rawValue, list.items.filter { list.selection.contains($0.id) }.map(\.title))
            })
        printer.write(state)
    }

    func printLayout() {
        guard let host, let window = host.frameInWindow(of: "window") else { return }
        var layout = LayoutLine()
        layout.window = [window.width, window.height]
        layout.lists = [:]
        layout.rows = [:]
        var laidOut = true
        for list in lists where !layout.add(list, as: list.id.rawValue, host: host) { laidOut = false }
        LineWriter.write(layout)
        if laidOut, !announcedReady {
            announcedReady = true
            LineWriter.write(ReadyLine())
        }
    }
}

extension LayoutLine {
    /// Adds `list`'s frame and its rows' under `name`; returns whether every row is laid out.
    @MainActor
    mutating func add(_ list: DragListView, as name: String, host: GtkDragHost) -> Bool {
        var laidOut = true
        if lists == nil { lists = [:] }
        if rows == nil { rows = [:] }
        lists?[name] = .some(host.frameInWindow(of: list.id).map(Frame.init))
        rows?[name] = list.items.map { item in
            let frame = host.frameInWindow(of: item.id)
            if (frame?.height ?? 0) <= 0 { laidOut = false }
            return TitledFrame(title: item.title, frame: frame.map(Frame.init))
        }
        return laidOut
    }
}

extension Frame {
    /// A rectangle of the engine's, as printed.
    init(_ r: Rect) { self.init(x: r.minX, y: r.minY, width: r.width, height: r.height) }
}

let fixture = Fixture(arguments: CommandLine.arguments)
// Other windows, chosen with `--scene NAME` (one line each; each scene lives in its own file).
let scenes = SceneTable()
scenes.add("text") { TextScene(arguments: $0) }
scenes.add("grid") { GridScene(arguments: $0) }
scenes.add("two-windows") { TwoWindowsScene(arguments: $0) }
scenes.add("hig") { HIGScene(arguments: $0) }
scenes.add("pages") { PagesScene(arguments: $0) }
scenes.add("settings") { SettingsScene(arguments: $0) }
scenes.add("refresh") { RefreshScene(arguments: $0) }
scenes.add("editing") { EditingScene(arguments: $0) }
scenes.add("collection") { CollectionScene(arguments: $0) }
scenes.add("placement") { PlacementScene(arguments: $0) }
scenes.add("outline") { OutlineScene(arguments: $0) }
scenes.add("values") { ValuesScene(arguments: $0) }
scenes.builtByFixture = ["visuals"]  // VisualsScene.swift, activated from Fixture.activate
guard let app = gtk_application_new("org.dragdrop.gtk-fixture", G_APPLICATION_NON_UNIQUE) else { exit(1) }
GLibMainActorBridge.install()
let appsScene = AppsScene(arguments: CommandLine.arguments)  // `--scene apps`: see AppsScene.swift
GSignal.connect(UnsafeMutableRawPointer(app), "activate") {
    // `--rtl`: every widget's default direction is right to left, as GTK sets it for a Hebrew
    // or Arabic locale (L3); set here, after gtk_init chose the locale's.
    if CommandLine.arguments.contains("--rtl") { gtk_widget_set_default_direction(GTK_TEXT_DIR_RTL) }
    if let appsScene {
        appsScene.activate(app)
    } else if !scenes.activate(app, arguments: CommandLine.arguments) {
        fixture.activate(app)
    }
}
let quit: @MainActor () -> Void = { g_application_quit(dd_application(app)) }
GLibSource.onUnixSignal(SIGTERM, quit)
GLibSource.onUnixSignal(SIGINT, quit)
GLibSource.onEndOfInput(quit)
exit(g_application_run(dd_application(app), 0, nil))
