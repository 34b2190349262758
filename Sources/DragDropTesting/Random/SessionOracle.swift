import DragDrop

/// The invariants of a drag session, checked from the timeline and the scene's data alone,
/// independently of the engine's own bookkeeping (its undo stack, its session, its pending
/// drops). Used by the random tester beside ``TimelineAuditor``; attach it to a harness like any
/// ``TimelineObserver`` and call ``finish(harness:)`` at the end.
///
/// What it checks (the rules of `docs/scenarios.md`, "Undo, redo and loading drops"):
/// - **Conservation (S4, A6)**: every item of the starting scene is in exactly one place at every
///   input and at the end; copies only add items with new ids; nothing else appears.
/// - **Only drops, undo, redo and cancellations change data**: a failed, cancelled, declined or
///   refused drop, a failed or cancelled load, a spring-loaded control or a scroll changes no
///   container.
/// - **Undo and redo (U1)**: the oracle keeps its own history of undoable steps (one per
///   committed drop that can be undone, pushed when its data arrives). Undo names the step on
///   top ("Move 2 Cards") and restores every container it changed to exactly what it held
///   before, leaving every other container alone; redo restores what it held after. Undo and
///   redo do nothing during a drag; with nothing to undo they do nothing.
/// - **Loading drops (A4, A6)**: a drop still loading is not in the history, and undo and redo
///   never touch its placeholders; each loading drop shows exactly its placeholders, in its
///   destination; no placeholder outlives its load.
/// - **The registry matches the scene**: after every input, the engine has exactly the scene's
///   nodes registered, with their laid-out frames, parents and visibility.
///
/// Placeholders are left out of the data compared for undo and redo: they belong to loads, not
/// to steps.
public final class SessionOracle: TimelineObserver {
    /// What went wrong, in order; the rule is a rule ID or `registry` / `pending`.
    public private(set) var failures: [Violation] = []

    /// One undoable step, as the oracle recorded it.
    private struct Step {
        var name: String
        var before: [TargetID: [TargetID]]
        var after: [TargetID: [TargetID]]
        /// Containers the step changed.
        var touched: Set<TargetID>
        /// The items it moved or added.
        var items: Set<TargetID>
        /// Containers changed since the step by something that is not a step (a drop that cannot
        /// be undone, a cancellation): their exact contents can no longer be predicted, by undo
        /// or by redo.
        var foreign: Set<TargetID> = []
    }

    /// A commit in progress: from `committed` to the end of its chain of events.
    private struct OpenCommit {
        var destination: TargetID
        var items: [TargetID]
        var operation: DropOperation
        var before: [TargetID: [TargetID]]
        var name: String
        var reversible: Bool
        var token: DropToken?
    }

    /// A load in progress.
    private struct Load {
        var destination: TargetID
        var count: Int
        var kinds: [TargetID: Noun]
    }

    private let originals: Set<TargetID>
    private var settled: [TargetID: [TargetID]]
    private var undoSteps: [Step] = []
    private var redoSteps: [Step] = []
    private var open: OpenCommit?
    private var resolving: DropToken?
    private var loads: [DropToken: Load] = [:]
    /// Whether a drag is in progress (lifted, no outcome yet; undo and redo end none), and whether
    /// it came from another app (it may end with no outcome).
    private var dragging = false
    private var externalDrag = false
    /// The last commit that offered a way to take it back (U3).
    private var offer:
        (destination: TargetID, before: [TargetID: [TargetID]], touched: Set<TargetID>, changedSince: Set<TargetID>)?
    private var dragKinds: [TargetID: Noun] = [:]
    private var externalKinds: [TargetID: Noun] = [:]
    private var undidInInput: [String] = []
    private var redidInInput: [String] = []
    private var now: MonotonicInstant = .origin
    /// The scene's revision when the data and the registry were last checked.
    private var checkedRevision = -1
    private var registryRevision = -1
    /// Whether a load started or ended since the placeholders were last checked.
    private var loadsChanged = false

    /// Creates an oracle for a run starting on `scene`.
    public init(scene: Scene) {
        var ids = Set<TargetID>()
        for n in scene.allNodes where n.role == .item { ids.insert(n.id) }
        originals = ids
        settled = Self.filtered(scene.snapshot())
    }

    // MARK: Observing

    public func observe(_ entry: TimelineEntry, scene: Scene, engine: DragEngine) {
        now = entry.time
        switch entry.event {
        case .input(let input):
            closeCommit(scene)
            checkUnaccounted(scene, when: "before the input")
            if case .externalDragEnter(let items, _) = input {
                for item in items { externalKinds[item.id] = item.kind }
            }
            undidInInput = []
            redidInInput = []
        case .feedback(let event):
            feedback(event, scene: scene)
        }
    }

    private func feedback(_ event: FeedbackEvent, scene: Scene) {
        switch event {
        case .committed, .sourceRemoved, .cancellationOffered, .announcement:
            break
        default:
            closeCommit(scene)
        }
        switch event {
        case .lifted(let items, _, let mode):
            dragging = true
            externalDrag = mode == .external
            dragKinds = [:]
            for id in items { dragKinds[id] = kind(of: id, scene: scene, external: mode == .external) }
        case .itemsAdded(let items):
            for id in items { dragKinds[id] = kind(of: id, scene: scene, external: false) }
        case .outcome(let outcome):
            dragging = false
            if let failure = outcome.failure {
                checkUnchanged(scene, "the drag ended with \(outcome.name) (\(failure.code.rawValue))")
            }
        case .placeholderInserted(let target, let token, _, let count):
            loads[token] = Load(destination: target, count: count, kinds: dragKinds)
            loadsChanged = true
            checkUnchanged(scene, "placeholders for \(token) appeared")
        case .placeholderResolved(let token):
            resolving = token
            loadsChanged = true
        case .placeholderFailed(let token, let failure):
            loads[token] = nil
            loadsChanged = true
            checkUnchanged(scene, "the load of \(token) ended with \(failure.code.rawValue)")
        case .committed(let destination, let items, let operation, _):
            let kinds: [TargetID: Noun]
            if let token = resolving {
                kinds = loads.removeValue(forKey: token)?.kinds ?? dragKinds
            } else {
                kinds = dragKinds
            }
            let node = scene.node(destination)
            open = OpenCommit(
                destination: destination, items: items, operation: operation, before: settled,
                name: Self.stepName(items.map { kinds[$0] ?? .item }, operation),
                reversible: node?.confirmation == nil && node?.cancellationTitle == nil, token: resolving)
            resolving = nil
        case .undid(let name):
            undidInInput.append(name)
            undone(name, scene: scene)
        case .redid(let name):
            redidInInput.append(name)
            redone(name, scene: scene)
        case .cancellationUsed(let target):
            let after = Self.filtered(scene.snapshot())
            if let offer, offer.destination == target {
                // U3: what the drop changed is as it was before it, where nothing else changed it.
                for key in Set(after.keys).union(settled.keys).union(offer.before.keys).sorted() {
                    if offer.touched.contains(key) {
                        if !offer.changedSince.contains(key), after[key] != offer.before[key] {
                            report(
                                "U3",
                                "'\(target)' took its drop back but '\(key)' holds \(list(after[key])), not \(list(offer.before[key])) as before the drop"
                            )
                        }
                    } else if after[key] != settled[key] {
                        report(
                            "U3", "'\(target)' took its drop back but changed '\(key)', which the drop never touched")
                    }
                }
            }
            foreignChange(from: settled, to: after)
            settled = after
            checkedRevision = scene.revision
        default:
            checkUnaccounted(scene, when: "at \(Self.eventName(event))")
        }
    }

    public func inputHandled(_ input: InputEvent, at time: MonotonicInstant, scene: Scene, engine: DragEngine) {
        now = time
        closeCommit(scene)
        checkUnaccounted(scene, when: "after the input")
        switch input {
        case .externalDragExit, .key(.cancel):
            // A drag from another app that leaves (or is ended by Escape) has no outcome.
            if externalDrag, !engine.isDragging { dragging = false }
        default: break
        }
        switch input {
        case .undo:
            checkCommand("undo", ran: undidInInput, expected: undoSteps.last?.name, duringDrag: dragging)
        case .redo:
            checkCommand("redo", ran: redidInInput, expected: redoSteps.last?.name, duringDrag: dragging)
        default: break
        }
        if scene.revision != registryRevision {
            registryRevision = scene.revision
            checkItems(scene)
            checkRegistry(scene, engine)
            loadsChanged = true
        }
        if loadsChanged {
            loadsChanged = false
            checkPlaceholders(scene)
        }
    }

    /// End-of-run checks: the harness has nothing pending, and the data is consistent.
    public func finish(harness: DragHarness) {
        now = harness.clock.now
        closeCommit(harness.scene)
        checkUnaccounted(harness.scene, when: "at the end")
        checkItems(harness.scene)
        checkPlaceholders(harness.scene)
        checkRegistry(harness.scene, harness.engine)
        do { try harness.finish() } catch {
            for leftover in error.leftovers { report("pending", "left pending at the end: \(leftover)") }
        }
        for token in loads.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            report("A4", "\(token) never ended (no placeholderResolved or placeholderFailed)")
        }
    }

    // MARK: Commits and the history

    private func closeCommit(_ scene: Scene) {
        guard let c = open else { return }
        open = nil
        let after = Self.filtered(scene.snapshot())
        checkDropEffect(c, after: after)
        // The containers the drop changed, and those it worked on even where nothing shows
        // (an item moved to where it already was): its destination and its items' sources.
        var touched = Self.changedKeys(c.before, after)
        touched.insert(c.destination)
        if c.operation == .move {
            for (key, ids) in c.before where ids.contains(where: c.items.contains) { touched.insert(key) }
        }
        if c.reversible {
            let added = Set(after.values.joined()).subtracting(c.before.values.joined())
            undoSteps.append(
                Step(name: c.name, before: c.before, after: after, touched: touched, items: added.union(c.items)))
            redoSteps.removeAll()
            offer?.changedSince.formUnion(Self.affected(c.before, after))
        } else {
            foreignChange(from: c.before, to: after)
        }
        if scene.node(c.destination)?.cancellationTitle != nil {
            offer = (c.destination, c.before, touched, [])
        }
        settled = after
        checkedRevision = scene.revision
    }

    /// S4: the destination gained the items (copies with new ids), a move took the originals out
    /// of every other container, and nothing else changed.
    private func checkDropEffect(_ c: OpenCommit, after: [TargetID: [TargetID]]) {
        let what = "the \(c.operation.name) of \(quoted(c.items)) to '\(c.destination)'"
        guard let list = after[c.destination] else {
            report("S4", "\(what) committed but '\(c.destination)' holds no items afterwards")
            return
        }
        let before = c.before[c.destination] ?? []
        let everywhereBefore = Set(c.before.values.joined())
        var arrived = list
        for id in before { if let i = arrived.firstIndex(of: id) { arrived.remove(at: i) } }
        if c.operation == .move {
            for id in c.items where !list.contains(id) && !arrived.contains(where: { Self.isCopy($0, of: id) }) {
                report("S4", "\(what) committed but '\(id)' is not in '\(c.destination)': \(describe(after))")
            }
        } else {
            let fresh = arrived.filter { !everywhereBefore.contains($0) }
            if fresh.count != c.items.count {
                report(
                    "S4",
                    "\(what) committed but '\(c.destination)' gained \(fresh.count) new item(s) (\(quoted(fresh))) for \(c.items.count): \(describe(after))"
                )
            }
            for id in c.items where everywhereBefore.contains(id) && !after.values.contains(where: { $0.contains(id) })
            {
                report("S4", "\(what) (a copy) took '\(id)' out of its place")
            }
        }
    }

    /// A change that is not an undo step: the containers it changed, and those of the items it
    /// moved, can no longer be predicted exactly by undo and redo.
    private func foreignChange(from a: [TargetID: [TargetID]], to b: [TargetID: [TargetID]]) {
        let keys = Self.affected(a, b)
        offer?.changedSince.formUnion(keys)
        guard !keys.isEmpty else { return }
        // Items it moved (or took away): a step that moved or added them can no longer put
        // them back where it found them, nor take them from where it left them.
        var hostBefore: [TargetID: TargetID] = [:]
        var hostAfter: [TargetID: TargetID] = [:]
        for (key, ids) in a { for id in ids { hostBefore[id] = key } }
        for (key, ids) in b { for id in ids { hostAfter[id] = key } }
        let moved = Set(Set(hostBefore.keys).union(hostAfter.keys).filter { hostBefore[$0] != hostAfter[$0] })
        func mark(_ step: inout Step) {
            step.foreign.formUnion(keys)
            if !step.items.isDisjoint(with: moved) { step.foreign.formUnion(step.touched) }
        }
        for i in undoSteps.indices { mark(&undoSteps[i]) }
        for i in redoSteps.indices { mark(&redoSteps[i]) }
    }

    private func undone(_ name: String, scene: Scene) {
        let now = Self.filtered(scene.snapshot())
        guard let step = undoSteps.popLast() else {
            report("U1", "undid '\(name)' but nothing can be undone (no completed drop that can be undone is left)")
            settled = now
            return
        }
        if name != step.name { report("U1", "undid '\(name)' but the last undoable step is '\(step.name)'") }
        checkRestored(now, to: step.before, step: step, command: "undo of '\(step.name)'", what: "before")
        offer?.changedSince.formUnion(Self.affected(settled, now))
        settled = now
        checkedRevision = scene.revision
        redoSteps.append(step)
    }

    private func redone(_ name: String, scene: Scene) {
        let now = Self.filtered(scene.snapshot())
        guard let step = redoSteps.popLast() else {
            report("U1", "redid '\(name)' but nothing can be redone")
            settled = now
            return
        }
        if name != step.name { report("U1", "redid '\(name)' but the last undone step is '\(step.name)'") }
        checkRestored(now, to: step.after, step: step, command: "redo of '\(step.name)'", what: "after")
        offer?.changedSince.formUnion(Self.affected(settled, now))
        settled = now
        checkedRevision = scene.revision
        undoSteps.append(step)
    }

    /// U1: the step's containers hold exactly what they held `what` the step (unless something
    /// that is not a step changed them since); every other container is as it was.
    private func checkRestored(
        _ now: [TargetID: [TargetID]], to expected: [TargetID: [TargetID]], step: Step, command: String, what: String
    ) {
        for key in Set(now.keys).union(settled.keys).union(expected.keys).sorted() {
            if step.touched.contains(key) {
                guard !step.foreign.contains(key) else { continue }
                if now[key] != expected[key] {
                    report(
                        "U1",
                        "the \(command) left '\(key)' holding \(list(now[key])), not \(list(expected[key])) as \(what) the step"
                    )
                }
            } else if now[key] != settled[key] {
                report(
                    "U1",
                    "the \(command) changed '\(key)' from \(list(settled[key])) to \(list(now[key])), which the step never touched"
                )
            }
        }
    }

    private func checkCommand(_ command: String, ran: [String], expected: String?, duringDrag: Bool) {
        if duringDrag {
            if !ran.isEmpty {
                report(
                    "U1",
                    "\(command) ran during a drag ('\(ran.joined(separator: "', '"))'): it must wait for the drag to end"
                )
            }
            return
        }
        if ran.count > 1 { report("U1", "one \(command) ran \(ran.count) steps") }
        if ran.isEmpty, let expected {
            report("U1", "\(command) did nothing but '\(expected)' can be \(command == "undo" ? "undone" : "redone")")
        }
    }

    // MARK: Invariants

    private func checkUnaccounted(_ scene: Scene, when: String) {
        guard open == nil, scene.revision != checkedRevision else { return }
        checkedRevision = scene.revision
        let now = Self.filtered(scene.snapshot())
        if now != settled {
            report(
                "S4", "the data changed with no drop, undo, redo or cancellation (\(when)): \(difference(settled, now))"
            )
            settled = now
        }
    }

    private func checkUnchanged(_ scene: Scene, _ what: String) {
        guard scene.revision != checkedRevision else { return }
        checkedRevision = scene.revision
        let now = Self.filtered(scene.snapshot())
        if now != settled {
            report("A6", "\(what) but the data changed: \(difference(settled, now))")
            settled = now
        }
    }

    /// Every starting item exactly once; copies at most once; placeholders only of loads.
    private func checkItems(_ scene: Scene) {
        var count: [TargetID: Int] = [:]
        for n in scene.allNodes where n.role == .item { count[n.id, default: 0] += 1 }
        for id in originals.sorted() where count[id] != 1 {
            let n = count[id] ?? 0
            report("S4", n == 0 ? "'\(id)' is lost: it is in no container" : "'\(id)' is in \(n) places at once")
        }
        for (id, n) in count.sorted(by: { $0.key < $1.key }) where !originals.contains(id) {
            if Self.isPlaceholder(id) { continue }
            if n > 1 { report("S4", "'\(id)' is in \(n) places at once") }
            if !id.rawValue.contains("-copy") {
                report("S4", "'\(id)' appeared from nowhere (neither a starting item nor a copy)")
            }
        }
    }

    /// Each loading drop shows exactly its placeholders in its destination; no others exist.
    private func checkPlaceholders(_ scene: Scene) {
        var found: [String: [TargetID]] = [:]  // "N" -> hosts, one per placeholder found
        for n in scene.allNodes {
            for child in n.children where Self.isPlaceholder(child.id) {
                let token = child.id.rawValue.split(separator: "-").dropFirst().first.map(String.init) ?? "?"
                found[token, default: []].append(n.id)
            }
        }
        for (token, load) in loads.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let hosts = found.removeValue(forKey: String(token.rawValue)) ?? []
            guard scene.node(load.destination) != nil else { continue }
            if hosts.count != load.count || hosts.contains(where: { $0 != load.destination }) {
                report(
                    "A4",
                    "\(token) is loading into '\(load.destination)' with \(load.count) placeholder(s), but the scene shows \(hosts.count) (in \(quoted(hosts)))"
                )
            }
        }
        for (token, hosts) in found.sorted(by: { $0.key < $1.key }) {
            report(
                "A4", "placeholder(s) of drop#\(token) are still in \(quoted(hosts)) but that drop is no longer loading"
            )
        }
    }

    /// After every input the engine's registry holds exactly the scene's nodes, with their
    /// laid-out frames, parents and visibility.
    private func checkRegistry(_ scene: Scene, _ engine: DragEngine) {
        let frames = scene.layoutFrames()
        var problems: [String] = []
        var parents: [TargetID: TargetID] = [:]
        func walk(_ n: SceneNode, _ parent: TargetID?) {
            if let parent { parents[n.id] = parent }
            n.children.forEach { walk($0, n.id) }
        }
        scene.roots.forEach { walk($0, nil) }
        let nodes = scene.allNodes
        for n in nodes {
            guard let t = engine.registry.target(n.id) else {
                problems.append("'\(n.id)' is not registered")
                continue
            }
            if t.parent != parents[n.id] {
                problems.append(
                    "'\(n.id)' is registered under \(t.parent.auditDescription), not \(parents[n.id].auditDescription)")
            }
            if t.isHidden != n.isHidden {
                problems.append("'\(n.id)' is registered \(t.isHidden ? "hidden" : "shown")")
            }
            if let f = frames[n.id], !Self.close(f, t.frame) {
                problems.append("'\(n.id)' is registered at \(t.frame), laid out at \(f)")
            }
        }
        if engine.registry.count != nodes.count {
            let known = Set(nodes.map(\.id))
            let extra = engine.registry.allTargets.map(\.id).filter { !known.contains($0) }
            problems.append(
                "\(engine.registry.count) targets are registered for \(nodes.count) nodes (extra: \(quoted(extra)))")
        }
        if let first = problems.first {
            report(
                "registry",
                "the registry does not match the scene: \(first)\(problems.count > 1 ? " (and \(problems.count - 1) more)" : "")"
            )
        }
    }

    // MARK: Helpers

    private func report(_ rule: String, _ message: String) {
        failures.append(Violation(rule: rule, time: now, message: message))
    }

    private func kind(of id: TargetID, scene: Scene, external: Bool) -> Noun {
        if external, let k = externalKinds[id] { return k }
        return scene.node(id)?.kind ?? externalKinds[id] ?? .item
    }

    static func eventName(_ event: FeedbackEvent) -> String {
        if case .string(let name)? = TimelineEntry.fields(event).first?.1 { return name }
        return "feedback"
    }

    static func isPlaceholder(_ id: TargetID) -> Bool { id.rawValue.hasPrefix("placeholder-") }

    /// Whether `id` is a copy of `original` (`original-copyN`).
    static func isCopy(_ id: TargetID, of original: TargetID) -> Bool {
        id.rawValue.hasPrefix(original.rawValue + "-copy")
    }

    /// The data without placeholders.
    static func filtered(_ snapshot: [TargetID: [TargetID]]) -> [TargetID: [TargetID]] {
        snapshot.mapValues { $0.filter { !isPlaceholder($0) } }
    }

    static func changedKeys(_ a: [TargetID: [TargetID]], _ b: [TargetID: [TargetID]]) -> Set<TargetID> {
        Set(Set(a.keys).union(b.keys).filter { a[$0] != b[$0] })
    }

    /// The changed containers, and the items in them that are containers themselves (a folder
    /// that moved): everything whose data or place a change touched.
    static func affected(_ a: [TargetID: [TargetID]], _ b: [TargetID: [TargetID]]) -> Set<TargetID> {
        var keys = changedKeys(a, b)
        for key in keys {
            for id in (a[key] ?? []) + (b[key] ?? []) where a[id] != nil || b[id] != nil { keys.insert(id) }
        }
        return keys
    }

    /// The name a drop's undo step has (U1): "Move Card", "Copy 3 Cards", "Move 2 Items" for a mix.
    static func stepName(_ kinds: [Noun], _ operation: DropOperation) -> String {
        let verb = operation == .move ? "Move" : "Copy"
        let noun = kinds.first.map { first in kinds.allSatisfy { $0 == first } ? first : .item } ?? .item
        func capitalized(_ s: String) -> String { s.prefix(1).uppercased() + s.dropFirst() }
        if kinds.count == 1 { return "\(verb) \(capitalized(noun.singular))" }
        return "\(verb) \(kinds.count) \(capitalized(noun.plural))"
    }

    /// Frames registered from the scene's layout are the very same numbers.
    private static func close(_ a: Rect, _ b: Rect) -> Bool { a == b }

    private func list(_ ids: [TargetID]?) -> String {
        ids.map { "[" + $0.map(\.rawValue).joined(separator: ", ") + "]" } ?? "nothing"
    }

    private func difference(_ a: [TargetID: [TargetID]], _ b: [TargetID: [TargetID]]) -> String {
        Self.changedKeys(a, b).sorted().map { "'\($0)' \(list(a[$0])) became \(list(b[$0]))" }.joined(separator: "; ")
    }

    private func describe(_ s: [TargetID: [TargetID]]) -> String {
        s.keys.sorted().map { "'\($0)' \(list(s[$0]))" }.joined(separator: ", ")
    }
}
