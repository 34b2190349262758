import CGtk4
import DragDrop

/// The host's feedback on the widgets (one of its collaborators, see ``GtkDragHost``): the
/// destination highlight (F4-F6), rows making room (F8), the drag image's badge and count and
/// the flock growing as items join (S3, M2, M3), spring-loading flashes (SP1), placeholders of
/// deferred drops (A4), the evaporate animation and the reason of a failed drop (F7, A6), and
/// the confirmation of irreversible drops (U2). It owns each window's ``FeedbackLayer``.
@MainActor
final class FeedbackRenderer: GtkDragHostCollaborator {
    private unowned let host: GtkDragHost
    /// The feedback layer of each window (notices, evaporate, confirmation).
    private var layers: [TargetID: FeedbackLayer] = [:]
    /// Which container shows the placeholders of each deferred drop.
    private var placeholderOwners: [DropToken: TargetID] = [:]
    /// The last pointer position GTK reported during the drag, in its window.
    private var lastPointer: (window: TargetID, x: Double, y: Double)?
    /// The dragged image at drag start and where the pointer held it, for the evaporate
    /// animation.
    private var lastImage: (snapshot: GObjectRef?, width: Double, height: Double, grabX: Double, grabY: Double)?
    var onNotice: (@MainActor (String) -> Void)?
    var evaporateSeconds = 0.35
    var noticeSeconds = 4.0

    init(host: GtkDragHost) { self.host = host }

    // MARK: From the host

    /// Wraps a window's content in its feedback layer (once; not before it has content).
    func installLayer(on window: UnsafeMutablePointer<GtkWidget>, id: TargetID) {
        guard layers[id] == nil, let layer = FeedbackLayer(wrapping: window) else { return }
        layers[id] = layer
    }

    /// Makes `content` the content of `window` under its feedback layer, making the layer
    /// around it first if the window has none yet (the content is rooted once, in the layer).
    func setContent(
        _ content: UnsafeMutablePointer<GtkWidget>?, of window: UnsafeMutablePointer<GtkWidget>, id: TargetID
    ) {
        if let layer = layers[id], layer.isChild(of: window) {
            layer.setContent(content)
        } else {
            layers[id] = FeedbackLayer(window: window, content: content)
        }
    }

    /// Whether `window` has its feedback layer.
    func hasLayer(in window: TargetID) -> Bool { layers[window] != nil }

    func windowRemoved(_ id: TargetID) { layers[id] = nil }

    /// Shows `message` at the bottom of `window` and reports it to ``onNotice``.
    func showNotice(_ message: String, in window: TargetID) {
        layers[window]?.showNotice(message, seconds: noticeSeconds)
        onNotice?(message)
    }

    /// At drag start: the image to evaporate if the drop fails far from its source.
    func rememberDragImage(_ icon: DragIconView, grab: (x: Double, y: Double)) {
        lastImage = (icon.snapshot, Double(icon.cardSize.width), Double(icon.cardSize.height), grab.x, grab.y)
        lastPointer = nil
    }

    /// During the drag: where GTK last saw the pointer.
    func recordPointer(window: TargetID, x: Double, y: Double) { lastPointer = (window, x, y) }

    // MARK: Engine events

    func engineEmitted(_ event: FeedbackEvent) {
        switch event {
        case .highlight(let id, let on):
            setClass("dd-drop-highlight", on, on: id)
            host.delegate(of: id)?.dragHost(host, destination: id, isTargeted: on)
        case .insertion(let container, let index):
            host.delegate(of: container)?.dragHost(host, showInsertionAt: index, in: container)
        case .outlineDrop(let container, let point):
            host.delegate(of: container)?.dragHost(host, showOutlineDrop: point, in: container)
        case .preview(let state):
            host.gdkDrag?.icon.update(state)
        case .springFlash(let id):
            setClass("dd-spring-flash", true, on: id)
        case .springActivated(let id, _), .springDisarmed(let id):
            setClass("dd-spring-flash", false, on: id)
        case .itemsAdded(let ids):
            host.gdkDrag?.icon.add(ids.compactMap { host.widget(for: $0) })
        case .placeholderInserted(let container, let token, let index, let count):
            placeholderOwners[token] = container
            placeholder(token, .inserted(index: index, count: count))
        case .placeholderProgress(let token, let fraction):
            placeholder(token, .progress(fraction))
        case .placeholderResolved(let token):
            placeholder(token, .resolved)
            placeholderOwners[token] = nil
        case .placeholderFailed(let token, let failure):
            let container = placeholderOwners[token]
            placeholder(token, .failed(failure))
            placeholderOwners[token] = nil
            if let window = container.flatMap({ host.registered[$0]?.window }) {
                showNotice(failure.message, in: window)
            }
        case .confirmationRequested(let destination, let message):
            askConfirmation(message, for: destination)
        case .outcome(let outcome):
            for layer in layers.values { layer.dismissConfirmation() }
            showFailure(of: outcome)
            let waiters = host.dragEndWaiters
            host.dragEndWaiters = []
            for waiter in waiters { waiter() }
        default:
            break
        }
    }

    private func setClass(_ name: String, _ on: Bool, on id: TargetID) {
        guard let widget = host.widget(for: id) else { return }
        if on { gtk_widget_add_css_class(widget, name) } else { gtk_widget_remove_css_class(widget, name) }
    }

    private func placeholder(_ token: DropToken, _ change: PlaceholderChange) {
        guard let container = placeholderOwners[token],
            let owner = host.delegate(of: container)
        else { return }
        owner.dragHost(host, placeholder: token, in: container, changed: change)
    }

    private func askConfirmation(_ message: String, for destination: TargetID) {
        guard let window = host.registered[destination]?.window, let layer = layers[window] else {
            // Nowhere to ask: the safe answer leaves everything as it was.
            host.diagnose("confirmation refused: no feedback layer in the window of \(destination)")
            GLibSource.idle { [weak host] in host?.drive { host?.engine.confirmDrop(false) } }
            return
        }
        let verb = host.engine.currentSession?.operation == .copy ? "Copy" : "Move"
        layer.askConfirmation(message, confirmTitle: Localization.command(verb)) { [weak host] accepted in
            guard let host else { return }
            host.diagnose("confirmation \(accepted ? "accepted" : "declined")")
            host.drive { host.engine.confirmDrop(accepted) }
        }
        host.diagnose("confirmation shown: \(message)")
    }

    /// F7: evaporate far from the source (GTK flies the image back otherwise); F7, A6: say why a
    /// drop failed when the destination refused it or it broke (not when released over nothing
    /// or cancelled by the user: the image's return says enough).
    private func showFailure(of outcome: DropOutcome) {
        guard let failure = outcome.failure else { return }
        if case .evaporate = outcome, let pointer = lastPointer, let image = lastImage, let snapshot = image.snapshot,
            let layer = layers[pointer.window]
        {
            let frame = (pointer.x - image.grabX, pointer.y - image.grabY, image.width, image.height)
            layer.evaporate(snapshot.raw, frame: frame, seconds: evaporateSeconds)
            host.diagnose("evaporate at \(Int(frame.0)),\(Int(frame.1)) size \(Int(frame.2))x\(Int(frame.3))")
        }
        switch failure.code {
        case .forbidden, .failed:
            let window = lastPointer?.window ?? layers.keys.sorted().first
            if let window { showNotice(failure.message, in: window) }
        case .noDestination, .cancelled, .declined:
            break
        }
    }
}

/// The feedback's public face on the host.
extension GtkDragHost {
    /// Runs `body` once the drag in progress ended, right after its outcome was emitted (a
    /// drop, a cancel, a hand-off to another app); at once when no drag is in progress.
    func whenTheDragEnds(_ body: @escaping @MainActor () -> Void) {
        guard engine.isDragging else {
            body()
            return
        }
        dragEndWaiters.append(body)
    }
}

extension GtkDragHost {
    /// Called with every message the host shows to explain a failed drop (F7, A6), after it
    /// is on screen.
    public var onNotice: (@MainActor (String) -> Void)? {
        get { feedback.onNotice }
        set { feedback.onNotice = newValue }
    }

    /// How long a failed drop's image takes to scale up and fade out when its source is not
    /// visible (F7). Default: 0.35 s.
    public var evaporateDuration: Duration {
        get { .milliseconds(Int64(feedback.evaporateSeconds * 1000)) }
        set { feedback.evaporateSeconds = max(0.01, newValue.seconds) }
    }

    /// How long a notice stays on screen. Default: 4 s.
    public var noticeDuration: Duration {
        get { .milliseconds(Int64(feedback.noticeSeconds * 1000)) }
        set { feedback.noticeSeconds = max(0.1, newValue.seconds) }
    }

    /// Shows `message` at the bottom of `window` for ``noticeDuration`` and reports it to
    /// ``onNotice``.
    public func showNotice(_ message: String, in window: TargetID) { feedback.showNotice(message, in: window) }

    /// Adds the feedback layer to a window added before its content was set; returns whether
    /// the window has one now. ``addWindow(_:id:name:undoShortcuts:)`` adds it when the window
    /// already has content.
    @discardableResult
    public func installFeedbackLayer(in window: TargetID) -> Bool {
        // Apps that set the window's content themselves after adding the window call this;
        // ``setContent(_:of:)`` makes the layer around the content without moving it.
        if feedback.hasLayer(in: window) { return true }
        guard let widget = widget(for: window), windowOrigins[window] != nil else { return false }
        feedback.installLayer(on: widget, id: window)
        return feedback.hasLayer(in: window)
    }

    /// Makes `content` the content of the registered window `window`, inside the window's
    /// feedback layer (notices, evaporate, confirmations: F7, A6, U2). Call it instead of
    /// `gtk_window_set_child` after ``addWindow(_:id:name:undoShortcuts:)`` on a window without
    /// content: the layer is built around the content before GTK roots it, so the content is
    /// rooted once (wrapping content already in a window makes GTK unroot and root it again,
    /// about 10 ms for a list's window). Calling it again replaces the content; nil removes it.
    public func setContent(_ content: UnsafeMutablePointer<GtkWidget>?, of window: TargetID) throws(GtkDragHostError) {
        guard let widget = widget(for: window), windowOrigins[window] != nil else { throw .unknownWindow(window) }
        feedback.setContent(content, of: widget, id: window)
    }

    /// Reports the loading progress of a deferred drop (A4, A5): `fraction` in 0...1, or nil
    /// when the total is unknown. The destination's placeholders follow it.
    public func updateDeferredDrop(_ token: DropToken, progress fraction: Double?) {
        drive { engine.updateDeferredDrop(token, progress: fraction) }
    }

    /// Ends a deferred drop: committed content replaces the placeholders (and a move now takes
    /// the items out of their source, S4); a failure removes them and shows why (A6).
    public func completeDeferredDrop(_ token: DropToken, with result: DropResult, arrived: [String]? = nil) {
        drive { engine.completeDeferredDrop(token, with: result, arrived: arrived) }
    }

}
