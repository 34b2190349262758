import DragDrop

// Inputs: where the pointer is, which keys are held, and the checks that hold once an input and
// everything it caused have been handled.

extension TimelineAuditor {
    /// An input was recorded; the engine has not handled it yet (timers due before it have).
    func inputStarted(_ input: InputEvent) {
        currentInput = input
        checkTouchHoldLifted()
        switch input {
        case .pointerDown(let p, let kind):
            // With a drag in progress the button is already down: the engine ignores the press.
            guard drag == nil else { return }
            pointer = p
            missedLiftReported = false
            press = AuditPress(origin: p, kind: kind, time: now, source: draggableSource(at: p), duringDrag: false)
        case .pointerMove(let p):
            pointer = p
            if var pr = press, pr.kind == .touch, !pr.lifted, now < pr.time + liftConfiguration.touchHoldDuration {
                pr.farthestBeforeHoldEnd = max(pr.farthestBeforeHoldEnd, pr.origin.distance(to: p))
                press = pr
            }
            pointerReached(p)
        case .pointerUp(let p):
            pointer = p
            pointerReached(p)
        case .modifiers(let m):
            heldModifiers = m
            if var d = drag, d.dropped == nil {
                d.modifiers = m
                drag = d
            }
        case .externalDragEnter(let items, let p):
            pointer = p
            externalItems = items
        case .otherAppAllows(let allowed):
            if var d = drag {
                if d.mode == .external, d.dropped == nil {
                    d.sourceAllows = allowed
                    drag = d
                }
            } else {
                pendingOtherAppAllows = allowed
            }
        case .tap, .select, .pickUp, .confirm, .undo, .redo, .cancelAfterDrop, .cancelLoad, .key, .externalDragExit:
            break
        }
    }

    /// The draggable item a press at `p` lands on: the first node offering data on the way up
    /// from the topmost node under the pointer.
    func draggableSource(at p: Point) -> TargetID? {
        let v = view
        guard let top = v.topHit(at: p) else { return nil }
        return v.chain(from: top).first { v.node($0)?.offers.isEmpty == false }
    }

    /// The pointer moved to `p` during a drag, or the scene moved under it (autoscroll, a load
    /// arriving): source containers it is outside of have been left (F6).
    func pointerReached(_ p: Point) {
        guard var d = drag, d.followsPointer, d.dropped == nil, !d.sourcesNotLeft.isEmpty else { return }
        let v = view
        d.sourcesNotLeft.removeAll { !v.contains($0, p) }
        drag = d
    }

    /// F1, touch: a finger held on a draggable item for the hold duration without wandering
    /// beyond the slop must have lifted by now (timers due before this input have run).
    private func checkTouchHoldLifted() {
        guard let pr = press, pr.kind == .touch, !pr.lifted, !pr.duringDrag, !missedLiftReported, drag == nil,
            let source = pr.source
        else { return }
        let hold = liftConfiguration.touchHoldDuration
        guard now >= pr.time + hold, pr.farthestBeforeHoldEnd <= liftConfiguration.touchSlop,
            itemsAreDraggable(startingAt: source)
        else { return }
        missedLiftReported = true
        report(
            "F1",
            "a touch on draggable '\(source)' at \(pr.origin) has been held for \((now - pr.time).auditMilliseconds) (hold \(hold.auditMilliseconds)) within the \(liftConfiguration.touchSlop.compactText)-point slop, but nothing lifted"
        )
    }

    /// Whether a drag starting on `source` carries only items the scene can drag.
    private func itemsAreDraggable(startingAt source: TargetID) -> Bool {
        let v = view
        return itemsForDrag(startingAt: source).allSatisfy { v.node($0)?.offers.isEmpty == false }
    }

    /// An input and everything it caused have been handled.
    func inputFinished(_ input: InputEvent) {
        defer { currentInput = nil }
        switch input {
        case .pointerMove:
            checkMouseMovedLifted()
        case .pointerUp:
            press = nil
        case .externalDragExit:
            if let d = drag, d.mode == .external {
                checkFeedbackCleared(d, when: "the drag from another app left")
                endDrag(ending: "left without dropping")
            }
        case .key(.cancel):
            // Escape during a drag from another app ends it here as leaving does: no outcome (the
            // other app animates its own image), no feedback left.
            if let d = drag, d.mode == .external, d.dropped == nil {
                checkFeedbackCleared(d, when: "Escape ended the drag from another app")
                endDrag(ending: "ended by Escape")
            }
        default:
            break
        }
        guard let d = drag else { return }
        checkPreviewMatchesProposal(d)
        checkProposalStillRight(d)
        checkHighlights(d)
        switch input {
        case .pointerMove, .externalDragEnter, .tap: checkInnermost(d)
        default: break
        }
        checkSpringHover(d)
        checkAutoscrollFollowsPointer(d)
    }

    /// F1, mouse and pen: moving the pressed pointer at least the threshold away from a
    /// draggable item lifts it.
    private func checkMouseMovedLifted() {
        guard let pr = press, pr.kind != .touch, !pr.lifted, !pr.duringDrag, !missedLiftReported, drag == nil,
            let source = pr.source, let p = pointer
        else { return }
        let distance = pr.origin.distance(to: p)
        guard distance >= liftConfiguration.pointerThreshold, itemsAreDraggable(startingAt: source) else { return }
        missedLiftReported = true
        report(
            "F1",
            "the \(pr.kind.rawValue) pressed on draggable '\(source)' at \(pr.origin) moved \(distance.compactText) points to \(p) with the button held (threshold \(liftConfiguration.pointerThreshold.compactText)), but nothing lifted"
        )
    }

    /// S3: the drag image shows the badge of the latest proposal and the number of items.
    private func checkPreviewMatchesProposal(_ d: AuditDrag) {
        guard let preview = d.preview else { return }
        let badge = expectedBadge(d.proposal.operation)
        if preview.badge != badge {
            report(
                "S3",
                "after the input the drag image shows badge '\(preview.badge.rawValue)' but the proposal is \(d.proposal.operation.auditDescription) over \(d.proposal.destination.auditDescription), which needs '\(badge.rawValue)'"
            )
        }
        if preview.count != d.items.count {
            report(
                "S3",
                "after the input the drag image counts \(preview.count) item(s) but \(d.items.count) are dragged (\(quoted(d.items.map(\.id))))"
            )
        }
    }

    /// S2: the proposal still in force is still the right operation (modifiers, items joining).
    private func checkProposalStillRight(_ d: AuditDrag) {
        guard d.dropped == nil, let (expected, why) = expectedOperation(on: d.proposal.destination, for: d),
            expected != d.proposal.operation
        else { return }
        report(
            "S2",
            "after the input the proposal over \(d.proposal.destination.auditDescription) is still \(d.proposal.operation.auditDescription), but it should be \(expected.auditDescription): \(why)"
        )
    }

    /// F4: highlights stay only on the proposed destination, under the pointer, and disappear at
    /// the drop.
    private func checkHighlights(_ d: AuditDrag) {
        if d.dropped != nil {
            for h in d.highlighted { report("F4", "'\(h)' is still highlighted after the drop") }
            if let ins = d.insertion { report("F4", "'\(ins)' still shows an insertion indicator after the drop") }
            if let o = d.outline { report("F4", "'\(o)' still shows an outline drop point after the drop") }
            return
        }
        for h in d.highlighted {
            if !view.isShown(h) { report("F4", "'\(h)' is still highlighted but it is hidden") }
            if d.followsPointer, let p = pointer, !view.isUnder(h, p) {
                report(
                    "F4",
                    "'\(h)' is still highlighted but the pointer \(p) is outside its frame \(view.frame(h).map(\.description) ?? "(none)")"
                )
            }
            if d.proposal.destination != h || !isPerformable(d.proposal.operation) {
                report(
                    "F4",
                    "'\(h)' is highlighted but the proposal is \(d.proposal.operation.auditDescription) over \(d.proposal.destination.auditDescription)"
                )
            }
        }
    }

    /// F5: after a pointer input, the highlight and the proposal name the innermost accepting
    /// destination under the pointer (by the auditor's own scan of the scene).
    private func checkInnermost(_ d: AuditDrag) {
        guard d.followsPointer, d.dropped == nil, let p = pointer else { return }
        let expected = expectedDestination(at: p, for: d)
        let top = view.topHit(at: p)
        let under = "the topmost node under \(p) is \(top.auditDescription)"
        if let h = d.highlighted.last, h != expected {
            report(
                "F5",
                "'\(h)' is highlighted but the innermost destination accepting \(quoted(d.items.map(\.id))) is \(expected.auditDescription) (\(under))"
            )
        }
        if d.highlighted.isEmpty, let e = expected, let (op, _) = expectedOperation(on: e, for: d), isPerformable(op),
            !d.sourcesNotLeft.contains(e)
        {
            report(
                "F5",
                "nothing is highlighted but '\(e)' is the innermost destination accepting \(quoted(d.items.map(\.id))) under \(p) and would \(op.name) them"
            )
        }
        if d.proposal.destination != expected {
            report(
                "F5",
                "the proposal names \(d.proposal.destination.auditDescription) but the innermost destination accepting \(quoted(d.items.map(\.id))) is \(expected.auditDescription) (\(under))"
            )
        }
    }

    /// SP1: an armed control stays under the pointer until it activates or is disarmed, and it
    /// activates once its delay has passed.
    private func checkSpringHover(_ d: AuditDrag) {
        guard var s = spring, !s.activated else { return }
        if d.followsPointer, d.dropped == nil, let p = pointer, !view.isUnder(s.target, p), s.leftAt == nil {
            report(
                "SP1",
                "the pointer \(p) left '\(s.target)' (frame \(view.frame(s.target).map(\.description) ?? "(none)")) but it is still armed: it must be disarmed"
            )
            s.leftAt = now
            spring = s
        }
        if now > s.armedAt + s.delay, !s.overdueReported {
            report(
                "SP1",
                "'\(s.target)' was armed at \(s.armedAt.seconds)s with a \(s.delay.auditMilliseconds) delay and is still hovered at \(now.seconds)s, but it has not activated"
            )
            s.overdueReported = true
            spring = s
        }
    }

    /// A1: a container stops autoscrolling in the input that takes the pointer out of it.
    private func checkAutoscrollFollowsPointer(_ d: AuditDrag) {
        guard d.followsPointer, let p = pointer else { return }
        for c in scrolling.keys.sorted() {
            if view.contains(c, p) {
                scrollLeftReported.remove(c)
            } else if !scrollLeftReported.contains(c) {
                scrollLeftReported.insert(c)
                report(
                    "A1",
                    "the pointer \(p) left '\(c)' (frame \(view.frame(c).map(\.description) ?? "(none)")) but no autoscrollStopped('\(c)') came in the same input"
                )
            }
        }
    }

    /// At the end of a drag no highlight or insertion indicator is left on (F4), no control is
    /// left armed (SP1) and nothing keeps autoscrolling (A1).
    func checkFeedbackCleared(_ d: AuditDrag, when: String) {
        for h in d.highlighted { report("F4", "'\(h)' is still highlighted after \(when)") }
        if let ins = d.insertion { report("F4", "'\(ins)' still shows an insertion indicator after \(when)") }
        if let o = d.outline { report("F4", "'\(o)' still shows an outline drop point after \(when)") }
        if let s = spring, !s.activated { report("SP1", "'\(s.target)' is still armed after \(when)") }
        for c in scrolling.keys.sorted() { report("A1", "'\(c)' is still autoscrolling after \(when)") }
    }

    /// Forgets the drag and its transient state.
    func endDrag(ending: String) {
        drag = nil
        spring = nil
        disarmedSprings = []
        scrolling = [:]
        scrollLeftReported = []
        lastEnding = ending
    }
}

extension Double {
    /// Whole numbers without ".0", others with up to 3 decimals, for messages.
    var compactText: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int64(self)) }
        return String((self * 1000).rounded() / 1000)
    }
}
