import DragDrop

// Feedback: each event checked as it is emitted, against the auditor's record and the scene.

extension TimelineAuditor {
    /// Checks one feedback event and updates the record.
    func observeFeedback(_ event: FeedbackEvent) {
        switch event {
        case .lifted(let items, let at, let mode): lifted(items, at: at, mode: mode)
        case .itemsAdded(let ids): itemsAdded(ids)
        case .preview(let preview): previewChanged(preview)
        case .proposal(let destination, let operation): proposed(operation, over: destination)
        case .highlight(let target, let on): on ? highlightOn(target) : highlightOff(target)
        case .insertion(let target, let index): insertion(in: target, index: index)
        case .outlineDrop(let target, let point): outlineDrop(in: target, point)
        case .springArmed(let target): springArmed(target)
        case .springFlash(let target): springFlash(target)
        case .springActivated(let target, let explicit): springActivated(target, explicit: explicit)
        case .springDisarmed(let target): springDisarmed(target)
        case .autoscrollStarted(let target): autoscrollStarted(target)
        case .autoscrolled(let target, let delta): autoscrolled(target, by: delta)
        case .autoscrollStopped(let target):
            scrolling[target] = nil
            scrollLeftReported.remove(target)
        case .dropped(let destination, let operation, _): dropped(on: destination, operation)
        case .committed(let destination, let items, let operation, _): committed(items, on: destination, operation)
        case .sourceRemoved(let items): sourceRemoved(items)
        case .outcome(let outcome): ended(with: outcome)
        case .undid(let name): undid(name)
        case .redid(let name): redid(name)
        case .cancellationUsed:
            // The scene changed outside a drop: a failure later in a drag compares with this, and
            // the drops undo would revert can no longer be restored exactly.
            markRecordsStale()
            dataChanged()
        case .confirmationRequested:
            if var d = drag {
                d.irreversible = true
                drag = d
            }
        case .cancellationOffered:
            if var d = drag {
                d.irreversible = true
                drag = d
            }
        case .placeholderInserted(let target, let token, _, let count):
            placeholderInserted(target, token: token, count: count)
        case .placeholderProgress(let token, let fraction): placeholderProgressed(token, fraction)
        case .placeholderResolved(let token): placeholderResolved(token)
        case .placeholderFailed(let token, let failure): placeholderFailed(token, failure)
        case .announcement, .keyboardFocus, .clicked:
            break
        }
    }

    // MARK: Lift (F1)

    private func lifted(_ ids: [TargetID], at: Point, mode: DragMode) {
        if let d = drag {
            report(
                "F7",
                "a new drag of \(quoted(ids)) lifted while the drag of \(quoted(d.items.map(\.id))) never ended with an outcome"
            )
            endDrag(ending: "replaced by a new drag")
        }
        if mode == .pointer { checkLift(at: at) }
        let items = auditItems(ids, external: mode == .external)
        var d = AuditDrag(
            mode: mode, items: items, modifiers: mode == .keyboard ? [] : heldModifiers, snapshotBefore: snapshot)
        if mode == .external {
            d.sourceAllows = pendingOtherAppAllows
            pendingOtherAppAllows = .all
        }
        if mode == .pointer {
            var containers: [TargetID] = []
            for case let c? in items.map(\.sourceContainer) where !containers.contains(c) { containers.append(c) }
            let v = view
            d.sourcesNotLeft = containers.filter { v.contains($0, at) }
        }
        drag = d
        spring = nil
        disarmedSprings = []
    }

    /// F1: a pointer lift follows a press, by at least the threshold (mouse, pen) or after the
    /// hold within the slop (touch).
    private func checkLift(at: Point) {
        guard let pr = press, !pr.duringDrag else {
            report(
                "F1", "a pointer drag lifted at \(at) with no pointer pressed (no pointerDown since the last pointerUp)"
            )
            return
        }
        if pr.lifted {
            report("F1", "a second pointer drag lifted at \(at) from the press at \(pr.origin) without a new press")
            return
        }
        press?.lifted = true
        let c = liftConfiguration
        switch pr.kind {
        case .mouse, .pen:
            let position = pointer ?? at
            let distance = pr.origin.distance(to: position)
            if distance < c.pointerThreshold {
                report(
                    "F1",
                    "the \(pr.kind.rawValue) drag lifted with the pointer \(distance.compactText) points from the press at \(pr.origin) (at \(position)), below the \(c.pointerThreshold.compactText)-point threshold"
                )
            }
        case .touch:
            let held = now - pr.time
            if held < c.touchHoldDuration {
                report(
                    "F1",
                    "the touch drag lifted after a \(held.auditMilliseconds) hold at \(pr.origin), shorter than the \(c.touchHoldDuration.auditMilliseconds) press-and-hold"
                )
            }
            if pr.farthestBeforeHoldEnd > c.touchSlop {
                report(
                    "F1",
                    "the touch drag lifted although the finger moved \(pr.farthestBeforeHoldEnd.compactText) points from \(pr.origin) during the hold, beyond the \(c.touchSlop.compactText)-point slop (a scroll, not a drag)"
                )
            }
        }
    }

    private func itemsAdded(_ ids: [TargetID]) {
        guard var d = drag else { return }
        let added = auditItems(ids.filter { !d.itemIDs.contains($0) }, external: false)
        d.items += added
        if d.mode == .pointer, d.dropped == nil, let p = pointer {
            let v = view
            for case let c? in added.map(\.sourceContainer) where !d.sourcesNotLeft.contains(c) && v.contains(c, p) {
                d.sourcesNotLeft.append(c)
            }
        }
        drag = d
    }

    // MARK: Proposal and badge (S2, S3)

    private func previewChanged(_ preview: PreviewState) {
        guard var d = drag else {
            report(
                "S3",
                "a drag image (badge '\(preview.badge.rawValue)', \(preview.count) item(s)) was shown with no drag in progress"
            )
            return
        }
        let badge = expectedBadge(d.proposal.operation)
        if preview.badge != badge {
            report(
                "S3",
                "the drag image shows badge '\(preview.badge.rawValue)' but the proposal is \(d.proposal.operation.auditDescription) over \(d.proposal.destination.auditDescription), which needs '\(badge.rawValue)'"
            )
        }
        if preview.count != d.items.count {
            report(
                "S3",
                "the drag image counts \(preview.count) item(s) but \(d.items.count) are dragged (\(quoted(d.items.map(\.id))))"
            )
        }
        d.preview = preview
        drag = d
    }

    private func proposed(_ operation: DropOperation, over destination: TargetID?) {
        guard var d = drag else {
            report(
                "S2",
                "a proposal (\(operation.auditDescription) over \(destination.auditDescription)) came with no drag in progress"
            )
            return
        }
        if let (expected, why) = expectedOperation(on: destination, for: d), expected != operation {
            report(
                "S2",
                "proposed \(operation.auditDescription) over \(destination.auditDescription) for \(quoted(d.items.map(\.id))), but it should be \(expected.auditDescription): \(why)"
            )
        }
        d.proposal = (destination, operation)
        drag = d
    }

    // MARK: Highlight and insertion (F4, F5, F6)

    private func highlightOn(_ t: TargetID) {
        guard var d = drag else {
            report("F4", "'\(t)' was highlighted with no drag in progress")
            return
        }
        if let other = d.highlighted.first(where: { $0 != t }) {
            report("F5", "'\(t)' was highlighted while '\(other)' is still highlighted: two destinations at once")
        }
        checkCanShowFeedback(on: t, d, what: "highlighted")
        if d.sourcesNotLeft.contains(t) {
            report(
                "F6",
                "'\(t)' was highlighted but it is the source container of \(quoted(d.items.filter { $0.sourceContainer == t }.map(\.id))) and the pointer (now \(pointer.map(\.description) ?? "?")) has not left its frame \(view.frame(t).map(\.description) ?? "(none)") since the lift"
            )
        }
        if !d.highlighted.contains(t) { d.highlighted.append(t) }
        drag = d
    }

    private func highlightOff(_ t: TargetID) {
        guard var d = drag, let i = d.highlighted.firstIndex(of: t) else {
            report("F4", "the highlight on '\(t)' was turned off but it was not on")
            return
        }
        d.highlighted.remove(at: i)
        drag = d
    }

    private func insertion(in t: TargetID, index: Int?) {
        if let d = indicator(\.insertion, in: t, shown: index != nil, what: "an insertion indicator") { drag = d }
    }

    /// T1, T3: an outline's drop point shows only where the drop would copy or move, one outline
    /// at a time, and never offers a dragged item as the place to put the items into.
    private func outlineDrop(in t: TargetID, _ point: OutlineDropPoint?) {
        guard let d = indicator(\.outline, in: t, shown: point != nil, what: "an outline drop point") else { return }
        if let parent = point?.parent, d.items.contains(where: { $0.id == parent }) {
            report(
                "T3", "'\(parent)', a dragged item, was offered in '\(t)' as the place to put the dragged items into")
        }
        drag = d
    }

    /// F4, F5: an indicator (`what`) shows in `t` (or goes, `shown` false) only during a drag,
    /// in one container at a time, where the drop would copy or move. Returns the drag's record
    /// with it noted in `slot`, or nil when no drag runs.
    private func indicator(
        _ slot: WritableKeyPath<AuditDrag, TargetID?>, in t: TargetID, shown: Bool, what: String
    ) -> AuditDrag? {
        guard var d = drag else {
            if shown { report("F4", "\(what) in '\(t)' was shown with no drag in progress") }
            return nil
        }
        guard shown else {
            if d[keyPath: slot] == t { d[keyPath: slot] = nil }
            return d
        }
        if let other = d[keyPath: slot], other != t {
            report("F5", "\(what) was shown in '\(t)' while '\(other)' still shows one")
        }
        checkCanShowFeedback(on: t, d, what: "shown \(what)")
        d[keyPath: slot] = t
        return d
    }

    /// F4: `t` can take every dragged item, the drop on it would copy or move, and the content is
    /// above it.
    private func checkCanShowFeedback(on t: TargetID, _ d: AuditDrag, what: String) {
        let v = view
        guard let node = v.node(t) else {
            report("F4", "'\(t)' was \(what) but it is not in the scene")
            return
        }
        if d.dropped != nil { report("F4", "'\(t)' was \(what) after the drop") }
        if let why = refusal(node, d.items) { report("F4", "'\(t)' was \(what) but \(why)") }
        if v.isDraggedOrInside(t, items: d.itemIDs) {
            report("F4", "'\(t)' was \(what) but it is dragged itself (or inside a dragged item)")
        }
        if !v.isShown(t) { report("F4", "'\(t)' was \(what) but it is hidden") }
        if let (op, why) = expectedOperation(on: t, for: d), !isPerformable(op) {
            report("F4", "'\(t)' was \(what) but a drop on it would be \(op.auditDescription): \(why)")
        }
        if d.followsPointer, let p = pointer, !v.isUnder(t, p) {
            report(
                "F4",
                "'\(t)' was \(what) but the pointer \(p) is outside its frame \(v.frame(t).map(\.description) ?? "(none)")"
            )
        }
    }

    // MARK: Spring loading (SP1)

    private func springArmed(_ t: TargetID) {
        let v = view
        let configuration = v.node(t)?.springLoading
        if configuration == nil { report("SP1", "'\(t)' was armed but it is not a spring-loaded control") }
        if let s = spring, s.target != t, !s.activated {
            report("SP1", "'\(t)' was armed while '\(s.target)' is still armed (no springDisarmed('\(s.target)'))")
        }
        if let d = drag {
            if d.followsPointer, let p = pointer, !v.isUnder(t, p) {
                report(
                    "SP1",
                    "'\(t)' was armed but the pointer \(p) is outside its frame \(v.frame(t).map(\.description) ?? "(none)")"
                )
            }
        } else {
            report("SP1", "'\(t)' was armed with no drag in progress")
        }
        spring = AuditSpring(target: t, armedAt: now, delay: max(.zero, (configuration ?? .init()).delay))
        disarmedSprings.remove(t)
    }

    private func springFlash(_ t: TargetID) {
        guard var s = spring, s.target == t, !s.activated else {
            report(
                "SP1", "'\(t)' flashed but it is not armed\(disarmedSprings.contains(t) ? " (it was disarmed)" : "")")
            return
        }
        s.flashed = true
        spring = s
    }

    private func springActivated(_ t: TargetID, explicit: Bool) {
        guard var s = spring, s.target == t else {
            if disarmedSprings.contains(t) {
                report("SP1", "'\(t)' activated after springDisarmed('\(t)') without being armed again")
            } else {
                report("SP1", "'\(t)' activated (explicit: \(explicit)) but it was not armed in this hover")
            }
            return
        }
        if s.activated {
            report("SP1", "'\(t)' activated a second time in one hover")
        } else if !explicit {
            if !s.flashed { report("SP1", "'\(t)' activated without flashing first") }
            let held = now - s.armedAt
            if held < s.delay {
                report(
                    "SP1",
                    "'\(t)' activated \(held.auditMilliseconds) after it was armed, before its \(s.delay.auditMilliseconds) delay"
                )
            }
            if let left = s.leftAt {
                report("SP1", "'\(t)' activated although the pointer left it at \(left.seconds)s without re-arming")
            } else if let d = drag, d.followsPointer, let p = pointer, !view.isUnder(t, p) {
                report(
                    "SP1",
                    "'\(t)' activated but the pointer \(p) is outside its frame \(view.frame(t).map(\.description) ?? "(none)")"
                )
            }
        }
        s.activated = true
        spring = s
    }

    private func springDisarmed(_ t: TargetID) {
        if let s = spring, s.target == t {
            if s.activated { report("SP1", "'\(t)' was disarmed after it had activated") }
            spring = nil
        } else {
            report("SP1", "'\(t)' was disarmed but it was not armed")
        }
        disarmedSprings.insert(t)
    }

    // MARK: Autoscroll (A1)

    /// The pointer's position relative to `c`'s edge zones, or a reason it cannot scroll `c`.
    private func scrollPosition(_ c: TargetID, _ what: String)
        -> (configuration: AutoscrollConfiguration, frame: Rect, depth: (dx: Int, fx: Double, dy: Int, fy: Double))?
    {
        let v = view
        guard let node = v.node(c), let configuration = node.autoscroll, let frame = v.frame(c) else {
            report("A1", "'\(c)' \(what) but it is not a scroll container with autoscroll")
            return nil
        }
        guard let d = drag else {
            report("A1", "'\(c)' \(what) with no drag in progress")
            return nil
        }
        guard d.followsPointer, let p = pointer else { return nil }
        guard let depth = edgeDepth(of: p, in: frame, configuration: configuration) else {
            report("A1", "'\(c)' \(what) while the pointer \(p) is outside its frame \(frame)")
            return nil
        }
        if let top = v.topHit(at: p), !v.chain(from: top).contains(c) {
            report("A1", "'\(c)' \(what) but the pointer \(p) is over '\(top)', which is not inside it")
        }
        return (configuration, frame, depth)
    }

    private func autoscrollStarted(_ c: TargetID) {
        scrolling[c] = AuditScroll(startedAt: now, lastStepAt: now)
        guard let (configuration, frame, depth) = scrollPosition(c, "started autoscrolling"), let p = pointer else {
            return
        }
        if depth.dx == 0 && depth.dy == 0 {
            report(
                "A1",
                "'\(c)' started autoscrolling but the pointer \(p) is in none of its \(configuration.edgeZone.compactText)-point edge zones (frame \(frame))"
            )
        }
    }

    private func autoscrolled(_ c: TargetID, by delta: Vector) {
        let track = scrolling[c]
        if track == nil { report("A1", "'\(c)' autoscrolled by \(delta) without autoscrollStarted('\(c)')") }
        scrolling[c]?.lastStepAt = now
        guard let (configuration, frame, depth) = scrollPosition(c, "autoscrolled by \(delta)"), let p = pointer else {
            return
        }
        let axes: [(name: String, component: Double, direction: Int, fraction: Double, start: String, end: String)] = [
            ("vertically", delta.dy, depth.dy, depth.fy, "top", "bottom"),
            ("horizontally", delta.dx, depth.dx, depth.fx, "left", "right"),
        ]
        for axis in axes where axis.component != 0 {
            if axis.direction == 0 {
                report(
                    "A1",
                    "'\(c)' scrolled \(axis.name) by \(axis.component.compactText) but the pointer \(p) is not in its \(axis.start) or \(axis.end) edge zone (\(configuration.edgeZone.compactText) points, frame \(frame))"
                )
                continue
            }
            let sign = axis.component < 0 ? -1 : 1
            if sign != axis.direction {
                let edge = axis.direction < 0 ? axis.start : axis.end
                report(
                    "A1",
                    "'\(c)' scrolled \(axis.name) by \(axis.component.compactText) but the pointer \(p) is in its \(edge) edge zone, which scrolls the other way"
                )
                continue
            }
            guard let track else { continue }
            let elapsed = now - track.lastStepAt
            let speed = configuration.speed(depthFraction: axis.fraction, timeInZone: now - track.startedAt)
            let limit = speed * elapsed.seconds
            if abs(axis.component) > limit * (1 + 1e-9) + 1e-9 {
                report(
                    "A1",
                    "'\(c)' scrolled \(axis.name) by \(axis.component.compactText) points in \(elapsed.auditMilliseconds), more than its speed allows there (\(speed.compactText) points/s, at most \(limit.compactText) points)"
                )
            }
        }
    }

    // MARK: Drop (F5, F7, S2, S4, U1)

    private func dropped(on destination: TargetID?, _ operation: DropOperation) {
        guard var d = drag else {
            report("F7", "a drop on \(destination.auditDescription) came with no drag in progress")
            return
        }
        if let (expected, why) = expectedOperation(on: destination, for: d), expected != operation {
            report(
                "S2",
                "dropped with \(operation.auditDescription) on \(destination.auditDescription), but it should be \(expected.auditDescription): \(why)"
            )
        }
        if d.followsPointer, let p = pointer {
            let expected = expectedDestination(at: p, for: d)
            if expected != destination {
                report(
                    "F5",
                    "dropped on \(destination.auditDescription) but the innermost destination accepting \(quoted(d.items.map(\.id))) under \(p) is \(expected.auditDescription)"
                )
            }
        }
        d.dropped = (destination, operation)
        d.snapshotBefore = snapshot
        drag = d
    }

    private func committed(_ ids: [TargetID], on destination: TargetID, _ operation: DropOperation) {
        guard var d = drag else {
            report(
                "S4",
                "'\(destination)' committed \(quoted(ids)) with no drag in progress\(lastEnding.map { " (the last drag \($0))" } ?? "")"
            )
            return
        }
        if !isPerformable(operation) {
            report("S4", "'\(destination)' committed a drop whose operation is \(operation.auditDescription)")
        }
        if let dropped = d.dropped {
            if !isPerformable(dropped.operation) {
                report(
                    "S4",
                    "'\(destination)' committed \(quoted(ids)) although the drop on \(dropped.destination.auditDescription) was \(dropped.operation.auditDescription)"
                )
            }
            if dropped.destination != destination || dropped.operation != operation {
                report(
                    "S4",
                    "committed \(operation.auditDescription) on '\(destination)' but the drop was \(dropped.operation.auditDescription) on \(dropped.destination.auditDescription)"
                )
            }
        } else {
            report("S4", "'\(destination)' committed \(quoted(ids)) before anything was dropped")
        }
        d.committed = (destination, ids, operation)
        drag = d
    }

    private func sourceRemoved(_ ids: [TargetID]) {
        guard var d = drag else {
            report(
                "S4",
                "\(quoted(ids)) were removed from their source with no drag in progress\(lastEnding.map { " (the last drag \($0))" } ?? "")"
            )
            return
        }
        guard let c = d.committed else {
            // Another app took them with a move: checked against the outcome that follows.
            if d.leftForOtherApp == nil, d.dropped == nil {
                d.leftForOtherApp = ids
                drag = d
                return
            }
            report("S4", "\(quoted(ids)) were removed from their source before the destination committed them")
            return
        }
        if c.operation != .move {
            report(
                "S4",
                "\(quoted(ids)) were removed from their source after a \(c.operation.auditDescription) commit on '\(c.destination)'"
            )
        }
        let extra = ids.filter { !c.items.contains($0) }
        if !extra.isEmpty {
            report("S4", "\(quoted(extra)) were removed from their source but '\(c.destination)' never committed them")
        }
        if d.sourceRemoved { report("S4", "the moved items were removed from their source twice") }
        d.sourceRemoved = true
        drag = d
    }

    private func ended(with outcome: DropOutcome) {
        guard let d = drag else {
            report("F7", "an outcome (\(outcome.name)) came with no drag in progress")
            return
        }
        checkFeedbackCleared(d, when: "the drag ended")
        if let left = d.leftForOtherApp, !outcome.isHandedOffMove {
            report("S4", "\(quoted(left)) were removed from their source before the destination committed them")
        }
        switch outcome {
        case .completed(let destination, let operation):
            completedDrop(d, on: destination, operation)
        case .returnToSource(let failure), .evaporate(let failure):
            failed(d, outcome, failure)
        case .placeholder(let destination, let token):
            endedInPlaceholder(d, destination: destination, token: token)
        case .handedOff(let app, let operation):
            handedOff(d, to: app, operation)
        }
        endDrag(ending: "ended with \(outcome.name)")
    }

    func completedDrop(_ d: AuditDrag, on destination: TargetID, _ operation: DropOperation) {
        guard let c = d.committed else {
            report("S4", "the drag completed on '\(destination)' but nothing was committed")
            return
        }
        if c.destination != destination || c.operation != operation {
            report(
                "S4",
                "the drag completed with \(operation.auditDescription) on '\(destination)' but \(c.operation.auditDescription) was committed on '\(c.destination)'"
            )
        }
        if operation == .move, !d.sourceRemoved {
            // Every item that has a source here leaves it, whichever app lists it (S4).
            let local = d.items.filter { $0.sourceContainer != nil && c.items.contains($0.id) }
            if !local.isEmpty {
                report(
                    "S4",
                    "the move of \(quoted(local.map(\.id))) to '\(destination)' completed but they were never removed from their source"
                )
            }
        }
        let after = snapshot
        if d.irreversible {
            // U2, U3: a drop that asked first or offers a way out cannot be undone: no undo step,
            // and what undo would revert before it can no longer be restored exactly.
            if after != d.snapshotBefore { markRecordsStale() }
        } else {
            undoRecords.append(
                AuditDropRecord(
                    destination: destination, operation: operation, itemCount: c.items.count, before: d.snapshotBefore,
                    after: after))
            redoRecords.removeAll()
        }
        // The parked drops compare with the data as this drop left it.
        for token in deferred.parked.keys { deferred.parked[token]?.snapshotBefore = after }
    }

    /// A change that is not an undo step happened: the recorded drops' data is no longer exact.
    func markRecordsStale() {
        for i in undoRecords.indices { undoRecords[i].stale = true }
        for i in redoRecords.indices { redoRecords[i].stale = true }
    }

    /// Another app took the drop: nothing here was committed (S4). A copy (S2) leaves the scene
    /// as it was when the drag started; a move took out of their source only dragged items, those
    /// `sourceRemoved` named just before, and nothing else, never while the person asked for a
    /// copy (S2).
    private func handedOff(_ d: AuditDrag, to app: AppID?, _ operation: DropOperation) {
        let other = app.map { "'\($0)'" } ?? "another app"
        if d.mode == .external {
            report("S2", "the drag from another app was handed off to \(other): only this app's drags can be")
        }
        if let c = d.committed {
            report("S4", "the drop was handed off to \(other) but '\(c.destination)' committed it here too")
        }
        var expected = d.snapshotBefore
        switch operation {
        case .move:
            guard let left = d.leftForOtherApp else {
                report("S4", "the drop was handed off to \(other) as a move, but nothing left its source")
                break
            }
            if d.modifiers.contains(.forceCopy) {
                report("S2", "the person asked for a copy, but \(other) took \(quoted(left)) with a move")
            }
            let strays = left.filter { !d.itemIDs.contains($0) }
            if !strays.isEmpty { report("S4", "\(quoted(strays)) left their source for \(other) but were not dragged") }
            let gone = Set(left)
            for key in expected.keys { expected[key]?.removeAll { gone.contains($0) } }
        case .copy:
            if d.sourceRemoved || d.leftForOtherApp != nil {
                report(
                    "S2",
                    "the drop was handed off to \(other), which copies, but the items were removed from their source")
            }
        default:
            report(
                "S2",
                "the drop was handed off to \(other) as \(operation.auditDescription): only a copy or a move can be")
        }
        if snapshot != expected {
            report(
                "S2",
                "the drop was handed off to \(other) (\(operation.auditDescription)), but the scene changed otherwise: \(snapshotDifference(expected: expected, actual: snapshot))"
            )
        }
    }

    private func failed(_ d: AuditDrag, _ outcome: DropOutcome, _ failure: DropFailure) {
        let v = view
        let first = d.items.first
        let container = first?.sourceContainer
        // The source is the item's container, or the item itself where its container takes no
        // drops (a sorted list); another app's items are not ours to fly back to.
        let shown = container.map(v.isShown) ?? (d.mode != .external && first.map { v.isShown($0.id) } == true)
        let expected = shown ? "returnToSource" : "evaporate"
        if outcome.name != expected {
            let why: String
            if let container {
                why =
                    "the source container '\(container)' of the first item '\(first?.id.rawValue ?? "")' is \(shown ? "shown" : "hidden")"
            } else {
                why =
                    "the first item '\(first?.id.rawValue ?? "")' has no source container and is \(shown ? "shown" : "not shown")"
            }
            report("F7", "the failed drag ended with \(outcome.name) but \(why): it must \(expected)")
        }
        if failure.message.allSatisfy(\.isWhitespace) {
            report("F7", "the failed drag (\(failure.code.rawValue)) ended with no message telling the user why")
        }
        if d.committed != nil { report("S4", "the drop was committed but the drag ended with \(outcome.name)") }
        let after = snapshot
        if after != d.snapshotBefore {
            report(
                "S4",
                "the drag failed (\(failure.code.rawValue)) but the scene changed: \(snapshotDifference(expected: d.snapshotBefore, actual: after))"
            )
        }
    }

    // MARK: Undo (U1)

    private func undid(_ name: String) {
        defer { dataChanged() }
        checkNotDuringDrag("undo", name)
        checkLoadsUntouched(by: "undo of '\(name)'")
        guard let record = undoRecords.popLast() else {
            report("U1", "undid '\(name)' but no completed drop is left to undo")
            return
        }
        checkName(name, of: record, "undo")
        let now = snapshot
        if !record.stale, now != record.before {
            report(
                "U1",
                "undo of '\(name)' did not restore the scene as it was before the drop on '\(record.destination)': \(snapshotDifference(expected: record.before, actual: now))"
            )
        }
        redoRecords.append(record)
    }

    private func redid(_ name: String) {
        defer { dataChanged() }
        checkNotDuringDrag("redo", name)
        checkLoadsUntouched(by: "redo of '\(name)'")
        guard let record = redoRecords.popLast() else {
            report("U1", "redid '\(name)' but no undone drop is left to redo")
            return
        }
        checkName(name, of: record, "redo")
        let now = snapshot
        if !record.stale, now != record.after {
            report(
                "U1",
                "redo of '\(name)' did not restore the scene as it was after the drop on '\(record.destination)': \(snapshotDifference(expected: record.after, actual: now))"
            )
        }
        undoRecords.append(record)
    }

    /// U1: undo and redo wait for the drag to end (they could take away what is dragged).
    private func checkNotDuringDrag(_ command: String, _ name: String) {
        guard let d = drag else { return }
        report(
            "U1",
            "\(command) of '\(name)' ran during the \(d.mode.rawValue) drag of \(quoted(d.items.map(\.id))): undo and redo wait for the drag to end"
        )
    }

    /// U1: a drop's undo step is named after what it did ("Move 3 Reminders").
    private func checkName(_ name: String, of record: AuditDropRecord, _ command: String) {
        let verb = record.operation == .move ? "Move" : "Copy"
        if name.allSatisfy(\.isWhitespace) {
            report(
                "U1",
                "the \(command) of the \(record.operation.name) to '\(record.destination)' has no name (expected '\(verb) …')"
            )
            return
        }
        if !name.hasPrefix(verb) {
            report(
                "U1",
                "the \(command) of the \(record.operation.name) to '\(record.destination)' is named '\(name)', not '\(verb) …'"
            )
        }
        if record.itemCount > 1, !name.contains(String(record.itemCount)) {
            report(
                "U1",
                "the \(command) of \(record.itemCount) items to '\(record.destination)' is named '\(name)', without the count"
            )
        }
    }
}
