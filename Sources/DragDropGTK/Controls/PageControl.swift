import CGtk4
import DragDrop

/// A row of equally spaced dots, one per page, the current one highlighted (K7).
///
/// Navigation is sequential: activating the control before the current dot goes to the previous
/// page, after it to the next page, never straight to the dot that was hit; the Left and Right
/// arrow keys (and Page Up and Page Down) do the same when it has the focus. In a right-to-left
/// layout (GTK's direction of the widget: a Hebrew or Arabic desktop) the first dot is on the
/// right, and Left and a click left of the current dot go to the next page (L3). It refuses more than
/// ``maximumPages`` pages: beyond that, people need a grid that reaches any page directly.
///
/// To assistive technology it is an adjustable control ("slider") named `name`, whose value
/// reads "Page 2 of 3" (K12). ``PagedView`` puts one under its pages; use it alone to indicate
/// the position in pages you switch yourself.
///
/// ```swift
/// let dots = try PageControl(name: "Home Screen Pages", numberOfPages: 3)
/// dots.onChange = { page in stack.show(page) }
/// gtk_box_append(box, dots.widget)
/// ```
@MainActor
public final class PageControl {
    /// How a page change was asked for.
    public enum Direction: Sendable, Hashable {
        case previous
        case next
    }

    /// The most pages a page control shows (K7).
    public static let maximumPages = HIGCheck.maximumPages
    /// The distance between the centres of two dots, in pixels.
    public static let dotSpacing = 18.0
    /// A dot's diameter, in pixels.
    public static let dotDiameter = 8.0

    /// The accessible name.
    public let name: String
    /// How many pages there are (1 to ``maximumPages``).
    public private(set) var numberOfPages: Int
    /// The current page, from 0.
    public private(set) var currentPage: Int
    /// Called after a person moved to another page through the control (a click before or after
    /// the current dot, an arrow key), with the new page.
    public var onChange: (@MainActor (_ page: Int, _ direction: Direction) -> Void)?

    private let area: GObjectRef

    /// The control's widget, to put in a window.
    public var widget: UnsafeMutablePointer<GtkWidget> { area.widget }

    /// Creates a control of `numberOfPages` dots with `currentPage` highlighted. Throws
    /// ``ControlError/tooManyPages(_:)`` beyond ``maximumPages`` (K7).
    public init(name: String, numberOfPages: Int, currentPage: Int = 0) throws(ControlError) {
        guard numberOfPages <= Self.maximumPages else { throw .tooManyPages(numberOfPages) }
        guard !name.isEmpty else { throw .emptyTitle }
        self.name = name
        self.numberOfPages = max(1, numberOfPages)
        self.currentPage = min(max(0, currentPage), max(1, numberOfPages) - 1)
        area = GObjectRef(newWidget: dd_drawing_area_new_with_role(GTK_ACCESSIBLE_ROLE_SLIDER))
        gtk_widget_add_css_class(area.widget, "dd-page-control")
        gtk_widget_set_focusable(area.widget, 1)
        gtk_widget_set_halign(area.widget, GTK_ALIGN_CENTER)
        dd_accessible_set_label(dd_accessible(area.raw), name)
        ControlStyles.install(for: area.widget)
        installDrawing()
        installInput()
        update()
    }

    /// Changes the number of pages (the current page stays, or moves to the last page). Throws
    /// ``ControlError/tooManyPages(_:)`` beyond ``maximumPages``, changing nothing.
    public func setNumberOfPages(_ count: Int) throws(ControlError) {
        guard count <= Self.maximumPages else { throw .tooManyPages(count) }
        numberOfPages = max(1, count)
        currentPage = min(currentPage, numberOfPages - 1)
        update()
    }

    /// Shows `page` as the current one (the app moved there; ``onChange`` is not called).
    public func setCurrentPage(_ page: Int) {
        currentPage = min(max(0, page), numberOfPages - 1)
        update()
    }

    /// The dots' centres along the control, in its coordinates, by page: equally spaced by
    /// ``dotSpacing`` and centred in the widget, the first page's on the left, or on the right
    /// in a right-to-left layout (L3).
    public func dotCenters() -> [Double] {
        let width = Double(gtk_widget_get_width(area.widget))
        let first = (width - Double(numberOfPages - 1) * Self.dotSpacing) / 2
        let centers = (0..<numberOfPages).map { first + Double($0) * Self.dotSpacing }
        return isRightToLeft ? centers.reversed() : centers
    }

    /// Whether GTK lays the control out right to left.
    private var isRightToLeft: Bool { GtkWidgetSupport.layoutDirection(of: area.widget) == .rightToLeft }

    /// Goes one page back or forward, as a click or a key would (nothing at either end).
    public func step(_ direction: Direction) {
        let target = currentPage + (direction == .next ? 1 : -1)
        guard (0..<numberOfPages).contains(target) else { return }
        currentPage = target
        update()
        onChange?(target, direction)
    }

    // MARK: Drawing and input

    private func update() {
        gtk_widget_set_size_request(area.widget, Int32(Double(numberOfPages) * Self.dotSpacing + 16), 22)
        dd_object_set_int_data(area.raw, "dd-page-count", Int32(numberOfPages))
        let accessible = dd_accessible(area.raw)
        dd_accessible_set_double(accessible, GTK_ACCESSIBLE_PROPERTY_VALUE_MIN, 1)
        dd_accessible_set_double(accessible, GTK_ACCESSIBLE_PROPERTY_VALUE_MAX, Double(numberOfPages))
        dd_accessible_set_double(accessible, GTK_ACCESSIBLE_PROPERTY_VALUE_NOW, Double(currentPage + 1))
        dd_accessible_set_string(
            accessible, GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, "Page \(currentPage + 1) of \(numberOfPages)")
        gtk_widget_queue_draw(area.widget)
    }

    private func draw(_ cr: OpaquePointer, width: Double, height: Double) {
        let centers = dotCenters()
        for (index, x) in centers.enumerated() {
            let color = index == currentPage ? ControlStyles.currentDot : ControlStyles.otherDot
            cairo_set_source_rgb(cr, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255)
            cairo_arc(cr, x, height / 2, Self.dotDiameter / 2, 0, 2 * Double.pi)
            cairo_fill(cr)
        }
    }

    private func installDrawing() {
        let trampoline: GtkDrawingAreaDrawFunc = { _, cr, width, height, data in
            guard let cr, let box = CallbackBox<@MainActor (OpaquePointer, Double, Double) -> Void>.from(data) else {
                return
            }
            let bits = PointerBits(UnsafeMutableRawPointer(cr))
            MainActor.assumeIsolated {
                guard let pointer = bits.pointer else { return }
                box.body(OpaquePointer(pointer), Double(width), Double(height))
            }
        }
        let box = CallbackBox<@MainActor (OpaquePointer, Double, Double) -> Void> { [weak self] cr, width, height in
            self?.draw(cr, width: width, height: height)
        }
        gtk_drawing_area_set_draw_func(
            gtkCast(area.raw, to: GtkDrawingArea.self), trampoline, box.retainedPointer, releaseSourceNotify)
    }

    /// A click before the current dot goes back a page, after it forward; on the current dot
    /// nothing happens. Arrow keys and Page Up / Page Down step too.
    private func installInput() {
        if let click = gtk_gesture_click_new() {
            GSignal.connect(
                UnsafeMutableRawPointer(click), "released",
                click: { [weak self] _, x, _ in
                    guard let self else { return }
                    gtk_widget_grab_focus(self.area.widget)
                    let current = self.dotCenters()[self.currentPage]
                    let slack = Self.dotSpacing / 4
                    // Left of the current dot is before it, or after it right to left (L3).
                    let (left, right): (Direction, Direction) =
                        self.isRightToLeft ? (.next, .previous) : (.previous, .next)
                    if x < current - slack {
                        self.step(left)
                    } else if x > current + slack {
                        self.step(right)
                    }
                })
            gtk_widget_add_controller(area.widget, click)
        }
        if let keys = gtk_event_controller_key_new() {
            GSignal.connect(
                UnsafeMutableRawPointer(keys), "key-pressed",
                key: { [weak self] keyval, _, state in
                    guard let self, state & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue) == 0 else {
                        return false
                    }
                    // The arrows go the way the dots read (L3); Page Up and Down keep their sense.
                    let (left, right): (Direction, Direction) =
                        self.isRightToLeft ? (.next, .previous) : (.previous, .next)
                    switch Int32(bitPattern: keyval) {
                    case GDK_KEY_Left, GDK_KEY_KP_Left: self.step(left)
                    case GDK_KEY_Right, GDK_KEY_KP_Right: self.step(right)
                    case GDK_KEY_Page_Up, GDK_KEY_KP_Page_Up:
                        self.step(.previous)
                    case GDK_KEY_Page_Down, GDK_KEY_KP_Page_Down:
                        self.step(.next)
                    default:
                        return false
                    }
                    return true
                })
            gtk_widget_add_controller(area.widget, keys)
        }
    }
}
