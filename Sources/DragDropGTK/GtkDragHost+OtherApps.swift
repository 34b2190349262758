import CDragDropGTKSupport
import CGtk4
import DragDrop

/// Drags between apps, outgoing side: what other apps are offered, and how a drop another app
/// took ends the engine session.
extension GtkDragHost {
    /// How long a read from another app's drop may wait for its next bytes before the drop
    /// fails (seconds; default 15). A source that quits is noticed at once on X11.
    public var otherAppReadTimeout: Double {
        get { otherApps.readTimeout }
        set { otherApps.readTimeout = max(0.1, newValue) }
    }

    /// Prepares a window for drags with other apps: its drop target also sees this app's drags
    /// that offer nothing to others, and its display's X11 drag-and-drop messages are watched
    /// (whether another app accepted our drop, and whether the app of an incoming drag quit).
    func prepareForOtherApps(_ window: UnsafeMutablePointer<GtkWidget>) {
        if !mimeTypes.contains(ExportPlan.localMarker) { mimeTypes.append(ExportPlan.localMarker) }
        GLibMainActorBridge.install()  // loads and writes run as main-actor tasks
        guard let display = gtk_widget_get_display(window) else { return }
        let key = UInt(bitPattern: UnsafeMutableRawPointer(display))
        guard otherApps.watchedDisplays.insert(key).inserted else { return }
        let callback: DDX11DndCallback = { data, event, window, accepted in
            guard let host = CallbackBox<WeakHost>.from(data)?.body.host else { return }
            let bits = UInt(window)
            let flag = accepted != 0
            MainActor.assumeIsolated { host.x11DragEvent(event, window: bits, accepted: flag) }
        }
        let box = CallbackBox(WeakHost(self))
        dd_x11_watch_dnd(display, callback, box.retainedPointer, releaseSourceNotify)
    }

    /// The content GTK offers for a drag of `items` (transfer full), richest first (P1): the
    /// items' ``ItemProvider`` representations visible to every app (P5), under standard MIME
    /// names, produced only when another app asks; the delegate's exported representations when
    /// an item has no provider.
    func exportContent(for items: [TargetID], owner: (any GtkDragHostDelegate)?) -> UnsafeMutableRawPointer? {
        otherApps.lastFinishedAccepted = nil
        otherApps.lastFinishedApp = nil
        let providers = items.compactMap { id in
            (delegate(of: id) ?? owner)?.dragHost(self, itemProviderFor: id)
        }
        let plan: ExportPlan
        if providers.count == items.count {
            plan = ExportPlan(providers: providers, conformance: engine.chooser.conformance)
        } else {
            let exported =
                owner?.dragHost(self, exportedRepresentationsFor: items) ?? [
                    .text(items.map(\.rawValue).joined(separator: "\n"))
                ]
            plan = ExportPlan(eager: exported)
        }
        diagnose("offer \(plan.entries.map(\.mimeType))")
        return LazyExport(plan: plan) { [weak self] line in self?.diagnose(line) }.makeProvider()
    }

    /// GTK's drag ended after neither our drop target nor `drag-cancel` ended the engine session:
    /// another app's target finished it. Accepted, it is handed off (a copy, S2); refused (its
    /// transfer failed), the drag fails naming that app (F7).
    func dragEndedInOtherApp() {
        let accepted = otherApps.lastFinishedAccepted ?? true
        let app = otherApps.lastFinishedApp
        diagnose("drop in another app accepted=\(accepted) app=\(app?.rawValue ?? "unknown")")
        if accepted {
            drive { engine.dropHandedOff(to: app) }
        } else {
            drive { engine.dropRefused(by: app) }
        }
    }

    /// X11 drag-and-drop messages (see `dd_x11_watch_dnd`).
    func x11DragEvent(_ event: DDX11DndEvent, window: UInt, accepted: Bool) {
        switch event {
        case DD_X11_DND_FINISHED:
            otherApps.lastFinishedAccepted = accepted
            otherApps.lastFinishedApp = x11AppName(of: window)
        case DD_X11_DND_ENTER:
            otherApps.lastEnteredSource = window
        case DD_X11_DND_SOURCE_DESTROYED:
            externalSourceDestroyed(window)
        default:
            break
        }
    }

    /// The app owning X11 window `window` (its WM_CLASS), if it says; bidirectional controls
    /// removed (``BidiControls``): the name is shown in announcements and messages.
    func x11AppName(of window: UInt) -> AppID? {
        guard let display = gdk_display_get_default(), let name = dd_x11_window_class(display, gulong(window)) else {
            return nil
        }
        defer { g_free(name) }
        return AppID(BidiControls.neutralized(String(cString: name)))
    }
}

/// A weak reference to the host for C callbacks that may outlive it.
final class WeakHost {
    weak var host: GtkDragHost?
    init(_ host: GtkDragHost) { self.host = host }
}
