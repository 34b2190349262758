import CGtk4
import DragDrop

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
