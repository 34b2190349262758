import CGtk4
import DragDrop

/// Flat, sibling pages shown one at a time with a ``PageControl`` below them (K7).
///
/// People move one page at a time: through the page control (a click before or after the current
/// dot, its arrow keys), Page Up and Page Down anywhere inside, a horizontal swipe on the pages'
/// empty area (a swipe never starts on a drag source: pressing an item drags it), or a sideways
/// scroll. At most ``PageControl/maximumPages`` pages: ``addPage(_:title:)`` refuses more.
///
/// Dragging an item to the left or right edge of the pages turns to the neighbouring page after
/// the spring-loading delay, the edge flashing first (SP1), and the drag goes on there: the
/// item drops on that page. Each edge is a spring-loaded target (`<id>.previous`,
/// `<id>.next`) shown only where there is a page to go to; the pages keep a margin of
/// ``edgeWidth`` on both sides so the edges never cover their content. Space over an edge
/// during a keyboard drag turns at once (SP3). In a right-to-left layout (GTK's direction)
/// everything mirrors: the previous page's edge is on the right, a swipe to the right brings
/// the next page, and the pages slide the other way (L3).
///
/// ```swift
/// let pages = try PagedView(id: "home", name: "Home Screen", host: host)
/// for grid in grids { try pages.addPage(grid.widget, title: grid.title) }
/// gtk_box_append(box, pages.widget)
/// try pages.register(in: "main")
/// for grid in grids { try grid.register(in: pages.id) }   // the pages' content, inside
/// ```
@MainActor
public final class PagedView {
    /// How the current page changed.
    public enum Navigation: String, Sendable {
        /// A click before or after the current dot, or its arrow keys.
        case pageControl
        /// Page Up or Page Down.
        case keyboard
        /// A horizontal swipe on the pages.
        case swipe
        /// A sideways scroll (a touchpad, Shift and the wheel).
        case scroll
        /// Dragged content rested on an edge (SP1), or Space over it (SP3).
        case springLoaded
        /// The app called ``show(page:how:)``.
        case program
    }

    /// An edge of the pages.
    public enum Edge: Sendable, Hashable {
        /// The start edge (left, or right in a right-to-left layout): the previous page.
        case previous
        /// The end edge (right, or left in a right-to-left layout): the next page.
        case next
    }

    /// The container's target identifier; the edges are `<id>.previous` and `<id>.next`.
    public let id: TargetID
    /// The accessible name ("Home Screen").
    public let name: String
    /// The dots below the pages.
    public let pageControl: PageControl
    /// How long content must rest on an edge to turn the page, and when the edge flashes.
    /// Read by ``register(in:)``: set it before registering (a later change applies the next
    /// time the view registers).
    public var springLoading: SpringLoadingConfiguration
    /// The width of each edge, in pixels: the pages keep this margin on both sides.
    public let edgeWidth: Int32
    /// Called after the current page changed, with how.
    public var onPageChange: (@MainActor (_ page: Int, _ how: Navigation) -> Void)?

    private unowned let host: GtkDragHost
    private let root: GObjectRef
    private let overlay: GObjectRef
    private let stack: GObjectRef
    private let edges: [Edge: GObjectRef]
    private var pages: [(title: String, widget: GObjectRef)] = []
    private var parent: TargetID?
    private var swipe: SlideGesture?
    private var scrolled = 0.0
    private var shown = 0

    /// The widget holding the pages and the page control, to put in a window.
    public var widget: UnsafeMutablePointer<GtkWidget> { root.widget }
    /// The current page, from 0.
    public var currentPage: Int { shown }
    /// How many pages there are.
    public var pageCount: Int { pages.count }
    /// The pages' titles, in order.
    public var pageTitles: [String] { pages.map(\.title) }

    /// Creates an empty paged view named `name` (K12), managed by `host`.
    public init(
        id: TargetID, name: String, host: GtkDragHost, edgeWidth: Int32 = 40,
        springLoading: SpringLoadingConfiguration = .init()
    ) throws(ControlError) {
        self.id = id
        self.name = name
        self.host = host
        self.edgeWidth = edgeWidth
        self.springLoading = springLoading
        pageControl = try PageControl(name: "\(name) Pages", numberOfPages: 1)
        root = GObjectRef(newWidget: gtk_box_new(GTK_ORIENTATION_VERTICAL, 6))
        overlay = GObjectRef(newWidget: gtk_overlay_new())
        stack = GObjectRef(newWidget: gtk_stack_new())
        gtk_widget_add_css_class(root.widget, "dd-paged-view")
        gtk_widget_set_vexpand(overlay.widget, 1)
        gtk_widget_set_hexpand(overlay.widget, 1)
        gtk_widget_set_margin_start(stack.widget, edgeWidth)
        gtk_widget_set_margin_end(stack.widget, edgeWidth)
        gtk_stack_set_transition_duration(dd_stack(stack.raw), 180)
        gtk_overlay_set_child(dd_overlay(overlay.raw), stack.widget)
        var made: [Edge: GObjectRef] = [:]
        for edge in [Edge.previous, .next] {
            let strip = GObjectRef(newWidget: gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
            gtk_widget_set_size_request(strip.widget, edgeWidth, -1)
            gtk_widget_set_halign(strip.widget, edge == .previous ? GTK_ALIGN_START : GTK_ALIGN_END)
            gtk_widget_set_valign(strip.widget, GTK_ALIGN_FILL)
            // The pointer passes through to the pages; the engine finds the edge by its frame.
            gtk_widget_set_can_target(strip.widget, 0)
            gtk_widget_add_css_class(strip.widget, "dd-page-edge")
            dd_accessible_set_label(dd_accessible(strip.raw), edge == .previous ? "Previous Page" : "Next Page")
            gtk_overlay_add_overlay(dd_overlay(overlay.raw), strip.widget)
            made[edge] = strip
        }
        edges = made
        gtk_box_append(dd_box(root.raw), overlay.widget)
        gtk_box_append(dd_box(root.raw), pageControl.widget)
        dd_accessible_set_label(dd_accessible(root.raw), name)
        ControlStyles.install(for: root.widget)
        pageControl.onChange = { [weak self] page, _ in self?.showPage(page, how: .pageControl) }
        installInput()
        updateEdges()
    }

    /// Adds a page at the end. Throws ``ControlError/tooManyPages(_:)`` when the view already has
    /// ``PageControl/maximumPages`` pages (K7: more need a grid), changing nothing.
    public func addPage(_ widget: UnsafeMutablePointer<GtkWidget>, title: String) throws(ControlError) {
        try pageControl.setNumberOfPages(pages.count + 1)
        pages.append((title, GObjectRef(newWidget: widget)))
        gtk_stack_add_named(dd_stack(stack.raw), widget, "page-\(pages.count - 1)")
        showPage(currentPage, how: .program, notify: false)
    }

    /// Shows `page` (clamped to the pages there are).
    public func show(page: Int, how: Navigation = .program) { showPage(page, how: how) }

    /// Turns one page back or forward (nothing at either end).
    public func step(_ direction: PageControl.Direction, how: Navigation) {
        showPage(currentPage + (direction == .next ? 1 : -1), how: how)
    }

    /// The target identifier of an edge.
    public func edgeID(_ edge: Edge) -> TargetID {
        TargetID("\(id.rawValue).\(edge == .previous ? "previous" : "next")")
    }

    /// Registers the pages' container inside the registered target `parent`, with its two
    /// spring-loaded edges; register the pages' content inside ``id`` afterwards.
    public func register(in parent: TargetID) throws(GtkDragHostError) {
        var container = DragTarget(id: id, name: name, frame: .zero, parent: parent)
        container.clipsChildren = true
        try host.register(overlay.widget, as: container, delegate: self)
        for edge in [Edge.previous, .next] {
            guard let strip = edges[edge] else { continue }
            var target = DragTarget(
                id: edgeID(edge), name: edge == .previous ? "Previous Page" : "Next Page", frame: .zero, parent: id)
            target.springLoading = springLoading
            try host.register(strip.widget, as: target, springLoadedBy: self)
        }
        self.parent = parent
    }

    /// Unregisters the container, its edges and everything registered inside it.
    public func unregister() {
        guard parent != nil else { return }
        host.unregister(id)
        parent = nil
    }

    // MARK: Pages

    private func showPage(_ requested: Int, how: Navigation, notify: Bool = true) {
        guard !pages.isEmpty else { return }
        let page = min(max(0, requested), pages.count - 1)
        let changed = page != shown
        shown = page
        pageControl.setCurrentPage(page)
        // No sliding while a drag runs: the host reads the new page's frames once it is shown,
        // and they must be where the page rests, not where an animation passes.
        let transition =
            host.framesFrozen || how == .program
            ? GTK_STACK_TRANSITION_TYPE_NONE : GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT_RIGHT
        gtk_stack_set_visible_child_full(dd_stack(stack.raw), "page-\(page)", transition)
        updateEdges()
        guard notify, changed else { return }
        if how == .springLoaded || host.framesFrozen {
            host.announce("\(pages[page].title), page \(page + 1) of \(pages.count).")
        }
        onPageChange?(page, how)
    }

    /// Each edge shows only where there is a page to go to.
    private func updateEdges() {
        edges[.previous].map { gtk_widget_set_visible($0.widget, currentPage > 0 ? 1 : 0) }
        edges[.next].map { gtk_widget_set_visible($0.widget, currentPage < pages.count - 1 ? 1 : 0) }
    }

    // MARK: Input

    /// Whether GTK lays the pages out right to left: the previous page's edge is then on the
    /// right (GTK places the edges by their start and end alignment) and pages slide the other
    /// way (GtkStack mirrors its slide).
    private var isRightToLeft: Bool { GtkWidgetSupport.layoutDirection(of: overlay.widget) == .rightToLeft }

    private func installInput() {
        // A horizontal swipe on the pages' empty area turns one page.
        let swipe = SlideGesture(on: overlay.widget, axis: .horizontal, host: host)
        swipe.onEnd = { [weak self] dx, _ in
            guard let self else { return }
            let needed = max(48, Double(gtk_widget_get_width(self.overlay.widget)) / 8)
            guard abs(dx) >= needed else { return }
            // A swipe towards the start edge brings the next page: leftwards, or rightwards
            // in a right-to-left layout, where the next page lies to the left (L3).
            let forward = self.isRightToLeft ? dx > 0 : dx < 0
            self.step(forward ? .next : .previous, how: .swipe)
        }
        self.swipe = swipe
        // A sideways scroll: a wheel step turns a page; smooth scrolling turns one page per
        // 80 pixels scrolled in one go.
        if let scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_HORIZONTAL) {
            let bits = PointerBits(UnsafeMutableRawPointer(scroll))
            GSignal.connect(
                UnsafeMutableRawPointer(scroll), "scroll",
                scroll: { [weak self] dx, _ in
                    guard let self, dx != 0, !self.host.engine.isDragging, let controller = bits.pointer else {
                        return false
                    }
                    let wheel = gtk_event_controller_scroll_get_unit(OpaquePointer(controller)) == GDK_SCROLL_UNIT_WHEEL
                    self.scrolled = wheel ? dx : self.scrolled + dx
                    if abs(self.scrolled) >= (wheel ? 1 : 80) {
                        // Scrolling right shows what lies right: the next page, or the previous
                        // one right to left (L3).
                        let forward = self.isRightToLeft ? self.scrolled < 0 : self.scrolled > 0
                        self.step(forward ? .next : .previous, how: .scroll)
                        self.scrolled = 0
                    }
                    return true
                })
            GSignal.connect(UnsafeMutableRawPointer(scroll), "scroll-end") { [weak self] in self?.scrolled = 0 }
            gtk_widget_add_controller(overlay.widget, scroll)
        }
        // Page Up and Page Down anywhere inside (the page control takes its arrows itself),
        // before the focused widget (a grid moves its cursor a page with them).
        if let keys = gtk_event_controller_key_new() {
            gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
            GSignal.connect(
                UnsafeMutableRawPointer(keys), "key-pressed",
                key: { [weak self] keyval, _, state in
                    guard let self, state & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue) == 0 else {
                        return false
                    }
                    switch Int32(bitPattern: keyval) {
                    case GDK_KEY_Page_Up, GDK_KEY_KP_Page_Up: self.step(.previous, how: .keyboard)
                    case GDK_KEY_Page_Down, GDK_KEY_KP_Page_Down: self.step(.next, how: .keyboard)
                    default: return false
                    }
                    return true
                })
            gtk_widget_add_controller(root.widget, keys)
        }
    }
}

extension PagedView: GtkSpringLoadingDelegate {
    public func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        .failed(DropFailure(.forbidden, WidgetText.pageEdgeDrop))
    }

    /// Content held on an edge turns to the neighbouring page (SP1); the drag goes on there.
    public func dragHost(_ host: GtkDragHost, activate control: TargetID, explicit: Bool) {
        if control == edgeID(.previous) {
            step(.previous, how: .springLoaded)
        } else if control == edgeID(.next) {
            step(.next, how: .springLoaded)
        }
    }
}
