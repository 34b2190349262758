import DragDrop

// The auditor's own record of what is going on, rebuilt from inputs, feedback and the scene
// only. Nothing here is read from the engine's session.

/// One dragged item as the auditor sees it: its types, where it came from and its app, read from
/// the scene when it joined the drag (or from the input, for another app's items).
struct AuditItem {
    var id: TargetID
    var types: [ContentType]
    var sourceContainer: TargetID?
    var app: AppID
}

/// A pointer press that has not been released yet (F1).
struct AuditPress {
    var origin: Point
    var kind: PointerKind
    var time: MonotonicInstant
    /// The draggable item under the press, found by the auditor's own hit test.
    var source: TargetID?
    /// Farthest the pointer got from `origin` before the touch hold ended.
    var farthestBeforeHoldEnd: Double = 0
    /// Whether this press lifted into a drag.
    var lifted = false
    /// Whether a drag was already in progress when it was pressed (the engine ignores it).
    var duringDrag: Bool
}

/// The drag in progress.
struct AuditDrag {
    var mode: DragMode
    var items: [AuditItem]
    /// Modifiers the session uses (S2).
    var modifiers: DragModifiers
    /// What a drag from another app allows (S2); this app's drags allow both.
    var sourceAllows: DropOperations = .all
    /// The latest `proposal` (starts as nothing: cancel).
    var proposal: (destination: TargetID?, operation: DropOperation) = (nil, .cancel)
    /// The latest `preview`.
    var preview: PreviewState?
    /// Highlighted targets, in the order they were turned on.
    var highlighted: [TargetID] = []
    /// The container showing an insertion indicator.
    var insertion: TargetID?
    /// The outline showing a drop point (T1).
    var outline: TargetID?
    /// Source containers the pointer has not left completely since the lift (F6).
    var sourcesNotLeft: [TargetID] = []
    /// The `dropped` event, once released.
    var dropped: (destination: TargetID?, operation: DropOperation)?
    /// The `committed` event.
    var committed: (destination: TargetID, items: [TargetID], operation: DropOperation)?
    /// Whether `sourceRemoved` was seen.
    var sourceRemoved = false
    /// Items removed from their source with nothing committed here: another app took them with
    /// a move, which the outcome that follows must say (``DropOutcome/handedOff(app:operation:)``).
    var leftForOtherApp: [TargetID]?
    /// The placeholder the drop landed in, for a deferred drop (A4).
    var placeholderToken: DropToken?
    /// How many placeholders it showed.
    var placeholderCount = 0
    /// The scene data when the drag started, or at the drop (for S4 and U1), brought up to date
    /// whenever something else changes the data meanwhile (a load arriving or failing, undo,
    /// redo, a cancellation), so only this drag's own changes are compared.
    var snapshotBefore: [TargetID: [TargetID]]
    /// Whether the drop asked for confirmation (U2) or offered a way out afterwards (U3): then
    /// it cannot be undone and makes no undo step.
    var irreversible = false

    var itemIDs: Set<TargetID> { Set(items.map(\.id)) }
    /// Pointer and external drags follow the pointer; keyboard drags do not.
    var followsPointer: Bool { mode != .keyboard }
}

/// The spring-loaded control currently hovered (SP1).
struct AuditSpring {
    var target: TargetID
    var armedAt: MonotonicInstant
    var delay: Duration
    var flashed = false
    var activated = false
    /// When an input left the pointer outside the control while it was armed (reported once).
    var leftAt: MonotonicInstant?
    /// Whether a missed activation was reported.
    var overdueReported = false
}

/// A container autoscrolling (A1).
struct AuditScroll {
    var startedAt: MonotonicInstant
    var lastStepAt: MonotonicInstant
}

/// A completed drop, as the undo stack should hold it (U1).
struct AuditDropRecord {
    var destination: TargetID
    var operation: DropOperation
    var itemCount: Int
    var before: [TargetID: [TargetID]]
    var after: [TargetID: [TargetID]]
    /// Whether a change that is not an undo step (a drop that cannot be undone, a cancellation)
    /// happened since: the exact data before and after can no longer be predicted.
    var stale = false
}

extension DropOperation {
    /// "copy", "move", "forbidden('reason')", "cancel", for messages.
    var auditDescription: String {
        if case .forbidden(let reason) = self { return "forbidden('\(reason)')" }
        return name
    }
}

extension Optional where Wrapped == TargetID {
    /// "'id'" or "nothing", for messages.
    var auditDescription: String { map { "'\($0)'" } ?? "nothing" }
}

/// "'a', 'b'", for messages.
func quoted(_ ids: [TargetID]) -> String { ids.map { "'\($0)'" }.joined(separator: ", ") }

/// A short, stable description of how two snapshots differ.
func snapshotDifference(expected: [TargetID: [TargetID]], actual: [TargetID: [TargetID]]) -> String {
    let keys = Set(expected.keys).union(actual.keys).sorted()
    var parts: [String] = []
    for key in keys where expected[key] != actual[key] {
        let e = expected[key].map { "[" + $0.map(\.rawValue).joined(separator: ", ") + "]" } ?? "absent"
        let a = actual[key].map { "[" + $0.map(\.rawValue).joined(separator: ", ") + "]" } ?? "absent"
        parts.append("'\(key)' is \(a), expected \(e)")
    }
    return parts.joined(separator: "; ")
}

extension Duration {
    /// Milliseconds, compact, for messages.
    var auditMilliseconds: String {
        let ms = (seconds * 1e6).rounded() / 1e3
        return ms == ms.rounded() ? "\(Int(ms)) ms" : "\(ms) ms"
    }
}
