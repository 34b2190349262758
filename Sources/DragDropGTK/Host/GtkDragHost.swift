import CGtk4
import DragDrop

/// Errors from registering widgets with a ``GtkDragHost``.
public enum GtkDragHostError: Error, CustomStringConvertible {
    /// The engine refused the target.
    case registry(RegistryError)
    /// A widget target needs a registered parent (a window added with
    /// ``GtkDragHost/addWindow(_:id:name:undoShortcuts:)`` or a widget registered before it).
    case noParent(TargetID)
    /// The window was not added with ``GtkDragHost/addWindow(_:id:name:undoShortcuts:)``.
    case unknownWindow(TargetID)
    /// The target asks for a feature (`because`) that nothing registered with it provides (a
    /// spring-loaded target registered without a ``GtkSpringLoadingDelegate``). Without this,
    /// the feature would silently do nothing.
    case missingFeature(TargetID, protocolName: String, because: String)

    /// The message a person reads.
    public var description: String {
        switch self {
        case .registry(let error): error.description
        case .noParent(let id):
            "Widget target '\(id)' needs a registered parent: add its window with addWindow(_:id:name:) and register "
                + "containers before their items."
        case .unknownWindow(let id):
            "Window '\(id)' is not added to the drag host: add it with addWindow(_:id:name:) first."
        case .missingFeature(let id, let protocolName, let because):
            "Widget target '\(id)' \(because), but nothing registered with it is a \(protocolName): register it with "
                + "register(_:as:springLoadedBy:) and one."
        }
    }
}

/// Runs a `DragEngine` inside GTK 4: turns GTK drag-and-drop signals into engine input and
/// renders the engine's feedback on the widgets.
///
/// The host itself keeps the registry of widgets, their frames, the engine's timer and GTK's
/// drag source and drop targets; each other concern is a collaborator object that owns its
/// state and behaviour, and the host hands every engine event to each in turn: the feedback on
/// the widgets (highlight, rows making room, placeholders, notices, confirmation), keyboard
/// dragging, drags with other apps, and accessibility (names and announcements).
///
/// - Windows are root targets, each at its own virtual origin (window *k* at
///   x = *k* × ``windowSpacing``), so one engine resolves across windows.
/// - Widgets register as targets; their frames come from `gtk_widget_compute_bounds` and are
///   refreshed after every layout while no drag runs (frames stay put during a drag, so rows
///   making room do not move the insertion point under the pointer).
/// - Draggable widgets get a `GtkDragSource`; each window gets a `GtkDropTargetAsync` that feeds
///   the pointer to the engine during drags and finishes every GTK drop.
/// - The engine's timers run on one `g_timeout` rescheduled after every engine call.
///
/// ```swift
/// let host = GtkDragHost(app: "Reminders")
/// try host.addWindow(window, id: "main", name: "Reminders")
/// var list = DragTarget(id: "groceries", name: "Groceries", frame: .zero, parent: "main")
/// list.accepts = ["application/x-reminder"]
/// try host.register(listBox, as: list, delegate: model)
/// ```
@MainActor
public final class GtkDragHost {
    /// The engine; call it through the host's methods so timers are rescheduled.
    public let engine: DragEngine
    /// The horizontal distance between window origins in engine coordinates.
    public static let windowSpacing: Double = 100_000
    /// Called with every feedback event after the host rendered it.
    public var onEvent: (@MainActor (FeedbackEvent) -> Void)?
    /// Called after registered frames changed (a layout happened).
    package var onFramesChanged: (@MainActor () -> Void)?
    /// Called with a line describing GTK-level happenings (drag signals, refused drops), for
    /// logs and test fixtures.
    public var onDiagnostic: (@MainActor (String) -> Void)?

    struct Registered {
        let widget: GObjectRef
        let window: TargetID
        /// Held until the target is unregistered or its window closes: a widget object an app
        /// registered (a list, an entry) lives as long as its window shows it, with no other
        /// reference to keep it.
        var delegate: (any GtkDragHostDelegate)?
        var dragSource: GObjectRef?
        /// Objects kept alive with the target (``keepAlive(_:while:)``).
        var keptAlive: [AnyObject] = []
        /// What opens a spring-loaded target (``register(_:as:springLoadedBy:)``).
        var springLoader: (any GtkSpringLoadingDelegate)?
        /// Whether the widget was mapped when the engine was last told (nil: not yet): the
        /// after-paint check asks the engine only when this changes.
        var mapped: Bool?
    }

    /// A GTK drag started by this host, alive from `drag-begin` to `drag-end`.
    struct ActiveGdkDrag {
        let drag: GObjectRef
        let source: GObjectRef
        /// Kept alive so the drag image and fly-back still have something to paint when the
        /// model rebuilt its rows at the drop.
        let sourceWidget: GObjectRef
        let icon: DragIconView
    }

    /// What `prepare` computed, waiting for `drag-begin` to start the engine session.
    struct PendingStart {
        let items: [TargetID]
        let point: Point
        let hotspot: (x: Double, y: Double)
    }

    var registered: [TargetID: Registered] = [:]
    /// What registered widgets do after each frame their window paints, by target
    /// (``afterEachPaint(of:_:)``).
    private var paintFollowers: [TargetID: @MainActor () -> Void] = [:]
    var windowOrigins: [TargetID: Point] = [:]
    var dropTargets: [TargetID: GObjectRef] = [:]
    /// What every window's drop target accepts: common types plus those registered targets
    /// offer or accept.
    var mimeTypes = GtkDragHost.commonMimeTypes
    var gdkDrag: ActiveGdkDrag?
    var pendingStart: PendingStart?
    /// How the engine ended the GTK drag in progress (a drop ends it in the drop's own call,
    /// which returns it; GTK's `drag-cancel` and `drag-end` come later and read it here).
    var lastOutcome: DropOutcome?
    /// What runs once the drag in progress ends (``whenTheDragEnds(_:)``).
    var dragEndWaiters: [@MainActor () -> Void] = []
    /// Where the pointer was last seen during this app's drag (GtkDragHost+PointerWatch.swift).
    var pointerWatch = PointerWatch()
    /// The model-backed container (``DragTarget/modelItems``) of the drag in progress, whose
    /// owner answers for its items that are not registered (rows off screen).
    var dragModelContainer: TargetID?
    /// Drag-source controllers of unregistered widgets, removed once the GTK drag ends.
    var deferredDetach: [(widget: GObjectRef, controller: GObjectRef)] = []
    /// Dragged items as files for other apps (OtherApps/FileExport.swift).
    public lazy var fileExport: FileExport = makeFileExport()
    /// Drags on Wayland (WaylandDrags.swift).
    lazy var wayland = WaylandDrags(host: self)
    private var nextWindowIndex = 0
    /// Widgets that register when placed in a window (GtkDragHost+Placement.swift).
    let placing = Placements()
    /// The last number ``uniqueID(_:)`` gave.
    static var nextUniqueID = 0
    private var timer: guint = 0
    /// The windows GTK laid out since their last after-paint.
    private var laidOut: Set<TargetID> = []
    /// Counts GTK's layouts of this host's windows: widgets move only when it changes.
    private(set) var layoutGeneration = 0
    /// The engine deadline `timer` was set for.
    private var timerDeadline: MonotonicInstant?
    private var updateSource: guint = 0
    private var pendingUpdates: [(key: ObjectIdentifier, body: @MainActor () -> Void)] = []
    private var styledDisplays: Set<UInt> = []

    // The collaborators: each owns one concern's state and behaviour.
    /// Accessible names and announcements (Accessibility/AccessibilitySupport.swift).
    lazy var accessibility = AccessibilitySupport(host: self)
    /// Keyboard dragging (KeyboardDragging.swift).
    lazy var keyboard = KeyboardDragging(host: self)
    /// Drags to and from other apps (OtherApps/OtherAppDrags.swift).
    lazy var otherApps = OtherAppDrags(host: self)
    /// Feedback on the widgets (FeedbackRenderer.swift).
    lazy var feedback = FeedbackRenderer(host: self)
    /// Every collaborator, in the order engine events reach them
    /// (``dragEngine(_:emitted:)``): announcements are spoken before the widgets change.
    lazy var collaborators: [any GtkDragHostCollaborator] = [accessibility, keyboard, otherApps, feedback]

    /// A point outside every window, where the pointer goes when a drag leaves all windows.
    static let outside = Point(x: -1_000_000, y: -1_000_000)

    /// Creates a host with an engine for `app` on the system clock, and sets GTK's drag
    /// threshold to 3 pixels (F1). Create it once GTK is initialized (in the application's
    /// `activate` handler): before that there are no default settings to change.
    public init(app: AppID, configuration: DragEngine.Configuration = DragEngine.Configuration()) {
        engine = DragEngine(app: app, clock: SystemClock(), configuration: configuration)
        engine.delegate = self
        if let settings = gtk_settings_get_default() {
            dd_object_set_int(UnsafeMutableRawPointer(settings), "gtk-dnd-drag-threshold", 3)
        }
        FileTransferPortal.watch()
    }

    // MARK: Registration

    /// Registers a window as a root target at the next virtual origin, with its drop target,
    /// frame tracking and (optionally) Ctrl+Z / Ctrl+Shift+Z for undo and redo.
    public func addWindow(
        _ window: UnsafeMutablePointer<GtkWidget>, id: TargetID, name: String, undoShortcuts: Bool = true
    ) throws(GtkDragHostError) {
        let origin = Point(x: Double(nextWindowIndex) * Self.windowSpacing, y: 0)
        var target = DragTarget(
            id: id, name: name,
            frame: Rect(
                x: origin.x, y: origin.y, width: Double(gtk_widget_get_width(window)),
                height: Double(gtk_widget_get_height(window))))
        target.clipsChildren = true
        do { try engine.register(target) } catch { throw .registry(error) }
        nextWindowIndex += 1
        windowOrigins[id] = origin
        let ref = GObjectRef(raw: UnsafeMutableRawPointer(window))
        registered[id] = Registered(widget: ref, window: id, delegate: nil)
        installStyles(for: window)
        gtk_widget_add_css_class(window, "dd-drag-root")
        otherApps.prepare(window)
        attachDropTarget(to: window, windowID: id)
        feedback.installLayer(on: window, id: id)
        if undoShortcuts { attachUndoShortcuts(to: window) }
        keyboard.attach(to: window, windowID: id)
        GSignal.connect(
            UnsafeMutableRawPointer(window), "notify::focus-widget",
            pointer: { [weak self] _ in
                self?.keyboard.focusChanged(in: id)
                self?.accessibility.focusChanged(in: window)
            })
        trackLayout(of: window, id: id)
        let windowBits = PointerBits(UnsafeMutableRawPointer(window))
        GSignal.connect(UnsafeMutableRawPointer(window), "unrealize") { [weak self] in
            // gtk_window_destroy takes the window off the toplevel list before unrealizing it; a
            // window merely unrealized (a display change) stays on it.
            guard let self, let raw = windowBits.pointer, !Self.isToplevel(raw) else { return }
            self.removeWindow(id)
        }
    }

    /// Ends everything registered in window `id`: its targets and theirs are unregistered, the
    /// objects that owned them released, and a drag from or over the window cancelled. Called
    /// by itself when the window is destroyed (closed); call it for a window that stays open but
    /// no longer takes part in drags.
    public func removeWindow(_ id: TargetID) {
        guard windowOrigins[id] != nil, registered[id] != nil else { return }
        if let session = engine.currentSession {
            let involved = ([session.destination] + session.items.map(\.id)).contains { target in
                target.map { registered[$0]?.window == id } ?? false
            }
            if involved { drive { engine.cancelDrag() } }
        }
        unregister(id)
        for collaborator in collaborators { collaborator.windowRemoved(id) }
        diagnose("window removed \(id.rawValue)")
    }

    /// Whether `window` is on GTK's list of toplevel windows (destroyed windows are not).
    private static func isToplevel(_ window: UnsafeMutableRawPointer) -> Bool {
        guard let list = gtk_window_get_toplevels() else { return false }
        let count = g_list_model_get_n_items(list)
        for index in 0..<count {
            guard let item = g_list_model_get_item(list, index) else { continue }
            defer { g_object_unref(item) }
            if item == window { return true }
        }
        return false
    }

    /// Registers a widget inside a registered window as `target` (its frame is taken from the
    /// widget). A draggable target (non-empty `offers`) gets a `GtkDragSource`. `delegate` owns
    /// the model behind it; the host holds it until the target is unregistered or its window
    /// closes (``removeWindow(_:)``). A spring-loaded target registers with
    /// ``register(_:as:springLoadedBy:)`` instead.
    ///
    /// A `target.frame` other than `.zero` (engine coordinates) is kept until the next layout
    /// outside a drag: a virtualized list binding a recycled row during a drag knows where the
    /// row lies from its model, while the widget still has the bounds of the row it showed.
    public func register(
        _ widget: UnsafeMutablePointer<GtkWidget>, as target: DragTarget, delegate: (any GtkDragHostDelegate)?
    ) throws(GtkDragHostError) {
        try register(widget, as: target, delegate: delegate, springLoader: nil)
    }

    /// Registers a spring-loaded control (SP1): `opener` opens it when dragged content rests on
    /// it, and owns it as ``register(_:as:delegate:)``'s delegate does. `target.springLoading`
    /// says how long the content rests first (the default configuration when nil).
    public func register(
        _ widget: UnsafeMutablePointer<GtkWidget>, as target: DragTarget,
        springLoadedBy opener: some GtkSpringLoadingDelegate
    ) throws(GtkDragHostError) {
        var springy = target
        if springy.springLoading == nil { springy.springLoading = SpringLoadingConfiguration() }
        try register(widget, as: springy, delegate: opener, springLoader: opener)
    }

    private func register(
        _ widget: UnsafeMutablePointer<GtkWidget>, as target: DragTarget, delegate: (any GtkDragHostDelegate)?,
        springLoader: (any GtkSpringLoadingDelegate)?
    ) throws(GtkDragHostError) {
        guard let parent = target.parent, let parentEntry = registered[parent] else { throw .noParent(target.id) }
        try Self.checkFeatures(of: target, springLoader: springLoader)
        let ref = GObjectRef(raw: UnsafeMutableRawPointer(widget))
        var entry = Registered(widget: ref, window: parentEntry.window, delegate: delegate)
        entry.springLoader = springLoader
        var t = target
        if target.frame == .zero { t.frame = frame(of: entry, id: target.id) ?? .zero }
        do { try engine.register(t) } catch { throw .registry(error) }
        accessibility.setAccessibleName(of: widget, for: t)
        if t.isSource { entry.dragSource = attachDragSource(to: widget, item: t.id) }
        learnMimeTypes(of: t)
        registered[t.id] = entry
        reschedule()
    }

    /// Fails when `target` is spring-loaded (SP1) but has nothing to open it: it must be
    /// registered with ``register(_:as:springLoadedBy:)``, or it would silently never open.
    static func checkFeatures(of target: DragTarget, springLoader: (any GtkSpringLoadingDelegate)?)
        throws(GtkDragHostError)
    {
        if target.springLoading != nil, springLoader == nil {
            throw .missingFeature(target.id, protocolName: "GtkSpringLoadingDelegate", because: "is spring-loaded")
        }
    }

    /// Runs `body` after each frame the window of registered target `id` paints, once the
    /// host has refreshed the frames of its targets (nil: no longer). Ends when `id` is
    /// unregistered. For a widget that keeps frames of its own in step with GTK's layout (a
    /// virtualized list measuring its rows).
    func afterEachPaint(of id: TargetID, _ body: (@MainActor () -> Void)?) {
        guard registered[id] != nil || body == nil else { return }
        paintFollowers[id] = body
    }

    /// Keeps `object` alive while the target `id` is registered: released when it is
    /// unregistered or its window closes. For an object that owns a registered widget without
    /// being its delegate (a list over a ``DragCollectionView``, a data source), so that the app
    /// needs no reference of its own to keep it. Nothing happens when `id` is not registered.
    public func keepAlive(_ object: AnyObject, while id: TargetID) {
        guard let entry = registered[id], !entry.keptAlive.contains(where: { $0 === object }) else { return }
        registered[id]?.keptAlive.append(object)
    }

    /// Unregisters a target and its descendants, removing the drag sources the host added.
    public func unregister(_ id: TargetID) {
        // The target and its descendants: O(descendants), not a pass over every registered
        // target (a folder of 10,000 rows unregistered them one by one in O(n²)).
        let doomed = [id] + engine.registry.descendants(of: id)
        do { try engine.unregister(id) } catch { report(error) }
        for d in doomed {
            paintFollowers[d] = nil
            guard let r = registered.removeValue(forKey: d) else { continue }
            detachDragSource(r)
            if let dropTarget = dropTargets.removeValue(forKey: d) {
                gtk_widget_remove_controller(r.widget.widget, OpaquePointer(dropTarget.raw))
            }
            windowOrigins[d] = nil
        }
        reschedule()
    }

    /// The frame of a registered target relative to its window's top-left corner.
    public func frameInWindow(of id: TargetID) -> Rect? {
        guard let r = registered[id], let origin = windowOrigins[r.window],
            let frame = engine.registry.target(id)?.frame
        else { return nil }
        return Rect(x: frame.minX - origin.x, y: frame.minY - origin.y, width: frame.width, height: frame.height)
    }

    /// The widget registered for `id`.
    public func widget(for id: TargetID) -> UnsafeMutablePointer<GtkWidget>? { registered[id]?.widget.widget }

    /// The registered targets' ids, windows included, in no particular order.
    public var registeredTargetIDs: [TargetID] { Array(registered.keys) }

    // MARK: Undo

    /// Undoes the last drop or edit (U1) of `target`'s document (`DragEngine.undoStack(for:)`;
    /// the engine's own history without one) and tells the engine's observers. Ignored during a
    /// drag.
    public func undo(in target: TargetID? = nil) {
        guard !framesFrozen else { return }
        drive { engine.undo(in: target) }
    }

    /// Redoes the last undone drop or edit (U1) of `target`'s document. Ignored during a drag.
    public func redo(in target: TargetID? = nil) {
        guard !framesFrozen else { return }
        drive { engine.redo(in: target) }
    }

    /// The document Ctrl+Z and Ctrl+Shift+Z apply to when the keyboard focus is in no registered
    /// widget (a sidebar, a toolbar): an app with a history per document (`DragEngine.useUndoStack(_:for:)`)
    /// returns a registered target of the document on screen. Nil: the engine's own history.
    public var fallbackUndoDocument: (@MainActor () -> TargetID?)?

    /// The document the keyboard works in, in `window`: the nearest registered widget at or
    /// above the focus (the window when nothing has it) when it belongs to a document with a
    /// history of its own, else
    /// ``fallbackUndoDocument``, else that widget. O(registered targets), once per key press.
    public func undoDocument(in window: UnsafeMutablePointer<GtkWidget>) -> TargetID? {
        var found: TargetID?
        var byWidget: [UnsafeMutableRawPointer: TargetID] = [:]
        for (id, registration) in registered {
            byWidget[UnsafeMutableRawPointer(registration.widget.widget)] = id
        }
        // From the focus up, or the window itself when nothing in it has the focus.
        var current: UnsafeMutablePointer<GtkWidget>? =
            gtk_widget_get_root(window).flatMap { gtk_root_get_focus($0) } ?? window
        while let widget = current, found == nil {
            found = byWidget[UnsafeMutableRawPointer(widget)]
            current = gtk_widget_get_parent(widget)
        }
        if let found, engine.undoStack(for: found) !== engine.undoStack { return found }
        return fallbackUndoDocument?() ?? found
    }

    // MARK: Deferred model updates

    /// Runs `body` once, soon, outside any engine call and before GTK's next layout. Calls with
    /// the same `key` before it runs are coalesced. Models use this to rebuild widgets after a
    /// drop: the engine may still be reading its registry while the drop is performed.
    public func scheduleUpdate(key: AnyObject, _ body: @escaping @MainActor () -> Void) {
        let id = ObjectIdentifier(key)
        guard !pendingUpdates.contains(where: { $0.key == id }) else { return }
        pendingUpdates.append((id, body))
        guard updateSource == 0 else { return }
        updateSource = GLibSource.idle { [weak self] in
            guard let self else { return }
            self.updateSource = 0
            let jobs = self.pendingUpdates
            self.pendingUpdates = []
            for job in jobs { job.body() }
        }
    }

    // MARK: Engine calls and the timer

    /// Runs an engine call, then reschedules the engine's timer.
    func drive(_ body: () -> Void) {
        body()
        reschedule()
    }

    /// Keeps one GLib timeout for the engine's next deadline (spring loading, autoscroll,
    /// re-resolution after frames changed).
    func reschedule() {
        let deadline = engine.nextDeadline
        // Most engine calls leave the deadline where it was (a move while autoscrolling): the
        // timeout already set stands.
        if timer != 0, deadline == timerDeadline { return }
        GLibSource.cancel(timer)
        timer = 0
        timerDeadline = deadline
        guard let deadline else { return }
        let delay = max(0, (deadline - engine.clock.now).seconds)
        let milliseconds = UInt32(min(60_000, (delay * 1000).rounded(.up)))
        timer = GLibSource.once(afterMilliseconds: milliseconds) { [weak self] in
            guard let self else { return }
            self.timer = 0
            self.timerDeadline = nil
            self.engine.tick()
            self.reschedule()
        }
    }

    // MARK: Frames

    /// Whether frames stay as they were at drag start.
    var framesFrozen: Bool { engine.isDragging || gdkDrag != nil }

    /// Reads every registered widget's frame; tells the engine and ``onFramesChanged`` about
    /// changes. Does nothing during a drag unless `force`.
    func refreshFrames(force: Bool = false) {
        guard force || !framesFrozen else { return }
        var changed = false
        for (id, entry) in registered {
            guard let frame = frame(of: entry, id: id), engine.registry.target(id)?.frame != frame else { continue }
            do { try engine.setFrame(frame, for: id) } catch { report(error) }
            changed = true
        }
        guard changed else { return }
        reschedule()
        onFramesChanged?()
    }

    /// The widget's bounds in its window, moved to the window's virtual origin; nil before the
    /// widget is laid out in its window.
    func frame(of entry: Registered, id: TargetID) -> Rect? {
        guard let origin = windowOrigins[entry.window], let window = registered[entry.window] else { return nil }
        if id == entry.window {
            return Rect(
                x: origin.x, y: origin.y, width: Double(gtk_widget_get_width(window.widget.widget)),
                height: Double(gtk_widget_get_height(window.widget.widget)))
        }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(entry.widget.widget, window.widget.widget, &bounds) != 0 else { return nil }
        return Rect(
            x: origin.x + Double(bounds.origin.x), y: origin.y + Double(bounds.origin.y),
            width: Double(max(0, bounds.size.width)), height: Double(max(0, bounds.size.height)))
    }

    /// Refreshes frames after every frame GTK paints (layout is done by then), then runs what
    /// registered widgets of this window asked to do then (``afterEachPaint(of:_:)``): the one
    /// after-paint handler of the window, so frame work happens in one known order.
    private func trackLayout(of window: UnsafeMutablePointer<GtkWidget>, id: TargetID) {
        let connectClock: @MainActor () -> Void = { [weak self] in
            guard let clock = gtk_widget_get_frame_clock(window) else { return }
            // Widgets move, appear and disappear only in a frame GTK lays out (scrolling, a row
            // making room, a page switched, a widget shown or hidden all queue a layout): frames
            // painted for anything else (a scroll bar fading, a drop line, a spinner) leave
            // the frames and the visibility as they were.
            self?.laidOut.insert(id)
            GSignal.connect(UnsafeMutableRawPointer(clock), "layout") { [weak self] in
                self?.laidOut.insert(id)
                self?.layoutGeneration &+= 1
            }
            GSignal.connect(UnsafeMutableRawPointer(clock), "after-paint") { [weak self] in
                guard let self, laidOut.remove(id) != nil else { return }
                syncVisibility()
                refreshFrames()
                for (target, body) in paintFollowers where registered[target]?.window == id { body() }
            }
        }
        if gtk_widget_get_realized(window) != 0 {
            connectClock()
        } else {
            GSignal.connect(UnsafeMutableRawPointer(window), "realize", connectClock)
        }
    }

    // MARK: Plumbing

    func delegate(of id: TargetID?) -> (any GtkDragHostDelegate)? { id.flatMap { registered[$0]?.delegate } }

    func report(_ error: any Error) { onDiagnostic?("error: \(error)") }

    func diagnose(_ line: @autoclosure () -> String) {
        guard let onDiagnostic else { return }
        onDiagnostic(line())
    }

    private func attachUndoShortcuts(to window: UnsafeMutablePointer<GtkWidget>) {
        guard let keys = gtk_event_controller_key_new() else { return }
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        GSignal.connect(
            UnsafeMutableRawPointer(keys), "key-pressed",
            key: { [weak self] keyval, _, state in
                guard let self, state & GDK_CONTROL_MASK.rawValue != 0 else { return false }
                guard keyval == UInt32(GDK_KEY_z) || keyval == UInt32(GDK_KEY_Z) else { return false }
                self.diagnose(
                    "shortcut \(state & GDK_SHIFT_MASK.rawValue != 0 ? "redo" : "undo") frozen=\(self.framesFrozen)")
                let document = self.undoDocument(in: window)
                if state & GDK_SHIFT_MASK.rawValue != 0 { self.redo(in: document) } else { self.undo(in: document) }
                return true
            })
        gtk_widget_add_controller(window, keys)
    }

    private func installStyles(for widget: UnsafeMutablePointer<GtkWidget>) {
        guard let display = gtk_widget_get_display(widget) else { return }
        guard styledDisplays.insert(UInt(bitPattern: UnsafeMutableRawPointer(display))).inserted else { return }
        DragStyles.install(on: display)
    }
}
