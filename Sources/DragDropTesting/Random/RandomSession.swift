import DragDrop

/// One random drag session: a random scene and a script of input chosen while it plays, so each
/// step fits what is on screen (press on an item that is there, confirm when asked). The script
/// is recorded as a ``Scenario``: replaying it with ``RandomSessions/check(_:)`` does exactly
/// what the generation did.
///
/// The input covers every action of `docs/scenarios.md`: mouse, touch and pen presses, modifier
/// keys, every key, taps adding items, selections, keyboard pick-ups, confirmations, undo, redo,
/// cancelling after a drop or while loading, drags entering from another app and leaving, and
/// pauses that let spring loading, autoscroll and slow transfers run.
struct RandomSessionDriver {
    var random: SeededRandom
    let harness: DragHarness
    private(set) var events: [Scenario.Event] = []
    private var milliseconds = 0
    private var previous = MonotonicInstant.origin
    /// Whether the pointer button is held (a press not yet released).
    private var pressed = false
    private var externalCount = 0
    /// Whether the last event was an undo (a redo is likelier then).
    private var lastWasUndo = false
    private let settings: Scenario.Settings

    init(random: SeededRandom, harness: DragHarness, settings: Scenario.Settings) {
        self.random = random
        self.harness = harness
        self.settings = settings
    }

    // MARK: Recording

    /// Performs `step` `after` milliseconds and records it.
    mutating func perform(_ step: Scenario.Step, after: Int) {
        milliseconds += max(0, after)
        let event = Scenario.Event(
            time: MonotonicInstant(.seconds(Double(milliseconds) / 1000)), step: step,
            path: "events[\(events.count)]")
        events.append(event)
        do { try ScenarioPlayer.perform(event, previous: previous, on: harness) } catch {
            preconditionFailure("the random session made an event that cannot be replayed: \(error)")
        }
        previous = event.time
        switch step {
        case .input(.pointerDown): pressed = true
        case .input(.pointerUp), .releaseInPlace: pressed = false
        default: break
        }
        lastWasUndo = step == .input(.undo)
    }

    // MARK: What is on screen

    private var engine: DragEngine { harness.engine }
    private var scene: Scene { harness.scene }
    private var session: DragSessionSnapshot? { engine.currentSession }

    /// Items a person could point at: shown, with a frame inside the window.
    private func visibleItems(_ view: SceneView) -> [TargetID] {
        scene.allNodes.filter { $0.role == .item && !$0.offers.isEmpty && view.isShown($0.id) }.map(\.id)
            .filter { id in view.frame(id).map { $0.width > 0 && $0.height > 0 } ?? false }
    }

    private func center(_ r: Rect) -> Point {
        Point(x: (r.minX + r.width / 2).rounded(), y: (r.minY + r.height / 2).rounded())
    }

    private mutating func randomPoint(in r: Rect) -> Point {
        Point(
            x: Double(
                random.int(Int(r.minX.rounded(.up))...max(Int(r.minX.rounded(.up)), Int(r.maxX.rounded(.down)) - 1))),
            y: Double(
                random.int(Int(r.minY.rounded(.up))...max(Int(r.minY.rounded(.up)), Int(r.maxY.rounded(.down)) - 1))))
    }

    /// A point worth moving to: an item, a list, a list's edge (autoscroll), a control, a folder's
    /// cards, anywhere in the window, or outside it.
    private mutating func interestingPoint() -> Point {
        let view = SceneView(scene: scene, defaultApp: engine.app)
        let items = visibleItems(view)
        let lists = scene.allNodes.filter { ($0.role == .container || $0.role == .dropPoint) && view.isShown($0.id) }
        let controls = scene.allNodes.filter { $0.role == .control && view.isShown($0.id) }
        let kind = random.weighted([
            ("item", items.isEmpty ? 0 : 30), ("list", lists.isEmpty ? 0 : 22), ("edge", lists.isEmpty ? 0 : 8),
            ("control", controls.isEmpty ? 0 : 10), ("window", 8), ("outside", 3), ("between", items.isEmpty ? 0 : 6),
        ])
        switch kind {
        case "item":
            guard let f = view.frame(random.pick(items)) else { break }
            return random.chance(0.7) ? center(f) : randomPoint(in: f)
        case "between":
            guard let f = view.frame(random.pick(items)) else { break }
            return Point(x: center(f).x, y: f.minY.rounded())
        case "list":
            guard let f = view.frame(random.pick(lists).id) else { break }
            return randomPoint(in: f)
        case "edge":
            guard let f = view.frame(random.pick(lists).id) else { break }
            let y = random.chance(0.5) ? f.minY + Double(random.int(2...20)) : f.maxY - Double(random.int(2...20))
            return Point(x: center(f).x, y: y.rounded())
        case "control":
            guard let f = view.frame(random.pick(controls).id) else { break }
            return center(f)
        case "outside":
            return Point(x: Double(random.int(1010...1200)), y: Double(random.int(0...700)))
        default:
            break
        }
        return Point(x: Double(random.int(0...999)), y: Double(random.int(0...699)))
    }

    private func draggableIDs() -> [TargetID] {
        scene.allNodes.filter { $0.role == .item && !$0.offers.isEmpty && engine.registry.contains($0.id) }.map(\.id)
    }

    private var pendingTokens: [DropToken] { engine.pendingDeferredDrops }

    // MARK: Choosing the next step

    /// Plays one random step: one event or a short gesture (a press and its lift).
    mutating func step() {
        if let s = session {
            if s.awaitingConfirmation {
                confirmationStep()
            } else if s.mode == .keyboard {
                keyboardStep()
            } else {
                pointerDragStep(external: s.mode == .external)
            }
        } else if pressed {
            pressedStep()
        } else {
            idleStep()
        }
    }

    private mutating func gap() -> Int {
        random.weighted([(random.int(0...40), 3), (random.int(40...250), 5), (random.int(250...900), 2)])
    }

    private mutating func idleStep() {
        let choice = random.weighted([
            ("drag", 34), ("click", 4), ("select", 7), ("pickUp", 8), ("pickUpSelection", 3), ("undo", 9),
            ("redo", lastWasUndo ? 12 : 5),
            ("cancelAfterDrop", 3), ("cancelLoad", pendingTokens.isEmpty ? 0 : 4), ("external", 6), ("wait", 10),
            ("modifiers", 4), ("strayKey", 2), ("strayTap", 1), ("strayConfirm", 1),
        ])
        switch choice {
        case "drag": startPointerDrag()
        case "click":
            perform(.input(.pointerDown(interestingPoint(), kind: random.pick([.mouse, .touch, .pen]))), after: gap())
            perform(.releaseInPlace, after: random.int(20...200))
        case "select":
            let ids = draggableIDs()
            perform(
                .input(.select(random.chance(0.2) || ids.isEmpty ? [] : random.subset(ids, count: random.int(1...3)))),
                after: gap())
        case "pickUp":
            let ids = draggableIDs()
            guard !ids.isEmpty else { return perform(.wait, after: gap()) }
            perform(.input(.pickUp(random.subset(ids, count: random.int(1...2)))), after: gap())
        case "pickUpSelection":
            let live = Set(draggableIDs())
            guard !scene.selection.isEmpty, scene.selection.allSatisfy(live.contains) else {
                return perform(.wait, after: gap())
            }
            perform(.input(.key(.pickUp)), after: gap())
        case "undo": perform(.input(.undo), after: gap())
        case "redo": perform(.input(.redo), after: gap())
        case "cancelAfterDrop": perform(.input(.cancelAfterDrop), after: gap())
        case "cancelLoad": perform(.input(.cancelLoad(random.pick(pendingTokens))), after: gap())
        case "external": externalEnter()
        case "modifiers": perform(.input(.modifiers(randomModifiers())), after: gap())
        case "strayKey":
            perform(.input(.key(random.pick([.cancel, .activate, .drop, .nextDropPoint, .previousDropPoint]))), after: gap())
        case "strayTap": perform(.input(.tap(interestingPoint())), after: gap())
        case "strayConfirm": perform(.input(.confirm(random.chance(0.5))), after: gap())
        default: perform(.wait, after: random.int(100...1600))
        }
    }

    private mutating func randomModifiers() -> DragModifiers {
        random.weighted([([], 5), ([.forceCopy], 3), ([.forceMove], 2), ([.forceCopy, .forceMove], 1)])
    }

    /// A press on an item, and usually the gesture that lifts it (F1).
    private mutating func startPointerDrag() {
        let view = SceneView(scene: scene, defaultApp: engine.app)
        let items = visibleItems(view)
        let start: Point
        if let id = items.isEmpty ? nil : random.pick(items), let f = view.frame(id) {
            start = random.chance(0.8) ? center(f) : randomPoint(in: f)
        } else {
            start = interestingPoint()
        }
        let kind: PointerKind = random.weighted([(.mouse, 6), (.touch, 3), (.pen, 2)])
        perform(.input(.pointerDown(start, kind: kind)), after: gap())
        let dx = Double(random.pick([-1, 1]))
        switch kind {
        case .mouse, .pen:
            // Past the threshold (a drag), or a wobble under it (a click).
            let distance = random.chance(0.85) ? Double(random.int(4...12)) : 1
            perform(.move(to: Point(x: start.x + dx * distance, y: start.y), steps: 1), after: random.int(10...120))
            if distance < settings.liftThreshold { perform(.releaseInPlace, after: random.int(20...200)) }
        case .touch:
            if random.chance(0.85) {
                // Held past the press-and-hold, then moved.
                let hold = Int((settings.touchHold.seconds * 1000).rounded())
                perform(.wait, after: hold + random.int(1...150))
                perform(.move(to: Point(x: start.x + dx * 6, y: start.y + 2), steps: 1), after: random.int(10...80))
            } else {
                // Moved too far too soon: a scroll, not a drag.
                perform(.move(to: Point(x: start.x, y: start.y + 25), steps: 1), after: random.int(20...150))
                perform(.releaseInPlace, after: random.int(20...200))
            }
        }
    }

    private mutating func pressedStep() {
        let choice = random.weighted([("move", 5), ("up", 4), ("wait", 2)])
        switch choice {
        case "move": perform(.move(to: interestingPoint(), steps: random.int(1...3)), after: random.int(20...300))
        case "up": perform(.releaseInPlace, after: gap())
        default: perform(.wait, after: random.int(100...800))
        }
    }

    private mutating func externalEnter() {
        let count = random.int(1...2)
        var items: [DragItem] = []
        for _ in 0..<count {
            externalCount += 1
            let photo = random.chance(0.3)
            items.append(
                DragItem(
                    id: TargetID("x\(externalCount)"),
                    name: photo ? "Picture \(externalCount)" : "Snippet \(externalCount)",
                    kind: photo ? RandomScene.photo : .item, types: photo ? [.png] : [.plainText],
                    app: RandomScene.externalApp))
        }
        // What the other app allows (S2): both, or what a source offers while Shift is held.
        if random.chance(0.3) { perform(.input(.otherAppAllows(randomAllowed())), after: gap()) }
        perform(.input(.externalDragEnter(items, at: interestingPoint())), after: gap())
    }

    /// What a drag from another app allows: mostly both, sometimes only a move or only a copy,
    /// rarely neither.
    private mutating func randomAllowed() -> DropOperations {
        random.pick([.all, .all, .move, .move, .copy, []])
    }

    private mutating func pointerDragStep(external: Bool) {
        let choice = random.weighted([
            ("move", 40), ("hover", 12), ("up", 15), ("modifiers", 5), ("tap", external ? 1 : 6), ("activate", 3),
            ("escape", 4), ("undo", 3), ("redo", 1), ("exit", external ? 8 : 0), ("stray", 2),
            ("allows", external ? 4 : 0),
        ])
        switch choice {
        case "move": perform(.move(to: interestingPoint(), steps: random.int(1...6)), after: random.int(30...600))
        case "hover": perform(.wait, after: random.int(150...1300))
        case "up":
            // Released where the pointer is, or (the scenario's "up": [x, y]) somewhere else.
            perform(random.chance(0.8) ? .releaseInPlace : .input(.pointerUp(interestingPoint())), after: random.int(0...300))
        case "modifiers": perform(.input(.modifiers(randomModifiers())), after: random.int(0...300))
        case "tap": perform(.input(.tap(interestingPoint())), after: random.int(20...300))
        case "activate": perform(.input(.key(.activate)), after: random.int(20...300))
        case "escape": perform(.input(.key(.cancel)), after: random.int(20...300))
        case "undo": perform(.input(.undo), after: random.int(20...300))
        case "redo": perform(.input(.redo), after: random.int(20...300))
        case "exit": perform(.input(.externalDragExit), after: random.int(20...300))
        case "allows": perform(.input(.otherAppAllows(randomAllowed())), after: random.int(0...300))
        default:
            perform(
                random.pick([.input(.confirm(true)), .input(.cancelAfterDrop), .input(.key(.drop)), .input(.key(.nextDropPoint))]),
                after: random.int(20...300))
        }
    }

    private mutating func keyboardStep() {
        let choice = random.weighted([
            ("next", 30), ("previous", 10), ("drop", 15), ("cancel", 7), ("activate", 5), ("wait", 8), ("undo", 3),
            ("redo", 1), ("modifiers", 2), ("stray", 2),
        ])
        switch choice {
        case "next": perform(.input(.key(.nextDropPoint)), after: gap())
        case "previous": perform(.input(.key(.previousDropPoint)), after: gap())
        case "drop": perform(.input(.key(.drop)), after: gap())
        case "cancel": perform(.input(.key(.cancel)), after: gap())
        case "activate": perform(.input(.key(.activate)), after: gap())
        case "wait": perform(.wait, after: random.int(150...1300))
        case "undo": perform(.input(.undo), after: gap())
        case "redo": perform(.input(.redo), after: gap())
        case "modifiers": perform(.input(.modifiers(randomModifiers())), after: gap())
        default:
            perform(
                random.pick([.move(to: interestingPoint(), steps: 1), .input(.tap(interestingPoint())), .input(.confirm(false))]),
                after: gap())
        }
    }

    private mutating func confirmationStep() {
        let choice = random.weighted([
            ("yes", 30), ("no", 22), ("escape", 8), ("undo", 4), ("redo", 1), ("wait", 8), ("stray", 4),
        ])
        switch choice {
        case "yes": perform(.input(.confirm(true)), after: gap())
        case "no": perform(.input(.confirm(false)), after: gap())
        case "escape": perform(.input(.key(.cancel)), after: gap())
        case "undo": perform(.input(.undo), after: gap())
        case "redo": perform(.input(.redo), after: gap())
        case "wait": perform(.wait, after: random.int(100...1000))
        default:
            perform(
                random.pick([.move(to: interestingPoint(), steps: 1), .releaseInPlace, .input(.key(.drop)), .input(.cancelAfterDrop)]),
                after: gap())
        }
    }

    // MARK: Ending

    /// Ends whatever is open the way a person would (answers a confirmation, drops or cancels the
    /// drag, lifts the finger), so nothing is left pending but what the engine itself keeps.
    mutating func finish() {
        var rounds = 0
        while rounds < 8 {
            rounds += 1
            if let s = session {
                if s.awaitingConfirmation {
                    perform(.input(.confirm(random.chance(0.5))), after: gap())
                } else if s.mode == .external {
                    perform(random.chance(0.5) ? .input(.externalDragExit) : .releaseInPlace, after: gap())
                } else if s.mode == .keyboard {
                    perform(.input(.key(random.chance(0.5) ? .cancel : .drop)), after: gap())
                } else {
                    perform(random.chance(0.5) ? .input(.key(.cancel)) : .releaseInPlace, after: gap())
                }
            } else if pressed {
                perform(.releaseInPlace, after: gap())
            } else {
                return
            }
        }
    }
}
