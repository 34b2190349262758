import CGtk4
import DragDrop

/// The owner of spring-loaded controls (SP1): a segmented control's segments, a grid's folder
/// tiles. The engine activates a control after content hovered over it for the configured
/// pause (or at once on an explicit gesture, SP3); the owner opens it without dropping.
@MainActor
public protocol GtkSpringLoadingDelegate: GtkDragHostDelegate {
    /// `target` (a control this delegate owns) activates during a drag.
    func dragHost(_ host: GtkDragHost, activate target: TargetID, explicit: Bool)
}

/// The owner of a draggable widget that starts drags only from some points of it: a text view
/// drags only when the press landed on its selection, and lets its own gestures select text
/// everywhere else.
@MainActor
public protocol GtkDragStartGate: AnyObject {
    /// Whether a drag of `item` may start from the press at `x`, `y` (widget coordinates).
    func dragHost(_ host: GtkDragHost, canStartDragOf item: TargetID, atWidgetX x: Double, y: Double) -> Bool
}

/// The owner of draggable items whose drag image is not the widget the drag started on: a text
/// view's drag shows the selected text, not the whole view (F2).
@MainActor
public protocol GtkDragImageSource: AnyObject {
    /// A widget to render as the drag image of `items`, and where the pointer holds it (in the
    /// widget's coordinates); nil renders the widget the drag started on. The widget must stay
    /// shown in a window until the drag ends (the image is a live rendering of it).
    func dragHost(_ host: GtkDragHost, dragImageFor items: [TargetID])
        -> (widget: UnsafeMutablePointer<GtkWidget>, hotspot: (x: Double, y: Double))?
}

extension GtkDragHost {
    /// Spring loading: asks the control's owner to activate it (SP1).
    public func dragEngine(_ engine: DragEngine, activate target: TargetID, explicit: Bool) {
        diagnose("spring-activate target=\(target) explicit=\(explicit)")
        (delegate(of: target) as? any GtkSpringLoadingDelegate)?.dragHost(self, activate: target, explicit: explicit)
    }
}
