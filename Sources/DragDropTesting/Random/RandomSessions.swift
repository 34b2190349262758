import DragDrop

/// A rule a random session broke, found by the ``TimelineAuditor``, the ``SessionOracle`` or the
/// replay itself.
public struct SessionFailure: Sendable, Hashable, CustomStringConvertible {
    /// What broke: a rule ID, `registry`, `pending` or `replay`.
    public var rule: String
    /// When (virtual time).
    public var time: MonotonicInstant
    /// What was wrong, for a person.
    public var message: String
    /// Who saw it: `auditor`, `oracle` or `replay`.
    public var checker: String

    /// The failure with ids, numbers and times left out, so a shrunk scenario can be told to keep
    /// failing the same way.
    public var signature: String { "\(rule): \(Self.normalized(message))" }

    public var description: String { "\(rule) at \(time.seconds)s (\(checker)): \(message)" }

    static func normalized(_ message: String) -> String {
        var out = ""
        var inQuote = false
        var lastWasDigit = false
        for ch in message {
            if ch == "'" {
                inQuote.toggle()
                if inQuote { out += "'_'" }
                continue
            }
            if inQuote { continue }
            if ch.isNumber {
                if !lastWasDigit { out += "N" }
                lastWasDigit = true
                continue
            }
            if lastWasDigit, ch == "." { continue }
            lastWasDigit = false
            out.append(ch)
        }
        // Lists of ids ("[a, b]") vary with the scene; keep only that there is one.
        var result = ""
        var depth = 0
        for ch in out {
            if ch == "[" {
                if depth == 0 { result += "[…]" }
                depth += 1
            } else if ch == "]" {
                depth = max(0, depth - 1)
            } else if depth == 0 {
                result.append(ch)
            }
        }
        return result
    }
}

/// One random session: its seed, the scenario it recorded and what it broke.
public struct RandomSessionReport: Sendable {
    /// The seed that made it.
    public var seed: UInt64
    /// The scene and the input, as a scenario (replay it with ``RandomSessions/check(_:)``).
    public var scenario: Scenario
    /// What broke; empty when the session passed.
    public var failures: [SessionFailure]
}

/// The model-based random tester: random scenes and random input (``RandomSessionDriver``), checked
/// by the ``TimelineAuditor`` and the ``SessionOracle``, with failures shrunk to a minimal
/// scenario file.
///
/// ```swift
/// let report = RandomSessions.run(seed: 42)
/// if let first = report.failures.first {
///     let minimal = RandomSessions.shrink(report.scenario, keeping: first.signature)
///     print(RandomSessions.json(minimal))
/// }
/// ```
public enum RandomSessions {
    /// The app-declared types of random scenes (written into their scenario files).
    public static var types: [(type: ContentType, conformsTo: [ContentType])] { RandomScene.types }

    /// How many steps (events or short gestures) a session plays.
    public static let defaultSteps = 10...40

    /// The seed of session `index` of a run started with `seed`: sessions are independent, so a
    /// failing one is replayed alone from its own seed.
    public static func sessionSeed(run seed: UInt64, index: Int) -> UInt64 {
        var r = SeededRandom(seed: seed &+ 0x632B_E59B_D9B4_E019 &* UInt64(index + 1))
        return r.next()
    }

    /// Generates session `seed`, plays it while choosing its input, and checks it.
    public static func run(seed: UInt64, steps: ClosedRange<Int> = defaultSteps) -> RandomSessionReport {
        var random = SeededRandom(seed: seed)
        var scenario = Scenario(
            name: "Random session \(seed)",
            description: "A random drag session made by the random tester (seed \(seed)).",
            app: RandomScene.app, conformance: conformance, scene: RandomScene.make(&random), events: [])
        let harness: DragHarness
        do { harness = try scenario.makeHarness() } catch {
            preconditionFailure("random scene \(seed) is invalid: \(error)")
        }
        let (auditor, oracle) = attachCheckers(scenario, harness)
        var driver = RandomSessionDriver(random: random, harness: harness, settings: scenario.settings)
        let count = driver.random.int(steps)
        for _ in 0..<count { driver.step() }
        driver.finish()
        harness.advance(by: Scenario.settleTime)
        scenario.events = driver.events
        return RandomSessionReport(seed: seed, scenario: scenario, failures: collect(auditor, oracle, harness))
    }

    /// Replays `scenario` with the auditor and the oracle attached and returns what broke.
    public static func check(_ scenario: Scenario) -> [SessionFailure] {
        do {
            let harness = try scenario.makeHarness()
            let (auditor, oracle) = attachCheckers(scenario, harness)
            try scenario.play(on: harness)
            return collect(auditor, oracle, harness)
        } catch {
            return [SessionFailure(rule: "replay", time: .origin, message: error.description, checker: "replay")]
        }
    }

    /// The scenario as a scenario file, with the random scenes' types.
    public static func json(_ scenario: Scenario) -> String { ScenarioEncoding.json(scenario, types: types) }

    // MARK: Shrinking

    /// The smallest scenario found that still fails with `signature` (a ``SessionFailure/signature``):
    /// events are removed in halving chunks, then scene nodes and their features, then events
    /// again; each candidate is replayed. `budget` caps the replays. The result replays to the
    /// same failure from its file (``json(_:)``).
    public static func shrink(_ scenario: Scenario, keeping signature: String, budget: Int = 4000) -> Scenario {
        var shrinker = Shrinker(signature: signature, budget: budget)
        var best = scenario
        best.events = shrinker.events(best)
        best = shrinker.scene(best)
        best.events = shrinker.events(best)
        best.events = shrinker.simplifiedEvents(best)
        // Keep the result only if its file fails the same way.
        if let decoded = try? Scenario(json: json(best)), shrinker.fails(decoded) { return decoded }
        return scenario
    }

    // MARK: Plumbing

    static var conformance: TypeConformance {
        var table = TypeConformance()
        for t in RandomScene.types { table.declare(t.type, conformsTo: t.conformsTo) }
        return table
    }

    private static func attachCheckers(_ scenario: Scenario, _ harness: DragHarness) -> (TimelineAuditor, SessionOracle)
    {
        let auditor = TimelineAuditor(liftConfiguration: scenario.settings.lift, conformance: scenario.conformance)
        let oracle = SessionOracle(scene: harness.scene)
        harness.observers.append(auditor)
        harness.observers.append(oracle)
        return (auditor, oracle)
    }

    private static func collect(_ auditor: TimelineAuditor, _ oracle: SessionOracle, _ harness: DragHarness)
        -> [SessionFailure]
    {
        auditor.finish(scene: harness.scene, engine: harness.engine)
        oracle.finish(harness: harness)
        let audited = auditor.violations.map {
            SessionFailure(rule: $0.rule, time: $0.time, message: $0.message, checker: "auditor")
        }
        let checked = oracle.failures.map {
            SessionFailure(rule: $0.rule, time: $0.time, message: $0.message, checker: "oracle")
        }
        return (audited + checked).sorted { $0.time < $1.time }
    }
}

/// Delta debugging of a failing scenario.
private struct Shrinker {
    let signature: String
    var budget: Int

    init(signature: String, budget: Int) {
        self.signature = signature
        self.budget = budget
    }

    mutating func fails(_ scenario: Scenario) -> Bool {
        guard budget > 0 else { return false }
        budget -= 1
        return RandomSessions.check(scenario).contains { $0.signature == signature }
    }

    /// Removes chunks of events, halving the chunk size, while the failure stays.
    mutating func events(_ scenario: Scenario) -> [Scenario.Event] {
        var current = scenario
        var chunk = max(1, current.events.count / 2)
        while budget > 0, !current.events.isEmpty {
            var i = 0
            var removed = false
            while i < current.events.count, budget > 0 {
                var candidate = current
                candidate.events.removeSubrange(i..<min(current.events.count, i + chunk))
                if fails(candidate) {
                    current = candidate
                    removed = true
                } else {
                    i += chunk
                }
            }
            if chunk > 1 {
                chunk /= 2
            } else if !removed {
                break
            }
        }
        return current.events
    }

    /// Moves made in one step, and events without notes.
    mutating func simplifiedEvents(_ scenario: Scenario) -> [Scenario.Event] {
        var current = scenario
        for i in current.events.indices {
            guard case .glide(let p, _) = current.events[i].step else { continue }
            var candidate = current
            candidate.events[i].step = .input(.pointerMove(p))
            if fails(candidate) { current = candidate }
        }
        return current.events
    }

    /// Removes nodes (deepest first) and the features of the nodes left, while the failure stays.
    mutating func scene(_ scenario: Scenario) -> Scenario {
        var current = scenario
        var progress = true
        while progress, budget > 0 {
            progress = false
            for id in Self.ids(current.scene).reversed() where budget > 0 {
                var candidate = current
                candidate.scene = Self.removing(id, from: candidate.scene)
                if candidate.scene.isEmpty { continue }
                if fails(candidate) {
                    current = candidate
                    progress = true
                }
            }
        }
        for id in Self.ids(current.scene) where budget > 0 {
            for feature in Feature.allCases {
                var changed = false
                var candidate = current
                candidate.scene = Self.mutating(id, in: candidate.scene) { n in
                    if let simpler = feature.removed(from: n) {
                        n = simpler
                        changed = true
                    }
                }
                if changed, fails(candidate) { current = candidate }
            }
        }
        return current
    }

    /// The features of a node the shrinker turns off, one at a time.
    enum Feature: CaseIterable {
        case transfer, failAt, failure, confirmation, cancellation, springLoading, scrolling, clipping, hidden
        case policy, readOnly, otherApp, grid

        /// `node` without this feature, or nil when it does not have it.
        func removed(from node: SceneNode) -> SceneNode? {
            var n = node
            switch self {
            case .transfer:
                guard n.transfer != nil else { return nil }
                n.transfer = nil
            case .failAt:
                guard n.transfer?.failAt != nil else { return nil }
                n.transfer?.failAt = nil
            case .failure:
                guard n.failure != nil, n.transfer == nil else { return nil }
                n.failure = nil
            case .confirmation:
                guard n.confirmation != nil else { return nil }
                n.confirmation = nil
            case .cancellation:
                guard n.cancellationTitle != nil else { return nil }
                n.cancellationTitle = nil
            case .springLoading:
                guard n.springLoading != nil else { return nil }
                n.springLoading = nil
            case .scrolling:
                guard n.autoscroll != nil || n.contentHeight != nil else { return nil }
                n.autoscroll = nil
                n.contentHeight = nil
            case .clipping:
                guard n.clipsChildren, n.role != .group else { return nil }
                n.clipsChildren = false
            case .hidden:
                guard n.isHidden else { return nil }
                n.isHidden = false
            case .policy:
                guard n.policy != .automatic || n.takesMovesFromOtherApps else { return nil }
                n.policy = .automatic
                n.takesMovesFromOtherApps = false
            case .readOnly:
                guard !n.isMovable else { return nil }
                n.isMovable = true
            case .otherApp:
                guard n.app != nil else { return nil }
                n.app = nil
            case .grid:
                guard n.layout == .grid else { return nil }
                n.layout = .vertical
                n.itemSize = Size(width: 0, height: 40)
                n.spacing = 0
                n.padding = 0
            }
            return n
        }
    }

    static func ids(_ nodes: [SceneNode]) -> [TargetID] {
        var result: [TargetID] = []
        func walk(_ n: SceneNode) {
            result.append(n.id)
            n.children.forEach(walk)
        }
        nodes.forEach(walk)
        return result
    }

    /// The tree without `id` (and its subtree), and without references to the removed nodes.
    static func removing(_ id: TargetID, from nodes: [SceneNode]) -> [SceneNode] {
        var removed = Set<TargetID>()
        func strip(_ list: [SceneNode]) -> [SceneNode] {
            list.compactMap { n in
                if n.id == id {
                    removed.formUnion(ids([n]))
                    return nil
                }
                var copy = n
                copy.children = strip(n.children)
                return copy
            }
        }
        func unreference(_ list: [SceneNode]) -> [SceneNode] {
            list.map { n in
                var copy = n
                copy.showsOnActivate.removeAll(where: removed.contains)
                copy.hidesOnActivate.removeAll(where: removed.contains)
                copy.children = unreference(n.children)
                return copy
            }
        }
        return unreference(strip(nodes))
    }

    static func mutating(_ id: TargetID, in nodes: [SceneNode], _ change: (inout SceneNode) -> Void) -> [SceneNode] {
        nodes.map { n in
            var copy = n
            if n.id == id { change(&copy) }
            copy.children = mutating(id, in: n.children, change)
            return copy
        }
    }
}
