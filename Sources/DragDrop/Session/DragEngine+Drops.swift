/// The drop: performing it, committing it with its undo step, and drops whose data loads later
/// (placeholders, A4).
extension DragEngine {
    func drop() {
        let items = sessionItems()
        guard let s = session else { return }
        let index = s.insertion?.index
        let outline = s.outline.flatMap { $0.container == s.destination ? $0.shown : nil }
        emit(.dropped(destination: s.destination, operation: s.operation, index: index))
        clearTransientFeedback()
        guard let destination = s.destination, s.operation.isPerformable else {
            let failure: DropFailure
            if case .forbidden(let reason) = s.operation {
                failure = DropFailure(.forbidden, reason)
            } else {
                failure = DropFailure(
                    .noDestination,
                    formatted: Localization.format(.nothingTakes, ["items": .text(Announcements.describe(items))]))
            }
            finishFailed(failure)
            return
        }
        nextToken += 1
        var request = DropRequest(
            destination: destination, items: items, operation: s.operation, index: index, outline: outline,
            point: s.pointer,
            mode: s.mode, data: dataAccess(for: s, items: items, destination: destination),
            token: DropToken(rawValue: nextToken))
        if case .on(let row)? = outline { request.placeName = s.outline?.tree.name(of: row) }
        if let message = s.destinationInfo?.confirmation {
            session?.awaitingConfirmation = request
            emit(.confirmationRequested(destination, message: message))
            announce(Announcements.confirm(s.destinationInfo?.name ?? destination.rawValue, message), force: true)
            return
        }
        perform(request)
    }

    func perform(_ request: DropRequest) {
        guard let delegate else {
            request.data.finish()
            finishFailed(DropFailure(.failed, formatted: Localization.format(.noApp)))
            return
        }
        request.data.open()
        switch delegate.dragEngine(self, perform: request) {
        case .failed(let failure):
            request.data.finish()
            finishFailed(failure)
        case .committed(let undo, let cancellation):
            commit(request, undo: undo, cancellation: cancellation)
            let items = request.items
            endSession()
            emit(.outcome(.completed(destination: request.destination, operation: request.operation)))
            // The session has ended: whether it was a keyboard drag (always announced, C4) comes
            // from the request.
            announce(
                Announcements.completed(items, request.operation, to: destinationName(of: request)),
                force: request.mode == .keyboard)
        case .deferred(let count):
            deferredDrops.add(request)
            emit(.placeholderInserted(request.destination, token: request.token, index: request.index, count: count))
            let mode = session?.mode
            endSession()
            emit(.outcome(.placeholder(destination: request.destination, token: request.token)))
            announce(
                Announcements.adding(request.items, to: destinationName(of: request)),
                force: mode == .keyboard)
        }
    }

    /// Registers a committed drop: the destination's undo, then (for a move) the source's
    /// removal, as one named undo step (U1, S4).
    /// `naming`: the items the step is named after, when not the request's (``completeDeferredDrop(_:with:arrived:)``).
    func commit(
        _ request: DropRequest, undo: UndoableAction?, cancellation: DropCancellation?, naming: [DragItem]? = nil
    ) {
        let name = Announcements.actionName(naming ?? request.items, request.operation)
        // The destination's document's history (a move from another document is undone there).
        let undoStack = undoStack(for: request.destination)
        undoStack.beginGroup(named: name)
        if let undo { undoStack.register(undo) }
        emit(
            .committed(
                destination: request.destination, items: request.items.map(\.id), operation: request.operation,
                index: request.index))
        var restoreSource: UndoableAction?
        if request.operation == .move {
            // Every item registered here (it has a source container) leaves it, whichever app
            // the platform lists it under: a move only happens inside one app (S2), and another
            // app's items registered here are that app's to remove, through the same delegate.
            let moved = request.items.filter { $0.sourceContainer != nil }
            if !moved.isEmpty {
                restoreSource = delegate?.dragEngine(self, removeMovedItems: moved, after: request)
                // Half an undo is worse than none: when the destination cannot take its side
                // back (an irreversible drop, U2, U3), putting the items back in the source
                // would leave them in both places.
                if undo != nil, let restoreSource { undoStack.register(restoreSource) }
                emit(.sourceRemoved(moved.map(\.id)))
            }
        }
        undoStack.setActionName(name)
        undoStack.endGroup()
        if let cancellation {
            offeredCancellation = (request.destination, cancellation, restoreSource)
            emit(.cancellationOffered(request.destination, title: cancellation.title))
        }
    }

    // MARK: Deferred drops (placeholders)

    /// Drops whose data is still loading.
    public var pendingDeferredDrops: [DropToken] { deferredDrops.tokens }

    /// Reports loading progress of a deferred drop (A4, A5): `fraction` in 0...1, or nil when
    /// the total is unknown. Emits only changes of at least one percent.
    public func updateDeferredDrop(_ token: DropToken, progress fraction: Double?) {
        guard case .progress(let told) = deferredDrops.progress(token, fraction) else { return }
        emit(.placeholderProgress(token, fraction: told))
    }

    /// Ends a deferred drop: `.committed` turns the placeholders into the content and, for a
    /// move, only now removes the items from their source (S4); `.failed` removes the
    /// placeholders, tells why, and leaves the source untouched (A6).
    ///
    /// `arrived` names what a committed drop became, when the destination learned it only from
    /// the data (the files another app's file list named, under the names they took here): the
    /// announcement says "Copied 'Trip plan.txt' to Documents." or "Copied 2 files to Pictures."
    /// rather than naming the drag ("Files from Thunar").
    public func completeDeferredDrop(_ token: DropToken, with result: DropResult, arrived: [String]? = nil) {
        guard let request = deferredDrops.take(token) else { return }
        switch result {
        case .committed(let undo, let cancellation):
            emit(.placeholderResolved(token))
            var named = request.items
            if let arrived, !arrived.isEmpty, let first = request.items.first {
                named = arrived.enumerated().map { index, name in
                    var item = first
                    item.id = TargetID("\(first.id.rawValue)#\(index)")
                    item.name = name
                    return item
                }
            }
            commit(request, undo: undo, cancellation: cancellation, naming: named)
            announce(
                Announcements.completed(named, request.operation, to: destinationName(of: request)),
                force: request.mode == .keyboard)
        case .failed(let failure):
            emit(.placeholderFailed(token, failure))
            announce(Announcements.failed(request.items, failure), force: true)
        case .deferred:
            preconditionFailure("completeDeferredDrop(\(token)) must commit or fail, not defer again")
        }
        request.data.finish()
    }

    /// Stops a deferred drop still loading (the person cancelled it on its placeholder, A4, A6):
    /// the delegate is told to stop loading and take the placeholders away
    /// (``DragEngineDelegate/dragEngine(_:cancelDeferredDrop:)``), the drop ends with
    /// ``FeedbackEvent/placeholderFailed(_:_:)`` with a ``DropFailure/Code/cancelled`` failure,
    /// which is announced, and its data can no longer be read. Nothing changes: a move's items stay
    /// in their source, and no undo step is registered. Returns false when `token` is not loading
    /// (it already arrived, failed or was cancelled).
    @discardableResult
    public func cancelDeferredDrop(_ token: DropToken) -> Bool {
        guard let request = deferredDrops.take(token) else { return false }
        request.data.finish()
        delegate?.dragEngine(self, cancelDeferredDrop: request)
        let failure = DropFailure(
            .cancelled,
            formatted: Localization.format(
                .addingCancelled,
                [
                    "items": .text(Announcements.describe(request.items)),
                    "destination": .name(destinationName(of: request)),
                ]))
        emit(.placeholderFailed(token, failure))
        announce(Announcements.loadCancelled(request.items, to: destinationName(of: request)), force: true)
        return true
    }

    /// The drop's data, closed until the drop is performed (P5).
    func dataAccess(for s: ActiveSession, items: [DragItem], destination: TargetID) -> DropDataAccess {
        let providers: [ItemProvider]
        if s.mode == .external, let external = externalProviders, external.count == items.count {
            providers = external
        } else {
            providers = items.map { item in
                delegate?.dragEngine(self, itemProviderFor: item.id) ?? ItemProvider(app: item.app, representations: [])
            }
        }
        return DropDataAccess(
            providers: providers, requester: registry.app(of: destination) ?? app, chooser: chooser, spool: spool)
    }
}
