import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol

/// A fixture window other than the default two lists, chosen with `--scene NAME`.
@MainActor
protocol FixtureScene: AnyObject {
    /// Builds and shows the scene's window.
    func activate(_ app: UnsafeMutablePointer<GtkApplication>)
}

/// The scenes `--scene NAME` can choose, each registered with one line in main.swift.
@MainActor
final class SceneTable {
    private var makers: [String: @MainActor ([String]) -> any FixtureScene] = [:]
    private var active: (any FixtureScene)?
    /// Scenes the default fixture builds itself (`--scene visuals`): the table leaves them to it.
    var builtByFixture: Set<String> = []

    /// Adds the scene `name`, made from the command-line arguments.
    func add(_ name: String, _ make: @escaping @MainActor ([String]) -> any FixtureScene) { makers[name] = make }

    /// Activates the scene named by `--scene` in `arguments`. Returns false when none is named.
    func activate(_ app: UnsafeMutablePointer<GtkApplication>, arguments: [String]) -> Bool {
        guard let i = arguments.firstIndex(of: "--scene"), i + 1 < arguments.count else { return false }
        if builtByFixture.contains(arguments[i + 1]) { return false }
        guard let make = makers[arguments[i + 1]] else {
            LineWriter.write(ErrorLine(message: "No scene '\(arguments[i + 1])'."))
            g_application_quit(dd_application(app))
            return true
        }
        let scene = make(arguments)
        active = scene
        scene.activate(app)
        return true
    }
}

/// What every scene shares: the window (titled "DragDrop fixture" so tests find it), a host
/// printing its events and diagnostics.
@MainActor
final class SceneWindow {
    let host: GtkDragHost
    let window: UnsafeMutablePointer<GtkWidget>
    let windowID: TargetID = "window"

    init?(app: UnsafeMutablePointer<GtkApplication>, arguments: [String], appName: AppID = "dragdrop-gtk-fixture") {
        var size = (width: Int32(640), height: Int32(420))
        if let i = arguments.firstIndex(of: "--size"), i + 1 < arguments.count {
            let parts = arguments[i + 1].split(separator: "x").compactMap { Int32($0) }
            if parts.count == 2 { size = (parts[0], parts[1]) }
        }
        let host = GtkDragHost(app: appName)
        guard let window = gtk_application_window_new(app) else { return nil }
        self.host = host
        self.window = window
        host.onEvent = { event in
            LineWriter.write(FeedbackLine(event, at: host.engine.clock.now))
        }
        host.onDiagnostic = { message in LineWriter.write(GtkLine(message: message)) }
        EditMenu.onOpen = { owner, items in
            LineWriter.write(
                MenuLine(
                    owner: owner, items: items.map(\.title),
                    frames: Dictionary(items.map { ($0.title, $0.frame.map(Frame.init)) }) { first, _ in first }))
        }
        gtk_window_set_title(dd_window(window), "DragDrop fixture")
        gtk_window_set_default_size(dd_window(window), size.width, size.height)
    }

    /// Registers the window with the host and shows it; reports errors and quits on failure.
    func present(_ app: UnsafeMutablePointer<GtkApplication>, registering body: () throws(GtkDragHostError) -> Void) {
        do {
            try host.addWindow(window, id: windowID, name: "DragDrop fixture")
            try body()
        } catch {
            LineWriter.write(ErrorLine(message: error.description))
            g_application_quit(dd_application(app))
            return
        }
        gtk_window_present(dd_window(window))
    }

    /// A box with 16-pixel margins.
    static func paddedBox(_ orientation: GtkOrientation, spacing: Int32) -> UnsafeMutablePointer<GtkWidget> {
        let box = gtk_box_new(orientation, spacing)!
        for margin in [
            gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start,
            gtk_widget_set_margin_end,
        ] {
            margin(box, 16)
        }
        return box
    }
}

extension Finding {
    /// A finding of the HIG check, as printed.
    init(_ finding: HIGFinding) { self.init(rule: finding.rule, message: finding.message, widget: finding.widget) }
}

/// A widget's frame in `window` as GTK lays it out now; nil before layout or when it has no
/// height (hidden).
@MainActor
func widgetFrame(_ widget: UnsafeMutablePointer<GtkWidget>, in window: UnsafeMutablePointer<GtkWidget>) -> Frame? {
    var r = graphene_rect_t()
    guard gtk_widget_compute_bounds(widget, window, &r) != 0, r.size.height > 0 else { return nil }
    return Frame(
        Rect(x: Double(r.origin.x), y: Double(r.origin.y), width: Double(r.size.width), height: Double(r.size.height)))
}

extension LayoutLine {
    /// A layout of named frames (and each text view's words), in the order given.
    init(frames: [(String, Frame)], words: [(String, [String: Frame])]? = nil) {
        self.init()
        self.frames = Dictionary(frames) { first, _ in first }
        self.words = words.map { Dictionary($0) { first, _ in first } }
    }
}
