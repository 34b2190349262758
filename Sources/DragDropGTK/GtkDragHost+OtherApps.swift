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

    /// Prepares a window for drags with other apps: its display's X11 drag-and-drop messages
    /// are watched (whether another app accepted our drop, what an incoming drag offers, its
    /// drop's timestamp, and whether its app quit).
    func prepareForOtherApps(_ window: UnsafeMutablePointer<GtkWidget>) {
        GLibMainActorBridge.install()  // loads and writes run as main-actor tasks
        guard let display = gtk_widget_get_display(window) else { return }
        let key = UInt(bitPattern: UnsafeMutableRawPointer(display))
        guard otherApps.watchedDisplays.insert(key).inserted else { return }
        let callback: DDX11DndCallback = { data, message in
            guard let host = CallbackBox<WeakHost>.from(data)?.body.host, let message = message?.pointee else { return }
            var types: [String] = []
            if var cursor = message.types {
                while let name = cursor.pointee {
                    types.append(String(cString: name))
                    cursor += 1
                }
            }
            let event = X11DragMessage(
                event: message.event, window: UInt(message.window), ourWindow: UInt(message.our_window),
                time: message.time, accepted: message.accepted != 0, types: types)
            MainActor.assumeIsolated { host.x11DragEvent(event) }
        }
        let box = CallbackBox(WeakHost(self))
        dd_x11_watch_dnd(display, callback, box.retainedPointer, releaseSourceNotify)
    }

    /// The content GTK offers for a drag of `items` (transfer full), richest first (P1): the
    /// items' `ItemProvider` representations visible to every app (P5), under standard MIME
    /// names, produced only when another app asks; the delegate's exported representations when
    /// an item has no provider.
    func exportContent(for items: [TargetID], owner: (any GtkDragHostDelegate)?) -> UnsafeMutableRawPointer? {
        otherApps.lastFinishedAccepted = nil
        otherApps.lastFinishedApp = nil
        let providers = fileExport.addingFileForms(
            to: items.compactMap { id in (delegate(of: id) ?? owner)?.dragHost(self, itemProviderFor: id) })
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
    func x11DragEvent(_ message: X11DragMessage) {
        switch message.event {
        case DD_X11_DND_FINISHED:
            otherApps.lastFinishedAccepted = message.accepted
            otherApps.lastFinishedApp = x11AppName(of: message.window)
        case DD_X11_DND_ENTER:
            otherApps.lastEnteredSource = message.window
            otherApps.lastEnteredTargets = message.types
        case DD_X11_DND_DROP:
            guard message.window == otherApps.lastEnteredSource else { return }
            otherApps.lastX11Drop = (
                message.window,
                X11DropSelection(requestor: message.ourWindow, time: message.time, offered: otherApps.lastEnteredTargets)
            )
        case DD_X11_DND_SOURCE_DESTROYED:
            externalSourceDestroyed(message.window)
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

/// One X11 drag-and-drop message (`DDX11DndMessage`), copied out of the C callback.
struct X11DragMessage {
    var event: DDX11DndEvent
    /// The other client's window (source, or the target that finished our drag).
    var window: UInt
    /// Our window the message was sent to.
    var ourWindow: UInt
    /// XdndDrop's timestamp.
    var time: UInt32
    /// XdndFinished: whether the target took the drop.
    var accepted: Bool
    /// XdndEnter: the X targets offered.
    var types: [String]
}

/// A weak reference to the host for C callbacks that may outlive it.
final class WeakHost {
    weak var host: GtkDragHost?
    init(_ host: GtkDragHost) { self.host = host }
}
