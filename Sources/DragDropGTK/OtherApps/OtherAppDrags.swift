import CDragDropGTKSupport
import CGtk4
import DragDrop
import Foundation

/// Drags between apps (one of the host's collaborators, see ``GtkDragHost``): outgoing, what
/// other apps are offered and how a drop another app took ends the engine session (this file);
/// incoming, a drag from another app over our windows as an external engine session
/// (OtherAppDrags+Incoming.swift). It owns the X11 watch of each display and what it learned.
@MainActor
final class OtherAppDrags: GtkDragHostCollaborator {
    unowned let host: GtkDragHost
    /// Displays whose X11 drag-and-drop messages are watched.
    private var watchedDisplays: Set<UInt> = []
    /// Whether the other app accepted our last drag that ended outside this app (XdndFinished);
    /// nil when unknown (not X11, or no answer yet).
    private var lastFinishedAccepted: Bool?
    /// The app that finished our last drag outside this app, when X11 names it.
    private var lastFinishedApp: AppID?
    /// What the other app says it did with our last drag (XdndFinished's action), nil when it
    /// does not say (not X11, an older XDND, no answer yet).
    private var lastFinishedAction: DropOperation?
    /// The source window of the last drag that entered one of our windows from another client.
    var lastEnteredSource: UInt?
    /// The X targets the last entered drag offers (XdndEnter).
    private(set) var lastEnteredTargets: [String] = []
    /// The action the last entered drag suggests at its last position (XdndPosition; a
    /// `GdkDragAction` value, 0 when unknown): a move while the person holds Shift.
    private(set) var lastSuggestedAction: UInt32 = 0
    /// The last drop on one of our windows (XdndDrop): its source window and how to read it.
    var lastX11Drop: (source: UInt, selection: X11DropSelection)?
    /// The drag from another app over our windows, from its first motion to its drop or leave.
    var incoming: ExternalDrop?
    /// The drop from another app whose outcome the engine is deciding (during `pointerUp`, or
    /// while a confirmation is asked, U2).
    var dropping: ExternalDrop?
    /// Drops from other apps whose data is loading, by the engine's token: finished (GDK) when
    /// the destination resolves or fails the placeholder.
    var loading: [DropToken: ExternalDrop] = [:]
    /// How long a read from another app may wait for its next bytes before the drop fails.
    var readTimeout: Double = 15
    /// How long another app that took our drop may go without finishing it or asking for data
    /// before the drag is given up (OtherAppDrags+Finish.swift).
    var finishTimeout: Double = 10
    /// The wait for another app to finish our drop, from `drop-performed` to `drag-end`.
    var finishWatch: FinishWatch?
    /// The window of the other app under our drag (its last XdndStatus), and its app.
    var statusTarget: UInt?
    var statusTargetApp: AppID?
    /// Numbers the items of drags from other apps.
    var nextExternalItem = 0

    init(host: GtkDragHost) { self.host = host }

    /// Prepares a window for drags with other apps: its display's X11 drag-and-drop messages
    /// are watched (whether another app accepted our drop, what an incoming drag offers, its
    /// drop's timestamp, and whether its app quit).
    func prepare(_ window: UnsafeMutablePointer<GtkWidget>) {
        GLibMainActorBridge.install()  // loads and writes run as main-actor tasks
        guard let display = gtk_widget_get_display(window) else { return }
        let key = UInt(bitPattern: UnsafeMutableRawPointer(display))
        guard watchedDisplays.insert(key).inserted else { return }
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
                time: message.time, accepted: message.accepted != 0, action: message.action, types: types)
            MainActor.assumeIsolated { host.otherApps.x11DragEvent(event) }
        }
        let box = CallbackBox(WeakHost(host))
        dd_x11_watch_dnd(display, callback, box.retainedPointer, releaseSourceNotify)
    }

    // MARK: Outgoing

    /// The content GTK offers for a drag of `items` (transfer full), richest first (P1): the
    /// items' `ItemProvider` representations visible to every app (P5), under standard MIME
    /// names, produced only when another app asks; the delegate's exported representations when
    /// an item has no provider.
    func exportContent(for items: [TargetID], owner: (any GtkDragHostDelegate)?) -> UnsafeMutableRawPointer? {
        lastFinishedAccepted = nil
        lastFinishedApp = nil
        lastFinishedAction = nil
        statusTarget = nil
        statusTargetApp = nil
        let providers = host.fileExport.addingFileForms(
            to: items.compactMap { id in (host.delegate(of: id) ?? owner)?.dragHost(host, itemProviderFor: id) })
        var plan: ExportPlan
        if providers.count == items.count {
            plan = ExportPlan(providers: providers, conformance: host.engine.chooser.conformance)
        } else {
            let exported =
                owner?.dragHost(host, exportedRepresentationsFor: items) ?? [
                    .text(items.map(\.rawValue).joined(separator: "\n"))
                ]
            plan = ExportPlan(eager: exported)
        }
        if FileTransferPortal.isAvailable { plan = plan.offeringPortal() }
        host.diagnose("offer \(plan.entries.map(\.mimeType))")
        return LazyExport(plan: plan) { [weak host] line in
            host?.diagnose(line)
            host?.otherApps.transferActivity()
        }.makeProvider()
    }

    /// GTK's drag ended after neither our drop target nor `drag-cancel` ended the engine session:
    /// another app's target finished it. Accepted, it is handed off with what the other app did:
    /// X11's XdndFinished names the action; otherwise GTK's `deleteData` says whether the last
    /// action the other app chose was a move (Wayland: the compositor's last action). Other apps
    /// are offered a move only while the person holds the move modifier (S2), so a move is what
    /// the person asked for. Refused (its transfer failed), the drag fails naming that app (F7).
    func dragEndedInOtherApp(deleteData: Bool) {
        let accepted = lastFinishedAccepted ?? true
        let app = lastFinishedApp ?? statusTargetApp
        let operation = lastFinishedAction ?? (deleteData ? .move : .copy)
        host.diagnose(
            "drop in another app accepted=\(accepted) app=\(app?.rawValue ?? "unknown") operation=\(operation.name)")
        if accepted {
            host.drive { host.engine.dropHandedOff(to: app, operation: operation == .move ? .move : .copy) }
        } else {
            host.drive { host.engine.dropRefused(by: app) }
        }
    }

    /// X11 drag-and-drop messages (see `dd_x11_watch_dnd`).
    func x11DragEvent(_ message: X11DragMessage) {
        switch message.event {
        case DD_X11_DND_FINISHED:
            lastFinishedAccepted = message.accepted
            lastFinishedApp = x11AppName(of: message.window)
            lastFinishedAction = message.action == 0 ? nil : message.action == GDK_ACTION_MOVE.rawValue ? .move : .copy
        case DD_X11_DND_ENTER:
            lastEnteredSource = message.window
            lastEnteredTargets = message.types
            lastSuggestedAction = 0
        case DD_X11_DND_POSITION:
            guard message.window == lastEnteredSource else { return }
            lastSuggestedAction = message.action
        case DD_X11_DND_DROP:
            guard message.window == lastEnteredSource else { return }
            lastX11Drop = (
                message.window,
                X11DropSelection(requestor: message.ourWindow, time: message.time, offered: lastEnteredTargets)
            )
        case DD_X11_DND_STATUS:
            if statusTarget != message.window {
                statusTarget = message.window
                statusTargetApp = x11AppName(of: message.window)
            }
        case DD_X11_DND_SOURCE_DESTROYED:
            sourceDestroyed(message.window)
            targetDestroyed(message.window)
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
        let windowClass = String(cString: name)
        return AppID(BidiControls.neutralized(DesktopAppNames.name(forWindowClass: windowClass) ?? windowClass))
    }
}

/// Drags with other apps: the host's public face.
extension GtkDragHost {
    /// How long a read from another app's drop may wait for its next bytes before the drop
    /// fails (seconds; default 15). A source that quits is noticed at once on X11.
    public var otherAppReadTimeout: Double {
        get { otherApps.readTimeout }
        set { otherApps.readTimeout = max(0.1, newValue) }
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
    /// XdndFinished: the action the target performed (a `GdkDragAction` value), 0 if unnamed.
    var action: UInt32
    /// XdndEnter: the X targets offered.
    var types: [String]
}

/// A weak reference to the host for C callbacks that may outlive it.
final class WeakHost {
    weak var host: GtkDragHost?
    init(_ host: GtkDragHost) { self.host = host }
}

/// The names the desktop gives apps (their `.desktop` files' `Name`), for window classes that are
/// not names: a GTK 4 app's class is its application ID ("org.gnome.Nautilus", named "Files"),
/// and some apps' are their lower-case command ("firefox-esr", named "Firefox ESR"). A class
/// written as a name ("Thunar", "Chromium") is kept as it is.
@MainActor
enum DesktopAppNames {
    private static var known: [String: String?] = [:]

    /// The `Name` (in the person's language) of `<windowClass>.desktop` in the XDG data
    /// directories, when `windowClass` is an application ID or a lower-case command; nil
    /// otherwise, or when no such file names it.
    static func name(forWindowClass windowClass: String) -> String? {
        guard windowClass.contains(".") || windowClass == windowClass.lowercased(),
            !windowClass.contains("/"), !windowClass.hasPrefix(".")
        else { return nil }
        if let cached = known[windowClass] { return cached }
        var folders: [String] = []
        if let user = g_get_user_data_dir() { folders.append(String(cString: user)) }
        if var system = g_get_system_data_dirs() {
            while let folder = system.pointee {
                folders.append(String(cString: folder))
                system += 1
            }
        }
        var found: String?
        for folder in folders where found == nil {
            guard let file = g_key_file_new() else { continue }
            defer { g_key_file_free(file) }
            let path = "\(folder)/applications/\(windowClass).desktop"
            guard g_key_file_load_from_file(file, path, G_KEY_FILE_NONE, nil) != 0,
                let name = g_key_file_get_locale_string(file, "Desktop Entry", "Name", nil, nil)
            else { continue }
            defer { g_free(name) }
            let text = String(cString: name).trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty, text.count <= 80 { found = text }
        }
        known[windowClass] = found
        return found
    }
}
