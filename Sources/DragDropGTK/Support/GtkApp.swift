import CGtk4
import DragDrop
import Glibc

/// The skeleton of a GTK app using DragDrop: creates the `GtkApplication` and its window, runs
/// Swift's main actor inside GTK's main loop, and returns when the window closes.
///
/// ```swift
/// import CGtk4
/// import DragDropGTK
///
/// GtkApp.run(id: "org.example.Lists", title: "Lists") { window in
///     let list = DragListView(id: "list", title: "To Do", items: ["Milk", "Eggs"], host: window.host)
///     window.setContent(list.widget)
///     try list.register(in: window.id)  // the window keeps it from now on
/// }
/// ```
///
/// What it does, in order:
/// 1. Creates a `GtkApplication` with `id` (non-unique: several copies may run side by side)
///    and installs ``GLibMainActorBridge``, so `Task { @MainActor in … }` runs inside GTK's loop.
/// 2. When GTK starts the application, creates a window titled `title`, a ``GtkDragHost``
///    for the app `id`, and adds the window to it as ``GtkAppWindow/id`` (with Ctrl+Z and
///    Ctrl+Shift+Z for undo and redo). Then calls `build`, and shows the window.
///    ``GtkAppWindow/setContent(_:)`` puts the content inside the host's feedback layer.
/// 3. Runs until the window closes, ``GtkAppWindow/quit()`` is called, or the process gets
///    SIGINT or SIGTERM, and returns the application's exit status.
///
/// If `build` throws, the error is printed on standard error, the app quits and `run` returns 1.
/// The app's own arguments are left alone (GTK is not given `CommandLine.arguments`).
@MainActor
public enum GtkApp {
    /// Runs the app; see ``GtkApp``. `build` lays out the window's content and registers the
    /// widgets; a registered widget's Swift object is kept by the window's host until the window
    /// closes. Whatever `build` returns is kept too, until the app ends (an app's own model).
    @discardableResult
    public static func run<Content>(
        id: String, title: String, width: Int32 = 640, height: Int32 = 480,
        _ build: @escaping @MainActor (_ window: GtkAppWindow) throws -> Content
    ) -> Int32 {
        guard let application = gtk_application_new(id, G_APPLICATION_NON_UNIQUE) else {
            printError("GTK could not create the application '\(id)'.")
            return 1
        }
        defer { g_object_unref(application) }
        GLibMainActorBridge.install()
        var status: Int32 = 0
        var kept: [Any] = []
        GSignal.connect(UnsafeMutableRawPointer(application), "activate") {
            guard kept.isEmpty, let widget = gtk_application_window_new(application) else { return }
            gtk_window_set_title(dd_window(widget), title)
            gtk_window_set_default_size(dd_window(widget), width, height)
            let window = GtkAppWindow(
                application: application, widget: widget, host: GtkDragHost(app: AppID(id)))
            kept.append(window)
            do {
                try window.host.addWindow(widget, id: window.id, name: title)
                kept.append(try build(window))
            } catch {
                printError("\(error)")
                status = 1
                window.quit()
                return
            }
            gtk_window_present(dd_window(widget))
        }
        let quit: @MainActor () -> Void = { g_application_quit(dd_application(application)) }
        let signals = [SIGINT, SIGTERM].map { GLibSource.onUnixSignal($0, quit) }
        let result = g_application_run(dd_application(application), 0, nil)
        signals.forEach(GLibSource.cancel)
        kept.removeAll()
        return status != 0 ? status : result
    }

    /// Writes "error: `message`" on standard error.
    private static func printError(_ message: String) {
        let line = Array("error: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}

/// The window ``GtkApp/run(id:title:width:height:_:)`` made, with its drag host.
@MainActor
public final class GtkAppWindow {
    /// The `GtkApplication`.
    public let application: UnsafeMutablePointer<GtkApplication>
    /// The `GtkApplicationWindow`.
    public let widget: UnsafeMutablePointer<GtkWidget>
    /// The drag host every widget of the window registers with (its engine, its undo stack).
    public let host: GtkDragHost
    /// The window's target identifier in ``host``: what widgets register in
    /// (`try list.register(in: window.id)`).
    public let id: TargetID = "window"

    init(
        application: UnsafeMutablePointer<GtkApplication>, widget: UnsafeMutablePointer<GtkWidget>,
        host: GtkDragHost
    ) {
        self.application = application
        self.widget = widget
        self.host = host
    }

    /// Makes `child` the window's content, with a 12-pixel margin all around, inside the
    /// host's feedback layer (notices, evaporating images, confirmations: F7, A6, U2); see
    /// ``GtkDragHost/setContent(_:of:)``.
    public func setContent(_ child: UnsafeMutablePointer<GtkWidget>) {
        gtk_widget_set_margin_top(child, 12)
        gtk_widget_set_margin_bottom(child, 12)
        gtk_widget_set_margin_start(child, 12)
        gtk_widget_set_margin_end(child, 12)
        do {
            try host.setContent(child, of: id)
        } catch {
            // Not reached: run(id:title:width:height:_:) adds the window before `build` runs.
            gtk_window_set_child(dd_window(widget), child)
        }
    }

    /// Quits the app: ``GtkApp/run(id:title:width:height:_:)`` returns.
    public func quit() { g_application_quit(dd_application(application)) }
}
