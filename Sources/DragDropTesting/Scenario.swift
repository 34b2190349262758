import DragDrop
import Foundation

/// A drag-and-drop situation written down as data: a scene (windows, lists, items, controls), a
/// script of timed input events, and the data expected at the end. The format is documented in
/// `docs/scenarios.md`; the `dragdrop` command replays and audits scenario files.
///
/// ```swift
/// let scenario = try Scenario(contentsOfFile: "Examples/scenarios/reminders-between-lists.json")
/// let run = try scenario.audit()
/// print(run.violations, run.expectationMet ?? true)
/// ```
///
/// Every problem in a file is a ``ScenarioError`` naming the place (`events[3]`,
/// `scene[0].children[2]`) and its line.
public struct Scenario: Sendable {
    /// A short name ("Move reminders between lists").
    public var name: String
    /// What the scenario shows, for a person.
    public var description: String
    /// The app the engine runs in; nodes without an `app` belong to it.
    public var app: AppID
    /// Timing and thresholds.
    public var settings: Settings
    /// The type table, with the app-declared types added.
    public var conformance: TypeConformance
    /// The root nodes of the scene.
    public var scene: [SceneNode]
    /// The input script, in time order.
    public var events: [Event]
    /// The item ids expected in each container at the end, in document order; `nil` when the
    /// file has no `expect` block.
    public var expect: [Expectation]?

    /// Timing and thresholds, from the file's `settings`.
    public struct Settings: Sendable, Hashable {
        /// Points a mouse or pen must move with the button held before the drag starts (F1).
        public var liftThreshold: Double = LiftConfiguration().pointerThreshold
        /// How long a finger must stay down before the content lifts (F1).
        public var touchHold: Duration = LiftConfiguration().touchHoldDuration
        /// The hover delay of nodes that say `"springLoaded": true` (SP1).
        public var springDelay: Duration = SpringLoadingConfiguration().delay
        /// How long before activation those nodes flash (SP1).
        public var springFlashLead: Duration = SpringLoadingConfiguration().flashLead

        /// The defaults of the engine.
        public init() {}

        /// The lift configuration for the engine and the auditor.
        public var lift: LiftConfiguration {
            LiftConfiguration(pointerThreshold: liftThreshold, touchHoldDuration: touchHold)
        }

        /// The spring-loading timing of nodes that say `"springLoaded": true`.
        public var springLoading: SpringLoadingConfiguration {
            SpringLoadingConfiguration(delay: springDelay, flashLead: springFlashLead)
        }

        /// The engine configuration these settings make.
        public var engineConfiguration: DragEngine.Configuration {
            var configuration = DragEngine.Configuration()
            configuration.lift = lift
            return configuration
        }
    }

    /// One timed step of the script.
    public struct Event: Sendable {
        /// When it happens, from the start of the scenario.
        public var time: MonotonicInstant
        /// What happens.
        public var step: Step
        /// A remark for people reading the file.
        public var note: String?
        /// Where it is in the file (`events[3]`), for errors found while replaying.
        public var path: String
        /// Where it starts in the file.
        public var location: JSONLocation?

        /// Creates an event.
        public init(
            time: MonotonicInstant, step: Step, note: String? = nil, path: String = "",
            location: JSONLocation? = nil
        ) {
            self.time = time
            self.step = step
            self.note = note
            self.path = path
            self.location = location
        }
    }

    /// What an event does: exactly one per event. Nearly always an input, the same
    /// ``InputEvent`` the harness records in the timeline when it gives it to the engine; a
    /// file's `"move"` with `"steps"` and its `"up": true` are the two inputs a script can say
    /// more briefly than the timeline, and `"wait"` is no input at all.
    ///
    /// Each input's JSON form (`docs/scenarios.md`):
    /// `"down": [x, y]` with an optional `"pointer"` (``InputEvent/pointerDown(_:kind:)``),
    /// `"move": [x, y]` (``InputEvent/pointerMove(_:)``), `"up": [x, y]`
    /// (``InputEvent/pointerUp(_:)``), `"modifiers": ["copy", "move"]`, `"key": name`
    /// (`pickUp` picks up the current selection, C4), `"tap": [x, y]` (M2), `"select": [ids]`
    /// (M1), `"pickUp": [ids]` (C4), `"confirm": true|false` (U2), `"undo": true`,
    /// `"redo": true` (U1), `"cancelAfterDrop": true` (U3), `"cancelLoad": n` (drop number n,
    /// token `drop#n`), `"externalEnter": {...}`, `"externalExit": true` and
    /// `"otherAppAllows": ["copy", "move"]` (what the drag from another app allows, S2).
    public enum Step: Sendable, Hashable {
        /// One input to the engine.
        case input(InputEvent)
        /// `"move": [x, y]` with `"steps": n` (n > 1): moves there in n even steps from where
        /// the pointer is, spread from the previous event's time to this one's (n
        /// ``InputEvent/pointerMove(_:)`` inputs).
        case glide(to: Point, steps: Int)
        /// `"up": true`: releases the pointer where it is (a ``InputEvent/pointerUp(_:)`` at
        /// that point).
        case releaseInPlace
        /// `"wait": true`: only lets time pass.
        case wait

        /// A move to `point`: one input when `steps` is 1, else a ``glide(to:steps:)``.
        public static func move(to point: Point, steps: Int = 1) -> Step {
            steps > 1 ? .glide(to: point, steps: steps) : .input(.pointerMove(point))
        }
    }

    /// The items one container, drop point or folder must hold at the end, in order.
    public struct Expectation: Sendable, Hashable {
        /// The container, drop point or folder.
        public var container: TargetID
        /// Its item ids, in order.
        public var items: [TargetID]

        /// Creates an expectation.
        public init(container: TargetID, items: [TargetID]) {
            self.container = container
            self.items = items
        }
    }

    /// Creates a scenario from its parts.
    public init(
        name: String, description: String = "", app: AppID = "App", settings: Settings = Settings(),
        conformance: TypeConformance = TypeConformance(), scene: [SceneNode], events: [Event],
        expect: [Expectation]? = nil
    ) {
        self.name = name
        self.description = description
        self.app = app
        self.settings = settings
        self.conformance = conformance
        self.scene = scene
        self.events = events
        self.expect = expect
    }

    /// Parses and validates a scenario document.
    public init(json text: String) throws(ScenarioError) {
        self = try ScenarioDecoding.decode(try LocatedJSON.parse(text))
    }

    /// Reads, parses and validates a scenario file.
    public init(contentsOfFile path: String) throws(ScenarioError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ScenarioError(.unreadable, path: "", "cannot read the file: \(error.localizedDescription)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ScenarioError(.unreadable, path: "", "the file is not UTF-8 text")
        }
        try self.init(json: text)
    }

    /// How long the runner lets time pass after the last event, so timers settle.
    public static let settleTime: Duration = .seconds(2)
}

// MARK: - Running

/// The result of replaying a scenario: the harness with its timeline and scene, and how the end
/// state compares with the scenario's `expect` block.
public struct ScenarioRun {
    /// The scenario that ran.
    public let scenario: Scenario
    /// The harness, with the timeline, the scene and the engine as they ended.
    public let harness: DragHarness
    /// Rules broken, when the run was audited (``Scenario/audit()``); empty otherwise.
    public let violations: [Violation]
    /// What the harness reported as left pending at the end (an open drag, a highlight on).
    public let pending: [String]

    /// A container whose final items differ from the `expect` block.
    public struct Mismatch: Sendable, Hashable, CustomStringConvertible {
        /// The container, drop point or folder.
        public var container: TargetID
        /// The items expected, in order.
        public var expected: [TargetID]
        /// The items it holds, in order (`nil` if it no longer exists).
        public var actual: [TargetID]?

        public var description: String {
            let list = { (ids: [TargetID]) in "[" + ids.map(\.rawValue).joined(separator: ", ") + "]" }
            return "\(container): expected \(list(expected)), got \(actual.map(list) ?? "nothing (no such container)")"
        }
    }

    /// Everything recorded, in order.
    public var timeline: [TimelineEntry] { harness.timeline }

    /// The item ids of each container, drop point and folder at the end.
    public var snapshot: [TargetID: [TargetID]] { harness.scene.snapshot() }

    /// The containers whose final items differ from `expect`.
    public var mismatches: [Mismatch] {
        guard let expect = scenario.expect else { return [] }
        let snapshot = snapshot
        return expect.compactMap { e in
            let actual = snapshot[e.container]
            return actual == e.items ? nil : Mismatch(container: e.container, expected: e.items, actual: actual)
        }
    }

    /// Whether the end state matches `expect`; `nil` when the scenario has no `expect` block.
    public var expectationMet: Bool? { scenario.expect == nil ? nil : mismatches.isEmpty }

    /// The last line of `dragdrop replay`:
    /// `{"kind":"summary","scenario":…,"t":…,"entries":…,"snapshot":{…},"expectMatched":…,"mismatches":[…],"pending":[…]}`.
    public var summary: JSONValue {
        let snapshot = snapshot
        let ids = { (ids: [TargetID]) in JSONValue.array(ids.map { .string($0.rawValue) }) }
        return .object([
            ("kind", .string("summary")),
            ("scenario", .string(scenario.name)),
            ("t", .number(harness.clock.now.seconds)),
            ("entries", .number(Double(timeline.count))),
            ("snapshot", .object(snapshot.keys.sorted().map { ($0.rawValue, ids(snapshot[$0] ?? [])) })),
            ("expectMatched", expectationMet.map(JSONValue.bool) ?? .null),
            (
                "mismatches",
                .array(
                    mismatches.map {
                        .object([
                            ("container", .string($0.container.rawValue)), ("expected", ids($0.expected)),
                            ("actual", $0.actual.map(ids) ?? .null),
                        ])
                    })
            ),
            ("pending", .array(pending.map(JSONValue.string))),
        ])
    }

    /// The timeline as JSON lines followed by the summary line: the output of `dragdrop replay`.
    public var jsonLines: [String] { harness.jsonLines + [summary.serialized] }
}

extension Scenario {
    /// A harness for this scenario: its scene, app, settings and types, at time zero.
    public func makeHarness() throws(ScenarioError) -> DragHarness {
        let built: Scene
        do { built = try Scene(scene) } catch { throw ScenarioDecoding.sceneError(error) }
        do {
            return try DragHarness(
                scene: built, app: app, configuration: settings.engineConfiguration, conformance: conformance)
        } catch {
            throw ScenarioDecoding.sceneError(error)
        }
    }

    /// Replays every event on `harness` at its time, then lets ``settleTime`` pass.
    public func play(on harness: DragHarness) throws(ScenarioError) {
        var previous = MonotonicInstant.origin
        for event in events {
            try ScenarioPlayer.perform(event, previous: previous, on: harness)
            previous = event.time
        }
        harness.advance(by: Self.settleTime)
    }

    /// Builds the harness, attaches `observers`, replays the script and reports the outcome.
    public func run(observers: [any TimelineObserver] = []) throws(ScenarioError) -> ScenarioRun {
        let harness = try makeHarness()
        harness.observers.append(contentsOf: observers)
        try play(on: harness)
        return ScenarioRun(scenario: self, harness: harness, violations: [], pending: Self.pending(harness))
    }

    /// Replays the scenario with a ``TimelineAuditor`` attached (same lift threshold and types as
    /// the engine) and reports its violations in ``ScenarioRun/violations``.
    public func audit() throws(ScenarioError) -> ScenarioRun {
        let auditor = TimelineAuditor(liftConfiguration: settings.lift, conformance: conformance)
        let harness = try makeHarness()
        harness.observers.append(auditor)
        try play(on: harness)
        auditor.finish(scene: harness.scene, engine: harness.engine)
        return ScenarioRun(
            scenario: self, harness: harness, violations: auditor.violations, pending: Self.pending(harness))
    }

    private static func pending(_ harness: DragHarness) -> [String] {
        do {
            try harness.finish()
            return []
        } catch {
            return error.leftovers
        }
    }
}

/// Performs scenario events on a harness.
enum ScenarioPlayer {
    static func perform(_ event: Scenario.Event, previous: MonotonicInstant, on harness: DragHarness)
        throws(ScenarioError)
    {
        func fail(_ message: String, _ suffix: String = "") -> ScenarioError {
            ScenarioError(.replay, path: event.path + suffix, message, at: event.location)
        }
        let input: InputEvent
        switch event.step {
        case .wait:
            harness.advance(to: event.time)
            return
        case .releaseInPlace:
            harness.advance(to: event.time)
            harness.release()
            return
        case .glide(let target, let steps):
            // Even steps from the previous event's time and the current pointer position.
            let start = harness.pointer
            let from = previous.seconds
            let span = event.time.seconds - from
            for i in 1...max(1, steps) {
                let f = Double(i) / Double(max(1, steps))
                harness.advance(to: i == steps ? event.time : MonotonicInstant(.seconds(from + span * f)))
                harness.move(to: Point(x: start.x + (target.x - start.x) * f, y: start.y + (target.y - start.y) * f))
            }
            return
        case .input(let given): input = given
        }
        harness.advance(to: event.time)
        switch input {
        case .pointerDown(let p, let kind): harness.press(at: p, kind: kind)
        case .pointerMove(let p): harness.move(to: p)
        case .pointerUp(let p): harness.release(at: p)
        case .modifiers(let m): harness.setModifiers(m)
        case .key(.pickUp):
            let selection = harness.scene.selection
            guard !selection.isEmpty else {
                throw fail(
                    "\"key\": \"pickUp\" picks up the selection, but nothing is selected; add a \"select\" event first or use \"pickUp\": [ids]"
                )
            }
            do { try harness.pickUp(selection) } catch { throw fail("cannot pick up the selection: \(error)") }
        case .key(let k): harness.key(k)
        case .tap(let p): harness.tap(at: p)
        case .select(let ids):
            for (i, id) in ids.enumerated() {
                guard let node = harness.scene.node(id) else {
                    throw fail("no node \"\(id)\" in the scene at \(event.time.seconds) s", ".select[\(i)]")
                }
                guard !node.offers.isEmpty else {
                    throw fail("\"\(id)\" cannot be dragged: it offers no types", ".select[\(i)]")
                }
            }
            harness.select(ids)
        case .pickUp(let ids):
            for (i, id) in ids.enumerated() where harness.scene.node(id) == nil {
                throw fail("no node \"\(id)\" in the scene at \(event.time.seconds) s", ".pickUp[\(i)]")
            }
            do { try harness.pickUp(ids) } catch { throw fail("cannot pick up: \(error)", ".pickUp") }
        case .confirm(let ok): harness.confirm(ok)
        case .undo: harness.undo()
        case .redo: harness.redo()
        case .cancelAfterDrop: harness.cancelAfterDrop()
        case .cancelLoad(let token): harness.cancelLoad(token)
        case .externalDragEnter(let items, let p):
            do { try harness.externalDragEnter(items, at: p) } catch {
                throw fail("the drag from another app cannot enter: \(error)", ".externalEnter")
            }
        case .externalDragExit: harness.externalDragExit()
        case .otherAppAllows(let allowed): harness.otherAppAllows(allowed)
        }
    }
}
