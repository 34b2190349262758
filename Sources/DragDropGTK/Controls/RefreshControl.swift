import CGtk4
import DragDrop
import Foundation

/// A refresh control for a scrolling list (K8): hidden until the list is pulled down past its
/// top, then it shows the refresh's progress; the list also refreshes by itself on a schedule
/// the app sets.
///
/// A pull is a press on the list's empty area (never on a row: pressing a row drags it, and a
/// pull never starts a content drag) slid down past ``threshold`` pixels while the list is at its
/// top, or a scroll up past the top (a touchpad, or a few wheel steps) continued from the top.
/// A content drag never refreshes: no pull starts while a drag runs, and autoscroll at the top
/// edge during a drag moves the list without scroll events, so it never counts as a pull.
/// F5 and Ctrl+R refresh from the keyboard (K12).
///
/// ```swift
/// let scroll = DragScrollView(id: "inbox-scroll", name: "Inbox", child: inbox.widget, host: host)
/// let refresh = RefreshControl(wrapping: scroll.widget, name: "Inbox", host: host)
/// refresh.refreshingText = "Checking for Mail…"
/// refresh.onRefresh = { trigger in mail.fetch { refresh.endRefreshing() } }
/// refresh.setSchedule(every: .seconds(180))
/// gtk_box_append(column, refresh.widget)   // instead of scroll.widget
/// ```
@MainActor
public final class RefreshControl {
    /// What started a refresh.
    public enum Trigger: String, Sendable {
        /// The list was pulled down past its top with the pointer (or a finger).
        case pull
        /// The list was scrolled up past its top.
        case scroll
        /// F5 or Ctrl+R.
        case keyboard
        /// The app's schedule.
        case schedule
        /// The app called ``beginRefreshing(_:)``.
        case program
    }

    /// How far past the top a pull must go to refresh, in pixels.
    nonisolated public static let threshold = 64.0
    /// How far one wheel step past the top pulls, in pixels.
    nonisolated static let wheelStep = 24.0

    /// The list's name, for the indicator's accessible name.
    public let name: String
    /// The text shown while pulling, before the pull is far enough to refresh.
    public var pullText = WidgetText.pullToRefresh
    /// The text shown once letting go would refresh.
    public var releaseText = WidgetText.releaseToRefresh
    /// The text shown while refreshing.
    public var refreshingText = "Refreshing\u{2026}"
    /// Called when a refresh begins; call ``endRefreshing()`` when it is done (and
    /// ``updateProgress(_:)`` meanwhile, if the total is known).
    public var onRefresh: (@MainActor (Trigger) -> Void)?
    /// Called when the pulled distance shown changes (0 when hidden), for logs and tests.
    public var onPull: (@MainActor (Double) -> Void)?
    /// Whether a refresh is under way.
    public private(set) var isRefreshing = false
    /// How far the indicator is pulled out now, in pixels (0: hidden).
    public private(set) var shownDistance = 0.0

    private unowned let host: GtkDragHost
    private let root: GObjectRef
    private let indicator: GObjectRef
    private let spinner: GObjectRef
    private let label: GObjectRef
    private let progress: GObjectRef
    private let scrolled: GObjectRef
    private var slide: SlideGesture?
    private var scrollPull = 0.0
    private var lastScroll = Date.distantPast
    private var scrollDecay: guint = 0
    private var schedule: guint = 0
    private var scheduleInterval: Duration?
    private var pulse: guint = 0

    /// The indicator above the list, and the list: put it where the scrolled window was.
    public var widget: UnsafeMutablePointer<GtkWidget> { root.widget }
    /// The indicator (hidden until pulled).
    public var indicatorWidget: UnsafeMutablePointer<GtkWidget> { indicator.widget }

    /// Wraps `scrolledWindow` (a `GtkScrolledWindow`, such as a ``DragScrollView``'s) with a
    /// refresh control named after `name`.
    public init(wrapping scrolledWindow: UnsafeMutablePointer<GtkWidget>, name: String, host: GtkDragHost) {
        self.name = name
        self.host = host
        scrolled = GObjectRef(newWidget: scrolledWindow)
        root = GObjectRef(newWidget: gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
        indicator = GObjectRef(newWidget: gtk_box_new(GTK_ORIENTATION_VERTICAL, 4))
        spinner = GObjectRef(newWidget: gtk_spinner_new())
        label = GObjectRef(newWidget: gtk_label_new(""))
        progress = GObjectRef(newWidget: gtk_progress_bar_new())
        gtk_widget_add_css_class(indicator.widget, "dd-refresh")
        gtk_widget_set_valign(indicator.widget, GTK_ALIGN_END)
        let line = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_widget_set_halign(line, GTK_ALIGN_CENTER)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(line)), spinner.widget)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(line)), label.widget)
        gtk_box_append(dd_box(indicator.raw), line)
        gtk_box_append(dd_box(indicator.raw), progress.widget)
        gtk_widget_set_visible(indicator.widget, 0)
        dd_accessible_set_label(dd_accessible(indicator.raw), WidgetText.refresh(name))
        gtk_box_append(dd_box(root.raw), indicator.widget)
        gtk_box_append(dd_box(root.raw), scrolledWindow)
        gtk_widget_set_vexpand(root.widget, 1)
        ControlStyles.install(for: root.widget)
        installPull()
        installScroll()
        installKeys()
    }

    // MARK: The app's side

    /// Refreshes by itself every `interval` (nil: never) after the last refresh ended, skipping
    /// a turn that comes during a drag or while a refresh runs.
    public func setSchedule(every interval: Duration?) {
        GLibSource.cancel(schedule)
        schedule = 0
        scheduleInterval = interval
        guard let interval else { return }
        let milliseconds = UInt32(max(100, min(86_400_000, interval.seconds * 1000)))
        schedule = GLibSource.every(milliseconds: milliseconds) { [weak self] in
            guard let self else { return false }
            if !self.isRefreshing, !self.host.engine.isDragging { self.beginRefreshing(.schedule) }
            return true
        }
    }

    /// Shows the indicator refreshing and calls ``onRefresh`` (nothing if a refresh runs).
    public func beginRefreshing(_ trigger: Trigger = .program) {
        guard !isRefreshing else { return }
        isRefreshing = true
        setLabel(refreshingText)
        gtk_spinner_start(OpaquePointer(spinner.raw))
        gtk_widget_set_visible(progress.widget, 1)
        gtk_progress_bar_set_fraction(dd_progress_bar(progress.raw), 0)
        GLibSource.cancel(pulse)
        pulse = GLibSource.every(milliseconds: 120) { [weak self] in
            guard let self, self.isRefreshing, self.pulse != 0 else { return false }
            gtk_progress_bar_pulse(dd_progress_bar(self.progress.raw))
            return true
        }
        show(distance: Self.threshold)
        if trigger != .schedule { host.announce("\(refreshingText.replacingOccurrences(of: "\u{2026}", with: "")).") }
        onRefresh?(trigger)
    }

    /// Shows how far the refresh has come (0...1), or nil when unknown (the bar pulses).
    public func updateProgress(_ fraction: Double?) {
        guard isRefreshing else { return }
        if let fraction {
            GLibSource.cancel(pulse)
            pulse = 0
            gtk_progress_bar_set_fraction(dd_progress_bar(progress.raw), min(max(fraction, 0), 1))
        }
    }

    /// Ends the refresh: the indicator hides again.
    public func endRefreshing() {
        guard isRefreshing else { return }
        isRefreshing = false
        GLibSource.cancel(pulse)
        pulse = 0
        gtk_spinner_stop(OpaquePointer(spinner.raw))
        show(distance: 0)
        // The schedule counts from the last refresh, whatever started it.
        if let scheduleInterval { setSchedule(every: scheduleInterval) }
    }

    // MARK: Showing

    private func setLabel(_ text: String) { gtk_label_set_text(dd_label(label.raw), text) }

    private func show(distance: Double) {
        let shown = max(0, min(distance, Self.threshold + 24))
        guard shown != shownDistance else { return }
        shownDistance = shown
        gtk_widget_set_visible(indicator.widget, shown > 0 ? 1 : 0)
        gtk_widget_set_size_request(indicator.widget, -1, Int32(shown))
        if !isRefreshing {
            setLabel(shown >= Self.threshold ? releaseText : pullText)
            gtk_widget_set_visible(progress.widget, 0)
        }
        onPull?(shown)
    }

    private var atTop: Bool {
        guard let adjustment = gtk_scrolled_window_get_vadjustment(dd_scrolled_window(scrolled.raw)) else {
            return true
        }
        return gtk_adjustment_get_value(adjustment) <= 0.5
    }

    // MARK: Input

    /// A press on the list's empty area slid down from the top.
    private func installPull() {
        // On the box holding indicator and list, which stays put while the indicator grows (the
        // list moves down with the pull, and offsets read on it would shrink).
        let slide = SlideGesture(on: root.widget, axis: .vertical, host: host)
        slide.mayStart = { [weak self] _, _ in
            guard let self else { return false }
            return self.atTop && !self.isRefreshing
        }
        slide.onSlide = { [weak self] _, dy in
            guard let self, !self.isRefreshing, !self.host.engine.isDragging else { return }
            self.show(distance: dy)
        }
        slide.onEnd = { [weak self] _, dy in self?.released(at: dy, trigger: .pull) }
        slide.onCancel = { [weak self] in
            guard let self, !self.isRefreshing else { return }
            self.show(distance: 0)
        }
        self.slide = slide
    }

    private func released(at distance: Double, trigger: Trigger) {
        guard !isRefreshing else { return }
        if distance >= Self.threshold, !host.engine.isDragging {
            beginRefreshing(trigger)
        } else {
            show(distance: 0)
        }
    }

    /// Scrolling up past the top, continued from the top: a wheel step pulls ``wheelStep``
    /// pixels, smooth scrolling its own distance; a pause of half a second lets go.
    private func installScroll() {
        guard let scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_VERTICAL) else { return }
        gtk_event_controller_set_propagation_phase(scroll, GTK_PHASE_CAPTURE)
        let bits = PointerBits(UnsafeMutableRawPointer(scroll))
        GSignal.connect(
            UnsafeMutableRawPointer(scroll), "scroll",
            scroll: { [weak self] _, dy in
                guard let self, let controller = bits.pointer else { return false }
                let continued = Date().timeIntervalSince(self.lastScroll) < 0.5
                let wasAtTop = self.atTop
                self.lastScroll = Date()
                guard dy < 0, wasAtTop, !self.isRefreshing, !self.host.engine.isDragging else {
                    if dy > 0, !self.isRefreshing { self.resetScrollPull() }
                    return false
                }
                let wheel = gtk_event_controller_scroll_get_unit(OpaquePointer(controller)) == GDK_SCROLL_UNIT_WHEEL
                // The first step only reaches the top; steps after it, from the top, pull.
                if !continued { self.scrollPull = 0 }
                self.scrollPull += wheel ? Self.wheelStep * -dy : -dy
                self.show(distance: self.scrollPull)
                if self.scrollPull >= Self.threshold {
                    self.scrollPull = 0
                    self.beginRefreshing(.scroll)
                } else {
                    self.scheduleScrollDecay()
                }
                return false
            })
        gtk_widget_add_controller(scrolled.widget, scroll)
    }

    private func scheduleScrollDecay() {
        GLibSource.cancel(scrollDecay)
        scrollDecay = GLibSource.once(afterMilliseconds: 500) { [weak self] in
            guard let self else { return }
            self.scrollDecay = 0
            self.resetScrollPull()
        }
    }

    private func resetScrollPull() {
        scrollPull = 0
        if !isRefreshing { show(distance: 0) }
    }

    /// F5 and Ctrl+R anywhere in the list refresh it.
    private func installKeys() {
        guard let keys = gtk_event_controller_key_new() else { return }
        GSignal.connect(
            UnsafeMutableRawPointer(keys), "key-pressed",
            key: { [weak self] keyval, _, state in
                guard let self else { return false }
                let control = state & GDK_CONTROL_MASK.rawValue != 0
                let f5 = keyval == UInt32(GDK_KEY_F5) && !control
                let ctrlR = control && (keyval == UInt32(GDK_KEY_r) || keyval == UInt32(GDK_KEY_R))
                guard f5 || ctrlR, !self.host.engine.isDragging else { return false }
                self.beginRefreshing(.keyboard)
                return true
            })
        gtk_widget_add_controller(root.widget, keys)
    }
}
