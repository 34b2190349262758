/// What the drag image shows (F2, F3, M3, S3).
public struct PreviewState: Sendable, Hashable, Codable {
    /// How many items are being dragged.
    public var count: Int
    /// The badge matching the current proposal.
    public var badge: Badge

    /// Creates a preview state.
    public init(count: Int, badge: Badge) {
        self.count = count
        self.badge = badge
    }

    /// Several items stack (flock) under the pointer.
    public var isFlocked: Bool { count > 1 }
    /// Several items show their count.
    public var showsCount: Bool { count > 1 }
}

/// Why a drop did not happen or did not complete (F7, A6).
public struct DropFailure: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The broad cause.
    public enum Code: String, Sendable, Hashable, Codable {
        /// Released over nothing that accepts the content.
        case noDestination
        /// Released over a destination that refused the content.
        case forbidden
        /// The user cancelled the drag (Escape).
        case cancelled
        /// The user declined the confirmation of an irreversible drop (U2).
        case declined
        /// The destination failed to take the content (an interrupted transfer).
        case failed
    }

    /// The broad cause.
    public var code: Code
    /// A sentence a person can read, ending with exactly one full stop.
    public var message: String

    /// Creates a failure; `message` is made one sentence (``Sentence/finished(_:)``): it ends
    /// with exactly one full stop whatever it ended with. The message often quotes what another
    /// app sent (a path, a name): bidirectional controls are removed from it (``BidiControls``),
    /// so it reads as stored.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = Sentence.finished(BidiControls.neutralized(message))
    }

    /// A failure whose message the engine formatted (``Localization``): the names in it had
    /// their bidirectional controls removed already, and the isolates around them stay.
    init(_ code: Code, formatted message: String) {
        self.code = code
        self.message = Sentence.finished(message)
    }

    public var description: String { message }
}

/// How a drag ended, which decides the final animation (F7).
public enum DropOutcome: Sendable, Hashable, Codable {
    /// The destination committed the content.
    case completed(destination: TargetID, operation: DropOperation)
    /// The drop did not happen and the source is visible: the image flies back to it.
    case returnToSource(DropFailure)
    /// The drop did not happen and the source is not visible: the image scales up and fades out.
    case evaporate(DropFailure)
    /// The image landed in a placeholder while the data loads (A4); the drop commits or fails
    /// later (``FeedbackEvent/placeholderResolved(_:)``, ``FeedbackEvent/placeholderFailed(_:_:)``).
    case placeholder(destination: TargetID, token: DropToken)
    /// Another app took the content (the drop happened outside this app, S1). `operation` is
    /// what it did, read back from it: a copy (what other apps are offered unless the person
    /// holds the move modifier, S2), nothing leaving the source; or a move, the items that left
    /// reported by ``FeedbackEvent/sourceRemoved(_:)`` just before (S4). `app` names the other
    /// app when the platform can tell.
    case handedOff(app: AppID?, operation: DropOperation)

    /// The failure, for outcomes that are not ``completed(destination:operation:)``.
    public var failure: DropFailure? {
        switch self {
        case .completed, .placeholder, .handedOff: nil
        case .returnToSource(let f), .evaporate(let f): f
        }
    }

    /// Whether another app took the content with a move.
    public var isHandedOffMove: Bool {
        if case .handedOff(_, .move) = self { return true }
        return false
    }

    /// "completed", "returnToSource", "evaporate", "placeholder" or "handedOff".
    public var name: String {
        switch self {
        case .completed: "completed"
        case .returnToSource: "returnToSource"
        case .evaporate: "evaporate"
        case .placeholder: "placeholder"
        case .handedOff: "handedOff"
        }
    }
}

/// How a drag was started.
public enum DragMode: String, Sendable, Hashable, Codable {
    /// A mouse, pen or touch pointer.
    case pointer
    /// Keyboard-only dragging (C4).
    case keyboard
    /// A drag that entered from another app.
    case external
}

/// Everything a person would see or hear during a drag, in order. The engine sends these to its
/// delegate; a platform renders them, and `DragDropTesting` records them as a timeline.
public enum FeedbackEvent: Sendable, Hashable {
    /// The content lifted: the drag image appears under the pointer (F1, F2).
    case lifted(items: [TargetID], at: Point, mode: DragMode)
    /// Items joined the running drag (M2).
    case itemsAdded([TargetID])
    /// The drag image changed: count, flocking or badge (S3, M3).
    case preview(PreviewState)
    /// The proposal changed, over `destination` (nil over nothing).
    case proposal(destination: TargetID?, operation: DropOperation)
    /// A destination highlight turned on or off (F4, F5, F6).
    case highlight(TargetID, on: Bool)
    /// Where the drop would land in a list or grid; nil removes the indicator (F8).
    case insertion(TargetID, index: Int?)
    /// Where the drop would land in an outline (T1): the indicator between two rows at a
    /// depth, or the row it would go into; nil removes it.
    case outlineDrop(TargetID, OutlineDropPoint?)
    /// A spring-loaded control started its hover timer (SP1).
    case springArmed(TargetID)
    /// A spring-loaded control flashes: activation is imminent (SP1).
    case springFlash(TargetID)
    /// A spring-loaded control activated; `explicit` when Space forced it (SP3).
    case springActivated(TargetID, explicit: Bool)
    /// The pointer left a spring-loaded control before it activated.
    case springDisarmed(TargetID)
    /// A scroll container started autoscrolling (A1).
    case autoscrollStarted(TargetID)
    /// One autoscroll step, by the offset actually applied.
    case autoscrolled(TargetID, by: Vector)
    /// Autoscrolling stopped.
    case autoscrollStopped(TargetID)
    /// The drop waits for the user to confirm an irreversible drop (U2).
    case confirmationRequested(TargetID, message: String)
    /// The user released over `destination` (nil: over nothing).
    case dropped(destination: TargetID?, operation: DropOperation, index: Int?)
    /// The destination committed the items (S4).
    case committed(destination: TargetID, items: [TargetID], operation: DropOperation, index: Int?)
    /// Moved items were taken out of their source, after the commit (S4).
    case sourceRemoved([TargetID])
    /// The drag ended; decides the final animation (F7).
    case outcome(DropOutcome)
    /// Placeholders appear at the drop index while the data loads (A4).
    case placeholderInserted(TargetID, token: DropToken, index: Int?, count: Int)
    /// The loading progressed (fraction 0...1; nil when the total size is unknown) (A4, A5).
    case placeholderProgress(DropToken, fraction: Double?)
    /// The data arrived: the placeholders become the content.
    case placeholderResolved(DropToken)
    /// The data did not arrive: the placeholders go away and the reason is shown (A6).
    case placeholderFailed(DropToken, DropFailure)
    /// After the drop, a way to take it back is offered (U3), with its title ("Stop Sharing").
    case cancellationOffered(TargetID, title: String)
    /// The offered cancellation was used: the drop was reverted (U3).
    case cancellationUsed(TargetID)
    /// A sentence for assistive technology to speak (C4), formatted when its text is read.
    case announcement(Announcement)
    /// The keyboard focus moved to a drop point (C4).
    case keyboardFocus(TargetID?, index: Int?)
    /// An undo ran (U1).
    case undid(String)
    /// A redo ran (U1).
    case redid(String)
    /// A press and release without a drag on a target (SP2: spring-loaded controls stay clickable).
    case clicked(TargetID?)
}
