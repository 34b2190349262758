/// Keyboard dragging (C4): the keys, the drop points and where the focus goes. The points and
/// the route between them are computed by `KeyboardNavigation` and `KeyboardRoute`.
extension DragEngine {
    // MARK: Keys

    /// A key for keyboard dragging or spring loading was pressed. Returns what it did: ignored,
    /// used, or used and the drag ended with an outcome (Return dropped, Escape cancelled).
    @discardableResult
    public func keyDown(_ key: DragKey) -> KeyResult {
        switch key {
        case .pickUp:
            return .ignored  // the platform calls beginKeyboardDrag(items:) with its selection
        case .cancel:
            guard session != nil else { return .ignored }
            return KeyResult(cancelDrag())
        case .activate:
            guard session != nil else { return .ignored }
            handleSpring(spring.activateNow(now: clock.now))
            return .handled
        case .nextDropPoint, .previousDropPoint:
            guard session?.keyboard != nil else { return .ignored }
            moveKeyboardFocus(forward: key == .nextDropPoint)
            return .handled
        case .drop:
            guard let s = session, s.mode == .keyboard, s.awaitingConfirmation == nil else { return .ignored }
            if let reveal = s.keyboard?.revealing {
                // Not on the point that was left, nor on one not there yet (C4).
                let name = delegate?.dragEngine(self, nameOfItem: reveal.item, in: reveal.container)
                announce(
                    name.map { Localization.format(.waitForPoint, ["name": .name($0)]) }
                        ?? Localization.format(.waitForNextPoint), force: true)
                return .handled
            }
            return KeyResult(returningOutcome { drop() })
        }
    }

    /// Recomputes a keyboard drag's drop points when targets changed (or always, with `force`:
    /// items joined, so the types changed) and applies them to the focus: a focused point that
    /// is gone (hidden, unregistered, no longer taking every item) loses the focus, its
    /// highlight and its proposal (C4, F4); one that stays is proposed again for the items. A
    /// model drop point being revealed that registered takes the focus (C4).
    func refreshKeyboardPoints(force: Bool = false) {
        guard var s = session, var nav = s.keyboard else { return }
        guard force || nav.membershipVersion != membershipVersion else { return }
        let current = nav.focus.map { nav.points[$0] }
        nav.points = keyboardPoints()
        nav.focus = current.flatMap { c in nav.points.firstIndex { $0.isSamePlace(as: c) } }
        nav.membershipVersion = membershipVersion
        s.keyboard = nav
        session = s
        if let reveal = nav.revealing, registry.target(reveal.item) != nil {
            if let index = nav.points.firstIndex(where: { $0.target == reveal.item }) {
                focusKeyboardPoint(at: index, force: force)
            } else {
                // It registered but does not take every item: on past it.
                moveKeyboardFocus(forward: reveal.forward)
            }
            return
        }
        if let focus = nav.focus {
            let point = nav.points[focus]
            retarget(
                to: point.isDestination ? point.target : nil,
                info: point.isDestination ? destinationInfo(point.target) : nil,
                force: force, spokenName: point.name)
        } else if current != nil {
            emit(.keyboardFocus(nil, index: nil))
            // Scrolled away while the next point comes on screen: said when it arrives.
            retarget(to: nil, info: nil, force: force, quiet: nav.revealing != nil)
            handleSpring(spring.hover(over: nil, configuration: .init(), now: clock.now))
        } else if force {
            retarget(to: s.destination, info: s.destinationInfo, force: true)
        }
    }

    /// The drop points of the keyboard drag, in reading order (C4), an outline's each gap and
    /// row among them (T5).
    func keyboardPoints() -> [KeyboardDropPoint] {
        guard let s = session else { return [] }
        return KeyboardNavigation.points(in: registry, masks: s.masks, excluding: sessionItemIDs()) { target in
            target.outline.flatMap { self.outlineKeyboardPoints(in: target.id, layout: $0) }
        }
    }

    /// Moves the keyboard focus to the next or previous drop point (C4), where
    /// ``KeyboardRoute`` says: a registered point, or a model point brought on screen that takes
    /// the focus once it registers.
    func moveKeyboardFocus(forward: Bool) {
        refreshKeyboardPoints()
        guard let nav = session?.keyboard else { return }
        // Further on from a point on its way to the screen, if any: it is no longer awaited.
        if nav.revealing != nil { session?.keyboard?.revealing = nil }
        var route = keyboardRoute(nav.points)
        switch route.next(from: nav.focus, revealing: nav.revealing, forward: forward) {
        case .focus(let index): focusKeyboardPoint(at: index)
        case .reveal(let step): take(step)
        case .none: announce(Localization.format(.noDropPoints), force: true)
        }
    }

    /// The route through `points` and the models of their containers (the delegate's).
    func keyboardRoute(_ points: [KeyboardDropPoint]) -> KeyboardRoute {
        let dragged = sessionItemIDs()
        return KeyboardRoute(
            points: points, parent: { [unowned self] in registry.ancestors(of: $0).first },
            modelPoint: { [unowned self] container, after, forward in
                delegate?.dragEngine(self, keyboardDropPointIn: container, after: after, forward: forward)
            },
            onItsWay: { [unowned self] in !dragged.contains($0) && registry.target($0) == nil })
    }

    /// Goes to a model drop point: the delegate brings it on screen (a registered row may lie
    /// outside the visible part of its list), and the focus lands on it once it is a drop point,
    /// now or when it registers.
    func take(_ step: KeyboardNavigation.Reveal) {
        if let nav = session?.keyboard, let focus = nav.focus, nav.points[focus].target != step.item {
            // The focus leaves the point now, while it is registered: its feedback goes off
            // before the view scrolls it away and recycles its widget (F4). Said nothing: the
            // next point is said when the focus lands.
            session?.keyboard?.focus = nil
            emit(.keyboardFocus(nil, index: nil))
            retarget(to: nil, info: nil, quiet: true)
            handleSpring(spring.hover(over: nil, configuration: .init(), now: clock.now))
        }
        session?.keyboard?.revealing = step
        delegate?.dragEngine(self, reveal: step.item, in: step.container)
        // Rows that registered or left while it scrolled: the focus may land now.
        refreshKeyboardPoints()
        guard let nav = session?.keyboard, nav.revealing == step,
            let index = nav.points.firstIndex(where: { $0.target == step.item })
        else { return }
        focusKeyboardPoint(at: index)
    }

    /// Puts the keyboard focus on drop point `index`: highlighted, proposed, spoken by name
    /// (C4: every step is spoken, even between two that take nothing), spring loading armed.
    func focusKeyboardPoint(at index: Int, force: Bool = false) {
        guard var nav = session?.keyboard, nav.points.indices.contains(index) else { return }
        nav.focus = index
        nav.revealing = nil
        session?.keyboard = nav
        let point = nav.points[index]
        emit(.keyboardFocus(point.target, index: index))
        let info = point.isDestination ? destinationInfo(point.target) : nil
        retarget(
            to: point.isDestination ? point.target : nil, info: info, force: force, spokenName: point.name,
            announceAlways: true)
        handleSpring(
            spring.hover(
                over: point.isSpringLoaded ? point.target : nil,
                configuration: registry.target(point.target)?.springLoading ?? .init(), now: clock.now))
    }
}
