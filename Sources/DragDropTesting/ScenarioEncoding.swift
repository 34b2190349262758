import DragDrop

/// Writes a ``Scenario`` back as a scenario file (the format of `docs/scenarios.md`), so a
/// scenario built in code (a random session, a shrunk failure) can be kept, read by a person and
/// replayed with `dragdrop replay` and `dragdrop audit`.
///
/// The text reads back into the same scenario: times, coordinates and durations are written with
/// up to 6 decimals (the random sessions use whole milliseconds and whole points), defaults are
/// left out, and `Scenario(json:)` of the output replays exactly like the original.
///
/// ```swift
/// let text = ScenarioEncoding.json(scenario, types: [("application/x-card", ["text/plain"])])
/// try text.write(toFile: "Examples/scenarios/regressions/undo-while-loading.json", atomically: true, encoding: .utf8)
/// ```
public enum ScenarioEncoding {
    /// The scenario as a scenario file: one JSON object, scene nodes and events one per line where
    /// they fit. `types` are the app-declared types to write (a ``TypeConformance`` cannot list
    /// its declarations).
    public static func json(_ scenario: Scenario, types: [(type: ContentType, conformsTo: [ContentType])] = [])
        -> String
    {
        var top: [(String, JSONValue)] = [
            ("name", .string(scenario.name)), ("description", .string(scenario.description)),
        ]
        if scenario.app != "App" { top.append(("app", .string(scenario.app.rawValue))) }
        let settings = self.settings(scenario.settings)
        if !settings.isEmpty { top.append(("settings", .object(settings))) }
        if !types.isEmpty {
            top.append(
                (
                    "types",
                    .array(
                        types.map {
                            .object([
                                ("type", .string($0.type.mimeType)),
                                ("conformsTo", .array($0.conformsTo.map { .string($0.mimeType) })),
                            ])
                        })
                ))
        }
        var lines = ["{"]
        for (key, value) in top { lines.append("  \(quote(key)): \(value.serialized),") }
        lines.append("  \"scene\": [")
        let springDefaults = scenario.settings.springLoading
        for (i, root) in scenario.scene.enumerated() {
            lines += nodeLines(
                root, indent: "    ", springDefaults: springDefaults, last: i == scenario.scene.count - 1)
        }
        lines.append("  ],")
        lines.append("  \"events\": [")
        for (i, event) in scenario.events.enumerated() {
            lines.append("    " + self.event(event).serialized + (i == scenario.events.count - 1 ? "" : ","))
        }
        if let expect = scenario.expect {
            lines.append("  ],")
            lines.append(
                "  \"expect\": "
                    + JSONValue.object(
                        expect.map { ($0.container.rawValue, .array($0.items.map { .string($0.rawValue) })) }
                    )
                    .serialized)
        } else {
            lines.append("  ]")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Parts

    private static func settings(_ s: Scenario.Settings) -> [(String, JSONValue)] {
        let d = Scenario.Settings()
        var fields: [(String, JSONValue)] = []
        if s.liftThreshold != d.liftThreshold { fields.append(("liftThreshold", .number(s.liftThreshold))) }
        if s.touchHold != d.touchHold { fields.append(("touchHold", seconds(s.touchHold))) }
        if s.springDelay != d.springDelay { fields.append(("springDelay", seconds(s.springDelay))) }
        if s.springFlashLead != d.springFlashLead { fields.append(("springFlashLead", seconds(s.springFlashLead))) }
        return fields
    }

    /// A node whose children are all leaves fits on one line; others open their children below.
    private static func nodeLines(
        _ n: SceneNode, indent: String, springDefaults: SpringLoadingConfiguration, last: Bool
    )
        -> [String]
    {
        let comma = last ? "" : ","
        let fields = nodeFields(n, springDefaults: springDefaults)
        if n.children.isEmpty { return [indent + JSONValue.object(fields).serialized + comma] }
        let head = JSONValue.object(fields).serialized.dropLast()  // without the closing brace
        var lines = [indent + head + (fields.isEmpty ? "" : ",") + "\"children\": ["]
        for (i, child) in n.children.enumerated() {
            lines += nodeLines(
                child, indent: indent + "  ", springDefaults: springDefaults, last: i == n.children.count - 1)
        }
        lines.append(indent + "]}" + comma)
        return lines
    }

    private static func nodeFields(_ n: SceneNode, springDefaults: SpringLoadingConfiguration) -> [(String, JSONValue)]
    {
        var f: [(String, JSONValue)] = [("id", .string(n.id.rawValue))]
        if n.name != n.id.rawValue { f.append(("name", .string(n.name))) }
        f.append(("role", .string(n.role.rawValue)))
        if let r = n.frame { f.append(("frame", .array([r.minX, r.minY, r.width, r.height].map(JSONValue.number)))) }
        if let app = n.app { f.append(("app", .string(app.rawValue))) }
        if !n.accepts.isEmpty { f.append(("accepts", types(n.accepts))) }
        if !n.offers.isEmpty { f.append(("offers", types(n.offers))) }
        if n.kind != .item {
            f.append(
                (
                    "kind",
                    n.kind.plural == n.kind.singular + "s"
                        ? .string(n.kind.singular)
                        : .object([("singular", .string(n.kind.singular)), ("plural", .string(n.kind.plural))])
                ))
        }
        if let layout = n.layout { f.append(("layout", .string(layout.rawValue))) }
        if n.itemSize != Size(width: 0, height: 40) {
            f.append(("itemSize", .array([.number(n.itemSize.width), .number(n.itemSize.height)])))
        }
        if n.spacing != 0 { f.append(("spacing", .number(n.spacing))) }
        if n.padding != 0 { f.append(("padding", .number(n.padding))) }
        switch n.policy {
        case .automatic: break
        case .preferMove: f.append(("policy", .string("move")))
        case .alwaysCopy: f.append(("policy", .string("copy")))
        case .forbidden(let reason): f.append(("policy", .object([("forbidden", .string(reason))])))
        }
        if let spring = n.springLoading {
            f.append(
                (
                    "springLoaded",
                    spring == springDefaults
                        ? .bool(true)
                        : .object([("delay", seconds(spring.delay)), ("flashLead", seconds(spring.flashLead))])
                ))
        }
        if let a = n.autoscroll { f.append(("autoscroll", autoscroll(a))) }
        if let h = n.contentHeight { f.append(("contentHeight", .number(h))) }
        if n.clipsChildren { f.append(("clips", .bool(true))) }
        if n.isHidden { f.append(("hidden", .bool(true))) }
        if !n.isMovable { f.append(("movable", .bool(false))) }
        if n.takesMovesFromOtherApps { f.append(("movesFromOtherApps", .bool(true))) }
        if let c = n.confirmation { f.append(("confirmation", .string(c))) }
        if let reason = n.failure { f.append(("fails", .string(reason))) }
        if let title = n.cancellationTitle { f.append(("cancellation", .string(title))) }
        if let t = n.transfer {
            var fields: [(String, JSONValue)] = [
                ("duration", seconds(t.duration)), ("steps", .number(Double(t.steps))),
            ]
            if let failAt = t.failAt { fields.append(("failAt", .number(failAt))) }
            f.append(("transfer", .object(fields)))
        }
        if !n.showsOnActivate.isEmpty || !n.hidesOnActivate.isEmpty {
            var fields: [(String, JSONValue)] = []
            if !n.showsOnActivate.isEmpty { fields.append(("show", ids(n.showsOnActivate))) }
            if !n.hidesOnActivate.isEmpty { fields.append(("hide", ids(n.hidesOnActivate))) }
            f.append(("onActivate", .object(fields)))
        }
        return f
    }

    private static func autoscroll(_ a: AutoscrollConfiguration) -> JSONValue {
        let d = AutoscrollConfiguration()
        if a == d { return .bool(true) }
        var f: [(String, JSONValue)] = []
        if a.edgeZone != d.edgeZone { f.append(("edgeZone", .number(a.edgeZone))) }
        if a.maximumSpeed != d.maximumSpeed { f.append(("maximumSpeed", .number(a.maximumSpeed))) }
        if a.minimumSpeed != d.minimumSpeed { f.append(("minimumSpeed", .number(a.minimumSpeed))) }
        if a.rampDuration != d.rampDuration { f.append(("rampDuration", seconds(a.rampDuration))) }
        if a.initialRampFactor != d.initialRampFactor { f.append(("initialRampFactor", .number(a.initialRampFactor))) }
        if a.stepInterval != d.stepInterval { f.append(("stepInterval", seconds(a.stepInterval))) }
        if a.axes != d.axes {
            f.append(
                ("axes", .string(a.axes == .vertical ? "vertical" : a.axes == .horizontal ? "horizontal" : "both")))
        }
        return .object(f)
    }

    private static func event(_ e: Scenario.Event) -> JSONValue {
        var f: [(String, JSONValue)] = [("at", .number(e.time.seconds))]
        switch e.step {
        case .input(let input): f.append(contentsOf: Self.input(input))
        case .glide(let p, let steps):
            f.append(("move", point(p)))
            if steps > 1 { f.append(("steps", .number(Double(steps)))) }
        case .releaseInPlace: f.append(("up", .bool(true)))
        case .wait: f.append(("wait", .bool(true)))
        }
        if let note = e.note { f.append(("note", .string(note))) }
        return .object(f)
    }

    /// An input's fields in a scenario file (`docs/scenarios.md`).
    private static func input(_ input: InputEvent) -> [(String, JSONValue)] {
        switch input {
        case .pointerDown(let p, let kind):
            return [("down", point(p))] + (kind != .mouse ? [("pointer", .string(kind.rawValue))] : [])
        case .pointerMove(let p): return [("move", point(p))]
        case .pointerUp(let p): return [("up", point(p))]
        case .modifiers(let m):
            var names: [JSONValue] = []
            if m.contains(.forceCopy) { names.append(.string("copy")) }
            if m.contains(.forceMove) { names.append(.string("move")) }
            return [("modifiers", .array(names))]
        case .key(let k): return [("key", .string(k.rawValue))]
        case .tap(let p): return [("tap", point(p))]
        case .select(let list): return [("select", ids(list))]
        case .pickUp(let list): return [("pickUp", ids(list))]
        case .confirm(let ok): return [("confirm", .bool(ok))]
        case .undo: return [("undo", .bool(true))]
        case .redo: return [("redo", .bool(true))]
        case .cancelAfterDrop: return [("cancelAfterDrop", .bool(true))]
        case .cancelLoad(let token): return [("cancelLoad", .number(Double(token.rawValue)))]
        case .externalDragEnter(let items, let at):
            let app = items.first?.app.rawValue ?? "Other"
            let list: [JSONValue] = items.map { item in
                var fields: [(String, JSONValue)] = [("id", .string(item.id.rawValue))]
                if item.name != item.id.rawValue { fields.append(("name", .string(item.name))) }
                fields.append(("types", types(item.types)))
                if item.kind != .item { fields.append(("kind", .string(item.kind.singular))) }
                return .object(fields)
            }
            return [("externalEnter", .object([("app", .string(app)), ("items", .array(list)), ("at", point(at))]))]
        case .externalDragExit: return [("externalExit", .bool(true))]
        case .otherAppAllows(let allowed): return [("otherAppAllows", .array(TimelineEntry.operationNames(allowed)))]
        }
    }

    private static func point(_ p: Point) -> JSONValue { .array([.number(p.x), .number(p.y)]) }
    private static func ids(_ list: [TargetID]) -> JSONValue { .array(list.map { .string($0.rawValue) }) }
    private static func types(_ list: [ContentType]) -> JSONValue { .array(list.map { .string($0.mimeType) }) }
    private static func seconds(_ d: Duration) -> JSONValue { .number(d.seconds) }
    private static func quote(_ s: String) -> String { JSONValue.string(s).serialized }
}
