import DragDrop

// Deferred drops: the image lands in a placeholder, and the drop commits or fails later (A4, A6).
// The drag is parked by its token at the `placeholder` outcome; at `placeholderResolved` it is
// brought back so the commit and the source removal that follow are checked against that very
// drop (S4), then it completes like any drop (U1 records).

/// The state of drops whose data is still arriving.
struct AuditDeferred {
    /// Drags that ended in a placeholder, by token.
    var parked: [DropToken: AuditDrag] = [:]
    /// The last progress reported for each token.
    var progress: [DropToken: Double] = [:]
    /// The drag whose placeholder is resolving, and the drag it stands in for meanwhile.
    var resolving: (token: DropToken, suspended: AuditDrag?)?
}

extension TimelineAuditor {
    /// Events that belong to a resolving placeholder's commit; anything else finishes it.
    func isPartOfResolution(_ event: FeedbackEvent) -> Bool {
        switch event {
        case .committed, .sourceRemoved, .cancellationOffered, .announcement: true
        default: false
        }
    }

    /// A4: placeholders appear for a copy or move drop on the destination, one per item.
    func placeholderInserted(_ target: TargetID, token: DropToken, count: Int) {
        guard var d = drag, let dropped = d.dropped else {
            report("A4", "placeholders for \(token) appeared in '\(target)' with no drop in progress")
            return
        }
        if dropped.destination != target || !isPerformable(dropped.operation) {
            report(
                "A4",
                "placeholders for \(token) appeared in '\(target)' but the drop was \(dropped.operation.auditDescription) on \(dropped.destination.auditDescription)"
            )
        }
        if count != d.items.count {
            report("A4", "\(count) placeholder(s) appeared in '\(target)' for a drop of \(d.items.count) item(s)")
        }
        d.placeholderToken = token
        d.placeholderCount = count
        drag = d
    }

    /// The drag ended in a placeholder: park it until its data arrives.
    func endedInPlaceholder(_ d: AuditDrag, destination: TargetID, token: DropToken) {
        if d.placeholderToken != token {
            report("A4", "the drag ended in the placeholder \(token) on '\(destination)' but no placeholder was inserted for it")
        }
        if d.committed != nil { report("S4", "the drop on '\(destination)' was committed before its data arrived") }
        deferred.parked[token] = d
    }

    /// A5: progress only for a placeholder still loading, within 0...1, never going back.
    func placeholderProgressed(_ token: DropToken, _ fraction: Double?) {
        guard deferred.parked[token] != nil else {
            report("A4", "progress was reported for \(token), which is not loading")
            return
        }
        guard let fraction else { return }
        if !(0...1).contains(fraction) { report("A4", "\(token) reported progress \(fraction), outside 0...1") }
        if let last = deferred.progress[token], fraction < last {
            report("A4", "\(token) progress went back from \(last.compactText) to \(fraction.compactText)")
        }
        deferred.progress[token] = fraction
    }

    /// The data arrived: the commit that follows belongs to the parked drag.
    func placeholderResolved(_ token: DropToken) {
        guard let parked = deferred.parked.removeValue(forKey: token) else {
            report("A4", "\(token) resolved but no drop was waiting for its data")
            return
        }
        deferred.progress[token] = nil
        deferred.resolving = (token, drag)
        drag = parked
    }

    /// Completes a resolving placeholder once its commit events have passed.
    func finishResolution() {
        guard let resolving = deferred.resolving else { return }
        deferred.resolving = nil
        if let d = drag, let dropped = d.dropped, let destination = dropped.destination {
            completedDrop(d, on: destination, dropped.operation)
        }
        drag = resolving.suspended
        // The arrival is not the drag in progress's doing, nor the other loads'.
        dataChanged()
    }

    /// A6: the data did not arrive: nothing was committed and nothing changed.
    func placeholderFailed(_ token: DropToken, _ failure: DropFailure) {
        guard let d = deferred.parked.removeValue(forKey: token) else {
            report("A6", "\(token) failed but no drop was waiting for its data")
            return
        }
        deferred.progress[token] = nil
        if failure.message.allSatisfy(\.isWhitespace) {
            report("A6", "the transfer of \(token) failed with no message telling the user why")
        }
        let now = snapshot
        if now != d.snapshotBefore {
            report(
                "A6",
                "the transfer of \(token) \(failure.code == .cancelled ? "was cancelled" : "failed") but the scene changed: \(snapshotDifference(expected: d.snapshotBefore, actual: now))"
            )
        }
        dataChanged()
    }

    /// Something that is neither the drag in progress nor a parked drop changed the data (a load
    /// arrived or failed, undo, redo, a cancellation): their later checks compare with this.
    func dataChanged() {
        let now = snapshot
        if var d = drag {
            d.snapshotBefore = now
            drag = d
        }
        for token in deferred.parked.keys { deferred.parked[token]?.snapshotBefore = now }
    }

    /// U1, A4: undo and redo never touch a drop that has not arrived: every drop still loading
    /// shows all its placeholders afterwards (the scene names them `placeholder-N-i`).
    func checkLoadsUntouched(by command: String) {
        guard !deferred.parked.isEmpty, let scene = sceneForChecks else { return }
        var shown: [Int: Int] = [:]
        for n in scene.allNodes where n.role == .item && scene.isPlaceholder(n.id) {
            let parts = n.id.rawValue.split(separator: "-")
            if parts.count == 3, let token = Int(parts[1]) { shown[token, default: 0] += 1 }
        }
        for (token, d) in deferred.parked.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            guard scene.node(d.dropped?.destination ?? "") != nil else { continue }
            let n = shown[token.rawValue] ?? 0
            if n != d.placeholderCount {
                report(
                    "A4",
                    "the \(command) touched \(token), which is still loading: it shows \(n) placeholder(s), not \(d.placeholderCount); undo and redo never touch a drop that has not arrived"
                )
            }
        }
    }

    /// Placeholders still loading at the end of a run.
    func reportUnfinishedPlaceholders() {
        for token in deferred.parked.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            report("A4", "\(token) is still loading at the end of the run")
        }
    }
}
