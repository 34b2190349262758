import CGtk4
import DragDropGTK

// A probe that checks the GTK bridge: opens a window, runs a main-actor task inside GTK's loop,
// prints what happened and quits.
@MainActor func activate(_ app: UnsafeMutablePointer<GtkApplication>) {
    let window = gtk_application_window_new(app)!
    gtk_window_set_title(dd_window(window), "probe")
    gtk_window_set_default_size(dd_window(window), 200, 100)
    gtk_window_present(dd_window(window))
    Task { @MainActor in
        print("main-actor task ran inside the GTK loop")
        g_application_quit(dd_application(app))
    }
}

let app = gtk_application_new("org.dragdrop.probe", G_APPLICATION_NON_UNIQUE)!
GLibMainActorBridge.install()
let handler: @convention(c) (UnsafeMutablePointer<GtkApplication>?, gpointer?) -> Void = { app, _ in
    guard let app else { return }
    MainActor.assumeIsolated { activate(app) }
}
_ = dd_signal_connect(app, "activate", unsafeBitCast(handler, to: GCallback.self), nil, nil)
let status = g_application_run(dd_application(app), 0, nil)
print("exit", status)
