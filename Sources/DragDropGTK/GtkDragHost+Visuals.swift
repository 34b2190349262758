import CGtk4
import DragDrop

/// What the host keeps for the feedback painted beyond GTK's drag image.
@MainActor
final class VisualState {
    /// The feedback layer of each window (notices, evaporate, confirmation).
    var layers: [TargetID: FeedbackLayer] = [:]
    /// Which container shows the placeholders of each deferred drop.
    var placeholderOwners: [DropToken: TargetID] = [:]
    /// The last pointer position GTK reported during the drag, in its window.
    var lastPointer: (window: TargetID, x: Double, y: Double)?
    /// The dragged image at drag start and where the pointer held it, for the evaporate
    /// animation.
    var lastImage: (snapshot: GObjectRef?, width: Double, height: Double, grabX: Double, grabY: Double)?
    var onNotice: (@MainActor (String) -> Void)?
    var evaporateSeconds = 0.35
    var noticeSeconds = 4.0
}

/// Feedback beyond the drag image: flocks growing as items join (M2, M3), placeholders of
/// deferred drops (A4), spring-loaded activation (SP1), the evaporate animation and the reason
/// of a failed drop (F7, A6), and the confirmation of irreversible drops (U2).
extension GtkDragHost {
    /// Called with every message the host shows to explain a failed drop (F7, A6), after it
    /// is on screen.
    public var onNotice: (@MainActor (String) -> Void)? {
        get { visuals.onNotice }
        set { visuals.onNotice = newValue }
    }

    /// How long a failed drop's image takes to scale up and fade out when its source is not
    /// visible (F7). Default: 0.35 s.
    public var evaporateDuration: Duration {
        get { .milliseconds(Int64(visuals.evaporateSeconds * 1000)) }
        set { visuals.evaporateSeconds = max(0.01, newValue.seconds) }
    }

    /// How long a notice stays on screen. Default: 4 s.
    public var noticeDuration: Duration {
        get { .milliseconds(Int64(visuals.noticeSeconds * 1000)) }
        set { visuals.noticeSeconds = max(0.1, newValue.seconds) }
    }

    /// Shows `message` at the bottom of `window` for ``noticeDuration`` and reports it to
    /// ``onNotice``.
    public func showNotice(_ message: String, in window: TargetID) {
        visuals.layers[window]?.showNotice(message, seconds: visuals.noticeSeconds)
        onNotice?(message)
    }

    /// Adds the feedback layer to a window added before its content was set; returns whether
    /// the window has one now. ``addWindow(_:id:name:undoShortcuts:)`` adds it when the window
    /// already has content.
    @discardableResult
    public func installFeedbackLayer(in window: TargetID) -> Bool {
        if visuals.layers[window] != nil { return true }
        guard let widget = widget(for: window), windowOrigins[window] != nil else { return false }
        installFeedbackLayer(on: widget, id: window)
        return visuals.layers[window] != nil
    }

    /// Reports the loading progress of a deferred drop (A4, A5): `fraction` in 0...1, or nil
    /// when the total is unknown. The destination's placeholders follow it.
    public func updateDeferredDrop(_ token: DropToken, progress fraction: Double?) {
        drive { engine.updateDeferredDrop(token, progress: fraction) }
    }

    /// Ends a deferred drop: committed content replaces the placeholders (and a move now takes
    /// the items out of their source, S4); a failure removes them and shows why (A6).
    public func completeDeferredDrop(_ token: DropToken, with result: DropResult) {
        drive { engine.completeDeferredDrop(token, with: result) }
    }

    // MARK: Hooks from the host

    func installFeedbackLayer(on window: UnsafeMutablePointer<GtkWidget>, id: TargetID) {
        guard visuals.layers[id] == nil, let layer = FeedbackLayer(wrapping: window) else { return }
        visuals.layers[id] = layer
    }

    /// At drag start: the image to evaporate if the drop fails far from its source.
    func rememberDragImage(_ icon: DragIconView, grab: (x: Double, y: Double)) {
        visuals.lastImage = (
            icon.snapshot, Double(icon.cardSize.width), Double(icon.cardSize.height), grab.x, grab.y
        )
        visuals.lastPointer = nil
    }

    /// The pointer, when it rests on a destination that refuses the drop (GTK treats that as no
    /// target at all).
    var forbiddenDropPoint: Point? {
        guard let session = engine.currentSession, case .forbidden = session.operation else { return nil }
        return session.pointer
    }

    /// During the drag: where GTK last saw the pointer.
    func recordPointer(window: TargetID, x: Double, y: Double) { visuals.lastPointer = (window, x, y) }

    /// The engine events drawn by the feedback layer, placeholders and flocks.
    func renderVisuals(_ event: FeedbackEvent) {
        switch event {
        case .itemsAdded(let ids):
            gdkDrag?.icon.add(ids.compactMap { widget(for: $0) })
        case .placeholderInserted(let container, let token, let index, let count):
            visuals.placeholderOwners[token] = container
            placeholder(token, .inserted(index: index, count: count))
        case .placeholderProgress(let token, let fraction):
            placeholder(token, .progress(fraction))
        case .placeholderResolved(let token):
            placeholder(token, .resolved)
            visuals.placeholderOwners[token] = nil
        case .placeholderFailed(let token, let failure):
            let container = visuals.placeholderOwners[token]
            placeholder(token, .failed(failure))
            visuals.placeholderOwners[token] = nil
            if let window = container.flatMap({ registered[$0]?.window }) { showNotice(failure.message, in: window) }
        case .confirmationRequested(let destination, let message):
            askConfirmation(message, for: destination)
        case .outcome(let outcome):
            for layer in visuals.layers.values { layer.dismissConfirmation() }
            showFailure(of: outcome)
        default:
            break
        }
    }

    private func placeholder(_ token: DropToken, _ change: PlaceholderChange) {
        guard let container = visuals.placeholderOwners[token],
            let owner = delegate(of: container) as? any GtkPlaceholderDelegate
        else { return }
        owner.dragHost(self, placeholder: token, in: container, changed: change)
    }

    private func askConfirmation(_ message: String, for destination: TargetID) {
        guard let window = registered[destination]?.window, let layer = visuals.layers[window] else {
            // Nowhere to ask: the safe answer leaves everything as it was.
            diagnose("confirmation refused: no feedback layer in the window of \(destination)")
            GLibSource.idle { [weak self] in self?.drive { self?.engine.confirmDrop(false) } }
            return
        }
        let verb = engine.currentSession?.operation == .copy ? "Copy" : "Move"
        layer.askConfirmation(message, confirmTitle: verb) { [weak self] accepted in
            guard let self else { return }
            self.diagnose("confirmation \(accepted ? "accepted" : "declined")")
            self.drive { self.engine.confirmDrop(accepted) }
        }
        diagnose("confirmation shown: \(message)")
    }

    /// F7: evaporate far from the source (GTK flies the image back otherwise); F7, A6: say why a
    /// drop failed when the destination refused it or it broke (not when released over nothing
    /// or cancelled by the user: the image's return says enough).
    private func showFailure(of outcome: DropOutcome) {
        guard let failure = outcome.failure else { return }
        if case .evaporate = outcome, let pointer = visuals.lastPointer, let image = visuals.lastImage,
            let snapshot = image.snapshot, let layer = visuals.layers[pointer.window]
        {
            let frame = (pointer.x - image.grabX, pointer.y - image.grabY, image.width, image.height)
            layer.evaporate(snapshot.raw, frame: frame, seconds: visuals.evaporateSeconds)
            diagnose("evaporate at \(Int(frame.0)),\(Int(frame.1)) size \(Int(frame.2))x\(Int(frame.3))")
        }
        switch failure.code {
        case .forbidden, .failed:
            let window = visuals.lastPointer?.window ?? visuals.layers.keys.sorted().first
            if let window { showNotice(failure.message, in: window) }
        case .noDestination, .cancelled, .declined:
            break
        }
    }
}

/// Spring-loaded controls open through the delegate that owns them (SP1).
extension GtkDragHost {
    public func dragEngine(_ engine: DragEngine, activate target: TargetID, explicit: Bool) {
        diagnose("spring activate \(target) explicit=\(explicit)")
        (delegate(of: target) as? any GtkSpringLoadingDelegate)?.dragHost(self, activate: target, explicit: explicit)
    }
}
