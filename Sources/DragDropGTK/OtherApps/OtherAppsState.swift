import CGtk4
import DragDrop

/// What a ``GtkDragHost`` tracks about drags between apps: the X11 watch, how the other app
/// answered our last drop, and the drop coming in from another app.
@MainActor
final class OtherAppsState {
    /// Displays whose X11 drag-and-drop messages are watched.
    var watchedDisplays: Set<UInt> = []
    /// Whether the other app accepted our last drag that ended outside this app (XdndFinished);
    /// nil when unknown (not X11, or no answer yet).
    var lastFinishedAccepted: Bool?
    /// The app that finished our last drag outside this app, when X11 names it.
    var lastFinishedApp: AppID?
    /// The source window of the last drag that entered one of our windows from another client.
    var lastEnteredSource: UInt?
    /// The X targets the last entered drag offers (XdndEnter).
    var lastEnteredTargets: [String] = []
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
    /// Numbers the items of drags from other apps.
    var nextExternalItem = 0
}
