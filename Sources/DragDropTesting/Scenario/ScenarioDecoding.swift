import DragDrop

/// Turns a parsed JSON document into a ``Scenario``, validating every field by hand so each
/// error names its JSON path and line.
enum ScenarioDecoding {
    typealias JSON = LocatedJSON

    static let topLevelKeys = ["name", "description", "app", "settings", "types", "scene", "events", "expect"]
    static let settingsKeys = ["liftThreshold", "touchHold", "springDelay", "springFlashLead"]
    static let nodeKeys = [
        "id", "name", "role", "frame", "app", "accepts", "offers", "kind", "layout", "itemSize", "spacing",
        "padding", "policy", "springLoaded", "autoscroll", "contentHeight", "clips", "hidden", "movable",
        "movesFromOtherApps", "confirmation", "fails", "cancellation", "transfer", "onActivate", "children",
    ]
    static let actions = [
        "down", "move", "up", "modifiers", "key", "tap", "select", "pickUp", "confirm", "undo", "redo",
        "cancelAfterDrop", "cancelLoad", "externalEnter", "externalExit", "otherAppAllows", "wait",
    ]
    /// Keys that qualify one action, with the action they belong to.
    static let actionOptions = ["pointer": "down", "steps": "move"]
    static let autoscrollKeys = [
        "edgeZone", "maximumSpeed", "rampDuration", "initialRampFactor", "stepInterval", "axes", "minimumSpeed",
    ]

    // MARK: Document

    static func decode(_ root: JSON) throws(ScenarioError) -> Scenario {
        let doc = try Object(root, path: "")
        try doc.allow(topLevelKeys)
        let name = try doc.required("name") { v, p throws(ScenarioError) in try nonEmptyString(v, p) }
        let description = try doc.required("description") { v, p throws(ScenarioError) in try string(v, p) }
        let app = try doc.optional("app") { v, p throws(ScenarioError) in AppID(try nonEmptyString(v, p)) } ?? "App"
        let settings = try doc.optional("settings") { v, p throws(ScenarioError) in try decodeSettings(v, p) } ?? .init()
        let conformance =
            try doc.optional("types") { v, p throws(ScenarioError) in try decodeTypes(v, p) } ?? TypeConformance()

        var context = NodeContext(settings: settings)
        let sceneNodes = try doc.required("scene") { v, p throws(ScenarioError) -> [SceneNode] in
            let list = try array(v, p)
            guard !list.isEmpty else { throw ScenarioError(.invalidValue, path: p, "the scene is empty", at: v.location) }
            var nodes: [SceneNode] = []
            for (i, child) in list.enumerated() {
                nodes.append(try decodeNode(child, ScenarioPath.element(p, i), parent: nil, context: &context))
            }
            return nodes
        }
        try context.checkReferences()

        let events = try doc.required("events") { v, p throws(ScenarioError) -> [Scenario.Event] in
            var events: [Scenario.Event] = []
            var previous: (time: Double, path: String)?
            for (i, item) in try array(v, p).enumerated() {
                let event = try decodeEvent(item, ScenarioPath.element(p, i), knownIDs: context.ids)
                if let previous, event.time.seconds < previous.time {
                    let at = try Object(item, path: event.path).member("at")
                    throw ScenarioError(
                        .timeOrder, path: ScenarioPath.child(event.path, "at"),
                        "\(format(event.time.seconds)) is earlier than the previous event (\(format(previous.time)))",
                        at: at?.value.location ?? event.location)
                }
                previous = (event.time.seconds, event.path)
                events.append(event)
            }
            return events
        }

        let expect = try doc.optional("expect") { v, p throws(ScenarioError) in
            try decodeExpect(v, p, context: context)
        }
        return Scenario(
            name: name, description: description, app: app, settings: settings, conformance: conformance,
            scene: sceneNodes, events: events, expect: expect)
    }

    static func decodeSettings(_ v: JSON, _ path: String) throws(ScenarioError) -> Scenario.Settings {
        let o = try Object(v, path: path)
        try o.allow(settingsKeys)
        var s = Scenario.Settings()
        if let t = try o.optional("liftThreshold", { v, p throws(ScenarioError) in try number(v, p, min: 0) }) {
            s.liftThreshold = t
        }
        if let t = try o.optional("touchHold", { v, p throws(ScenarioError) in try seconds(v, p) }) { s.touchHold = t }
        if let t = try o.optional("springDelay", { v, p throws(ScenarioError) in try seconds(v, p) }) { s.springDelay = t }
        if let t = try o.optional("springFlashLead", { v, p throws(ScenarioError) in try seconds(v, p) }) {
            s.springFlashLead = t
        }
        return s
    }

    static func decodeTypes(_ v: JSON, _ path: String) throws(ScenarioError) -> TypeConformance {
        var table = TypeConformance()
        for (i, item) in try array(v, path).enumerated() {
            let p = ScenarioPath.element(path, i)
            let o = try Object(item, path: p)
            try o.allow(["type", "conformsTo"])
            let type = try o.required("type") { v, p throws(ScenarioError) in try contentType(v, p) }
            let parents = try o.required("conformsTo") { v, p throws(ScenarioError) in try contentTypes(v, p) }
            table.declare(type, conformsTo: parents)
        }
        return table
    }

    // MARK: Nodes

    /// What node decoding collects across the tree: ids (for duplicates and references), and the
    /// references to check once every node is known.
    struct NodeContext {
        var settings: Scenario.Settings
        var ids: [TargetID: (path: String, role: NodeRole, acceptsDrops: Bool)] = [:]
        var references: [(id: TargetID, path: String, location: JSONLocation)] = []

        func checkReferences() throws(ScenarioError) {
            for r in references where ids[r.id] == nil {
                throw ScenarioError(
                    .unknownReference, path: r.path, "no node has the id \"\(r.id)\"\(suggestion(r.id.rawValue, ids.keys.map(\.rawValue)))",
                    at: r.location)
            }
        }
    }

    static func decodeNode(_ v: JSON, _ path: String, parent: SceneNode?, context: inout NodeContext)
        throws(ScenarioError) -> SceneNode
    {
        let o = try Object(v, path: path)
        try o.allow(nodeKeys)
        let id = TargetID(try o.required("id") { v, p throws(ScenarioError) in try nonEmptyString(v, p) })
        if let first = context.ids[id] {
            throw ScenarioError(
                .duplicateID, path: path, "duplicate id \"\(id)\" (first used at \(first.path))", at: v.location)
        }
        let name = try o.optional("name") { v, p throws(ScenarioError) in try nonEmptyString(v, p) } ?? id.rawValue
        let role = try o.required("role") { v, p throws(ScenarioError) -> NodeRole in
            NodeRole(rawValue: try oneOf(v, p, ["group", "container", "item", "dropPoint", "control"]))!
        }
        var node = SceneNode(id: id, name: name, role: role)
        node.frame = try o.optional("frame") { v, p throws(ScenarioError) in try rect(v, p) }

        if role == .item, parent?.role != .container, parent?.role != .item {
            throw ScenarioError(
                .sceneStructure, path: path,
                "item \"\(id)\" must be inside a container or a folder item, not \(parent.map { "a \($0.role.rawValue)" } ?? "at the top level")",
                at: v.location)
        }
        if node.frame == nil, !(role == .item && parent?.layout != nil) {
            let why =
                role == .item
                ? "its parent \"\(parent?.id.rawValue ?? "")\" has no \"layout\" to place it"
                : "only items of a container with a \"layout\" get one from it"
            throw ScenarioError(.sceneStructure, path: path, "\"\(id)\" needs a \"frame\": [x, y, width, height]; \(why)", at: v.location)
        }

        node.app = try o.optional("app") { v, p throws(ScenarioError) in AppID(try nonEmptyString(v, p)) }
        node.accepts = try o.optional("accepts") { v, p throws(ScenarioError) in try contentTypes(v, p) } ?? []
        node.offers = try o.optional("offers") { v, p throws(ScenarioError) in try contentTypes(v, p) } ?? []
        node.kind = try o.optional("kind") { v, p throws(ScenarioError) in try noun(v, p) } ?? .item
        node.layout = try o.optional("layout") { v, p throws(ScenarioError) in
            InsertionLayout(rawValue: try oneOf(v, p, ["vertical", "horizontal", "grid"]))!
        }
        if let size = try o.optional("itemSize", { v, p throws(ScenarioError) in try size(v, p) }) { node.itemSize = size }
        node.spacing = try o.optional("spacing") { v, p throws(ScenarioError) in try number(v, p, min: 0) } ?? 0
        node.padding = try o.optional("padding") { v, p throws(ScenarioError) in try number(v, p, min: 0) } ?? 0
        node.policy = try o.optional("policy") { v, p throws(ScenarioError) in try policy(v, p) } ?? .automatic
        let springDefaults = context.settings.springLoading
        node.springLoading = try o.optional("springLoaded") { v, p throws(ScenarioError) in
            try springLoading(v, p, defaults: springDefaults)
        } ?? nil
        node.autoscroll = try o.optional("autoscroll") { v, p throws(ScenarioError) in try autoscroll(v, p) } ?? nil
        node.contentHeight = try o.optional("contentHeight") { v, p throws(ScenarioError) in try number(v, p, min: 0) }
        if node.contentHeight != nil, node.frame == nil, let o = o.member("contentHeight") {
            throw ScenarioError(.invalidValue, path: o.path, "a scroll container needs its own \"frame\"", at: o.value.location)
        }
        node.clipsChildren = try o.optional("clips") { v, p throws(ScenarioError) in try bool(v, p) } ?? false
        node.isHidden = try o.optional("hidden") { v, p throws(ScenarioError) in try bool(v, p) } ?? false
        node.isMovable = try o.optional("movable") { v, p throws(ScenarioError) in try bool(v, p) } ?? true
        node.takesMovesFromOtherApps =
            try o.optional("movesFromOtherApps") { v, p throws(ScenarioError) in try bool(v, p) } ?? false
        node.confirmation = try o.optional("confirmation") { v, p throws(ScenarioError) in try nonEmptyString(v, p) }
        node.failure = try o.optional("fails") { v, p throws(ScenarioError) in try nonEmptyString(v, p) }
        node.cancellationTitle = try o.optional("cancellation") { v, p throws(ScenarioError) in try nonEmptyString(v, p) }
        node.transfer = try o.optional("transfer") { v, p throws(ScenarioError) in try transfer(v, p) }
        if let m = o.member("onActivate") {
            let a = try Object(m.value, path: m.path)
            try a.allow(["show", "hide"])
            for key in ["show", "hide"] {
                guard let list = a.member(key) else { continue }
                let ids = try idList(list.value, list.path)
                for (i, item) in ids.enumerated() {
                    context.references.append((item.id, ScenarioPath.element(list.path, i), item.location))
                }
                if key == "show" { node.showsOnActivate = ids.map(\.id) } else { node.hidesOnActivate = ids.map(\.id) }
            }
        }
        context.ids[id] = (path, role, !node.accepts.isEmpty)
        if let list = o.member("children") {
            for (i, child) in try array(list.value, list.path).enumerated() {
                node.children.append(try decodeNode(child, ScenarioPath.element(list.path, i), parent: node, context: &context))
            }
        }
        return node
    }

    static func springLoading(_ v: JSON, _ path: String, defaults: SpringLoadingConfiguration) throws(ScenarioError)
        -> SpringLoadingConfiguration?
    {
        if case .bool(let on) = v.value { return on ? defaults : nil }
        guard case .object = v.value else {
            throw wrongType(v, path, "true, false or an object {\"delay\": seconds, \"flashLead\": seconds}")
        }
        let o = try Object(v, path: path)
        try o.allow(["delay", "flashLead"])
        var c = defaults
        if let d = try o.optional("delay", { v, p throws(ScenarioError) in try seconds(v, p) }) { c.delay = d }
        if let d = try o.optional("flashLead", { v, p throws(ScenarioError) in try seconds(v, p) }) { c.flashLead = d }
        if c.flashLead > c.delay, let m = o.member("flashLead") ?? o.member("delay") {
            throw ScenarioError(
                .invalidValue, path: m.path,
                "the flash lead (\(format(c.flashLead.seconds)) s) is longer than the delay (\(format(c.delay.seconds)) s)",
                at: m.value.location)
        }
        return c
    }

    /// `{"duration": seconds, "steps": n, "failAt": fraction}`: a slow transfer with placeholders.
    static func transfer(_ v: JSON, _ path: String) throws(ScenarioError) -> SimulatedTransfer {
        let o = try Object(v, path: path)
        try o.allow(["duration", "steps", "failAt"])
        let duration = try o.required("duration") { v, p throws(ScenarioError) in try seconds(v, p) }
        let steps = try o.optional("steps") { v, p throws(ScenarioError) in try number(v, p, min: 1) } ?? 4
        let failAt = try o.optional("failAt") { v, p throws(ScenarioError) -> Double in
            let x = try number(v, p, min: 0)
            guard x <= 1 else { throw ScenarioError(.invalidValue, path: p, "failAt is a fraction from 0 to 1, not \(format(x))", at: v.location) }
            return x
        }
        guard steps == steps.rounded() else {
            throw ScenarioError(.invalidValue, path: path + ScenarioPath.key("steps"), "steps must be a whole number", at: v.location)
        }
        return SimulatedTransfer(duration: duration, steps: Int(steps), failAt: failAt)
    }

    static func autoscroll(_ v: JSON, _ path: String) throws(ScenarioError) -> AutoscrollConfiguration? {
        if case .bool(let on) = v.value { return on ? AutoscrollConfiguration() : nil }
        guard case .object = v.value else { throw wrongType(v, path, "true, false or an object") }
        let o = try Object(v, path: path)
        try o.allow(autoscrollKeys)
        var c = AutoscrollConfiguration()
        if let x = try o.optional("edgeZone", { v, p throws(ScenarioError) in try number(v, p, min: 1) }) { c.edgeZone = x }
        if let x = try o.optional("maximumSpeed", { v, p throws(ScenarioError) in try number(v, p, min: 0) }) {
            c.maximumSpeed = x
        }
        if let x = try o.optional("minimumSpeed", { v, p throws(ScenarioError) in try number(v, p, min: 0) }) {
            c.minimumSpeed = x
        }
        if let x = try o.optional("rampDuration", { v, p throws(ScenarioError) in try seconds(v, p) }) { c.rampDuration = x }
        if let x = try o.optional("initialRampFactor", { v, p throws(ScenarioError) in try number(v, p, min: 0, max: 1) }) {
            c.initialRampFactor = x
        }
        if let x = try o.optional("stepInterval", { v, p throws(ScenarioError) in try seconds(v, p, min: 0.001) }) {
            c.stepInterval = x
        }
        if let x = try o.optional("axes", { v, p throws(ScenarioError) in try oneOf(v, p, ["vertical", "horizontal", "both"]) }) {
            c.axes = x == "vertical" ? .vertical : x == "horizontal" ? .horizontal : .both
        }
        return c
    }

    static func policy(_ v: JSON, _ path: String) throws(ScenarioError) -> OperationPolicy {
        if case .object = v.value {
            let o = try Object(v, path: path)
            try o.allow(["forbidden"])
            let reason = try o.required("forbidden") { v, p throws(ScenarioError) in try nonEmptyString(v, p) }
            return .forbidden(reason: reason)
        }
        guard case .string = v.value else {
            throw wrongType(v, path, "\"automatic\", \"move\", \"copy\" or {\"forbidden\": \"reason\"}")
        }
        switch try oneOf(v, path, ["automatic", "move", "copy"]) {
        case "move": return .preferMove
        case "copy": return .alwaysCopy
        default: return .automatic
        }
    }

    static func noun(_ v: JSON, _ path: String) throws(ScenarioError) -> Noun {
        if case .string(let s) = v.value {
            guard !s.isEmpty else { throw ScenarioError(.invalidValue, path: path, "the kind is empty", at: v.location) }
            return Noun(s)
        }
        guard case .object = v.value else {
            throw wrongType(v, path, "a noun (\"reminder\") or {\"singular\": …, \"plural\": …}")
        }
        let o = try Object(v, path: path)
        try o.allow(["singular", "plural"])
        let singular = try o.required("singular") { v, p throws(ScenarioError) in try nonEmptyString(v, p) }
        let plural = try o.optional("plural") { v, p throws(ScenarioError) in try nonEmptyString(v, p) }
        return Noun(singular, plural: plural)
    }

    // MARK: Events

    static func decodeEvent(_ v: JSON, _ path: String, knownIDs: [TargetID: (path: String, role: NodeRole, acceptsDrops: Bool)])
        throws(ScenarioError) -> Scenario.Event
    {
        let o = try Object(v, path: path)
        let time = try o.required("at") { v, p throws(ScenarioError) in try seconds(v, p) }
        let note = try o.optional("note") { v, p throws(ScenarioError) in try string(v, p) }
        let present = o.members.filter { actions.contains($0.key) }
        let unknown = o.members.filter { !actions.contains($0.key) && actionOptions[$0.key] == nil && $0.key != "at" && $0.key != "note" }
        guard let action = present.first else {
            if let u = unknown.first {
                throw ScenarioError(
                    .unknownAction, path: path,
                    "unknown action \"\(u.key)\"\(suggestion(u.key, actions)); expected one of \(actions.joined(separator: ", "))",
                    at: u.keyLocation)
            }
            throw ScenarioError(
                .actionCount, path: path, "no action; expected one of \(actions.joined(separator: ", "))", at: v.location)
        }
        if present.count > 1 {
            throw ScenarioError(
                .actionCount, path: path,
                "has two actions, \"\(present[0].key)\" and \"\(present[1].key)\"; an event has exactly one (split it into two events)",
                at: present[1].keyLocation)
        }
        if let u = unknown.first {
            throw ScenarioError(
                .unknownField, path: path,
                "unknown field \"\(u.key)\"\(suggestion(u.key, actions + Array(actionOptions.keys) + ["at", "note"]))",
                at: u.keyLocation)
        }
        for m in o.members {
            if let owner = actionOptions[m.key], owner != action.key {
                throw ScenarioError(
                    .unknownField, path: path, "\"\(m.key)\" only goes with \"\(owner)\", not with \"\(action.key)\"",
                    at: m.keyLocation)
            }
        }
        let a = action.value
        let p = ScenarioPath.child(path, action.key)
        let result: Scenario.Step
        switch action.key {
        case "down":
            let kind = try o.optional("pointer") { v, p throws(ScenarioError) in
                PointerKind(rawValue: try oneOf(v, p, ["mouse", "touch", "pen"]))!
            } ?? .mouse
            result = .input(.pointerDown(try point(a, p), kind: kind))
        case "move":
            let steps = try o.optional("steps") { v, p throws(ScenarioError) in try integer(v, p, min: 1) } ?? 1
            result = .move(to: try point(a, p), steps: steps)
        case "up":
            if case .bool(true) = a.value { result = .releaseInPlace } else {
                guard case .array = a.value else { throw wrongType(a, p, "[x, y] or true") }
                result = .input(.pointerUp(try point(a, p)))
            }
        case "modifiers":
            var m: DragModifiers = []
            for (i, item) in try array(a, p).enumerated() {
                m.insert(try oneOf(item, ScenarioPath.element(p, i), ["copy", "move"]) == "copy" ? .forceCopy : .forceMove)
            }
            result = .input(.modifiers(m))
        case "key":
            result = .input(
                .key(DragKey(rawValue: try oneOf(a, p, ["pickUp", "nextDropPoint", "previousDropPoint", "drop", "cancel", "activate"]))!))
        case "tap": result = .input(.tap(try point(a, p)))
        case "select", "pickUp":
            let ids = try idList(a, p)
            if action.key == "pickUp", ids.isEmpty {
                throw ScenarioError(.invalidValue, path: p, "nothing to pick up; list at least one id", at: a.location)
            }
            result = .input(action.key == "select" ? .select(ids.map(\.id)) : .pickUp(ids.map(\.id)))
        case "confirm": result = .input(.confirm(try bool(a, p)))
        case "undo": try requireTrue(a, p); result = .input(.undo)
        case "redo": try requireTrue(a, p); result = .input(.redo)
        case "cancelAfterDrop": try requireTrue(a, p); result = .input(.cancelAfterDrop)
        case "cancelLoad": result = .input(.cancelLoad(DropToken(rawValue: try integer(a, p, min: 1))))
        case "externalExit": try requireTrue(a, p); result = .input(.externalDragExit)
        case "otherAppAllows":
            var allowed: DropOperations = []
            for (i, item) in try array(a, p).enumerated() {
                allowed.insert(try oneOf(item, ScenarioPath.element(p, i), ["copy", "move"]) == "copy" ? .copy : .move)
            }
            result = .input(.otherAppAllows(allowed))
        case "wait": try requireTrue(a, p); result = .wait
        default:  // externalEnter
            result = .input(try externalEnter(a, p, knownIDs: knownIDs))
        }
        return Scenario.Event(time: MonotonicInstant(time), step: result, note: note, path: path, location: v.location)
    }

    static func externalEnter(_ v: JSON, _ path: String, knownIDs: [TargetID: (path: String, role: NodeRole, acceptsDrops: Bool)])
        throws(ScenarioError) -> InputEvent
    {
        let o = try Object(v, path: path)
        try o.allow(["app", "items", "at"])
        let app = AppID(try o.required("app") { v, p throws(ScenarioError) in try nonEmptyString(v, p) })
        let at = try o.required("at") { v, p throws(ScenarioError) in try point(v, p) }
        let items = try o.required("items") { v, p throws(ScenarioError) -> [DragItem] in
            let list = try array(v, p)
            guard !list.isEmpty else { throw ScenarioError(.invalidValue, path: p, "no items; a drag carries at least one", at: v.location) }
            var items: [DragItem] = []
            var seen = Set<TargetID>()
            for (i, element) in list.enumerated() {
                let ip = ScenarioPath.element(p, i)
                let io = try Object(element, path: ip)
                try io.allow(["id", "name", "types", "kind"])
                let id = TargetID(try io.required("id") { v, p throws(ScenarioError) in try nonEmptyString(v, p) })
                if let existing = knownIDs[id] {
                    throw ScenarioError(
                        .duplicateID, path: ScenarioPath.child(ip, "id"),
                        "\"\(id)\" is already a node of the scene (\(existing.path)); items from another app need their own ids",
                        at: element.location)
                }
                if !seen.insert(id).inserted {
                    throw ScenarioError(.duplicateID, path: ScenarioPath.child(ip, "id"), "duplicate id \"\(id)\"", at: element.location)
                }
                let name = try io.optional("name") { v, p throws(ScenarioError) in try nonEmptyString(v, p) } ?? id.rawValue
                let types = try io.required("types") { v, p throws(ScenarioError) -> [ContentType] in
                    let t = try contentTypes(v, p)
                    guard !t.isEmpty else { throw ScenarioError(.invalidValue, path: p, "an item offers at least one type", at: v.location) }
                    return t
                }
                let kind = try io.optional("kind") { v, p throws(ScenarioError) in try noun(v, p) } ?? .item
                items.append(DragItem(id: id, name: name, kind: kind, types: types, app: app))
            }
            return items
        }
        return .externalDragEnter(items, at: at)
    }

    static func decodeExpect(_ v: JSON, _ path: String, context: NodeContext) throws(ScenarioError) -> [Scenario.Expectation] {
        let o = try Object(v, path: path)
        var result: [Scenario.Expectation] = []
        for m in o.members {
            let mp = ScenarioPath.child(path, m.key)
            let id = TargetID(m.key)
            guard let node = context.ids[id] else {
                throw ScenarioError(
                    .unknownReference, path: mp,
                    "no node has the id \"\(m.key)\"\(suggestion(m.key, context.ids.keys.map(\.rawValue)))", at: m.keyLocation)
            }
            guard node.role == .container || node.role == .dropPoint || (node.role == .item && node.acceptsDrops) else {
                throw ScenarioError(
                    .invalidValue, path: mp,
                    "\"\(m.key)\" is \(node.role == .item ? "an item" : "a \(node.role.rawValue)") that holds no items; expect lists containers, drop points and folders (items that accept drops)",
                    at: m.keyLocation)
            }
            result.append(Scenario.Expectation(container: id, items: try idList(m.value, mp).map(\.id)))
        }
        return result
    }

    // MARK: Scene errors

    static func sceneError(_ error: SceneError) -> ScenarioError {
        switch error {
        case .duplicateID(let id, let path): ScenarioError(.duplicateID, path: path, "duplicate id \"\(id)\"")
        case .missingFrame(let id, let path): ScenarioError(.sceneStructure, path: path, "\"\(id)\" needs a \"frame\"")
        case .itemOutsideContainer(let id, let path):
            ScenarioError(.sceneStructure, path: path, "item \"\(id)\" must be inside a container or a folder item")
        case .unknownTarget(let id, let path): ScenarioError(.unknownReference, path: path, "no node has the id \"\(id)\"")
        case .registry(let message, let path): ScenarioError(.sceneStructure, path: path, message)
        }
    }

    // MARK: Values

    /// An object's members, with the path to report them under.
    struct Object {
        struct Found {
            var value: JSON
            var path: String
        }

        let node: JSON
        let path: String
        let members: [JSON.Member]

        init(_ node: JSON, path: String) throws(ScenarioError) {
            guard case .object(let members) = node.value else { throw wrongType(node, path, "an object") }
            self.node = node
            self.path = path
            self.members = members
        }

        func member(_ key: String) -> Found? {
            members.first { $0.key == key }.map { Found(value: $0.value, path: ScenarioPath.child(path, key)) }
        }

        /// Rejects keys the format does not know, suggesting the nearest known one.
        func allow(_ keys: [String]) throws(ScenarioError) {
            for m in members where !keys.contains(m.key) {
                throw ScenarioError(
                    .unknownField, path: path,
                    "unknown field \"\(m.key)\"\(suggestion(m.key, keys)); known fields: \(keys.joined(separator: ", "))",
                    at: m.keyLocation)
            }
        }

        func required<T>(_ key: String, _ decode: (JSON, String) throws(ScenarioError) -> T) throws(ScenarioError) -> T {
            guard let m = member(key) else {
                throw ScenarioError(.missingField, path: path, "missing required field \"\(key)\"", at: node.location)
            }
            return try decode(m.value, m.path)
        }

        func optional<T>(_ key: String, _ decode: (JSON, String) throws(ScenarioError) -> T) throws(ScenarioError) -> T? {
            guard let m = member(key) else { return nil }
            return try decode(m.value, m.path)
        }
    }

    static func wrongType(_ v: JSON, _ path: String, _ expected: String) -> ScenarioError {
        ScenarioError(.wrongType, path: path, "expected \(expected), found \(v.kindName)", at: v.location)
    }

    static func string(_ v: JSON, _ path: String) throws(ScenarioError) -> String {
        guard case .string(let s) = v.value else { throw wrongType(v, path, "a string") }
        return s
    }

    static func nonEmptyString(_ v: JSON, _ path: String) throws(ScenarioError) -> String {
        let s = try string(v, path)
        guard !s.isEmpty else { throw ScenarioError(.invalidValue, path: path, "must not be empty", at: v.location) }
        return s
    }

    static func bool(_ v: JSON, _ path: String) throws(ScenarioError) -> Bool {
        guard case .bool(let b) = v.value else { throw wrongType(v, path, "true or false") }
        return b
    }

    static func requireTrue(_ v: JSON, _ path: String) throws(ScenarioError) {
        guard case .bool(true) = v.value else { throw wrongType(v, path, "true") }
    }

    static func number(_ v: JSON, _ path: String, min: Double? = nil, max: Double? = nil) throws(ScenarioError) -> Double {
        guard case .number(let n) = v.value else { throw wrongType(v, path, "a number") }
        if let min, n < min {
            throw ScenarioError(.invalidValue, path: path, "\(format(n)) is less than \(format(min))", at: v.location)
        }
        if let max, n > max {
            throw ScenarioError(.invalidValue, path: path, "\(format(n)) is more than \(format(max))", at: v.location)
        }
        return n
    }

    static func integer(_ v: JSON, _ path: String, min: Int) throws(ScenarioError) -> Int {
        let n = try number(v, path, min: Double(min))
        guard n == n.rounded(), n < 1_000_000 else {
            throw ScenarioError(.invalidValue, path: path, "expected a whole number below 1000000, found \(format(n))", at: v.location)
        }
        return Int(n)
    }

    /// A time in seconds.
    static func seconds(_ v: JSON, _ path: String, min: Double = 0) throws(ScenarioError) -> Duration {
        let n = try number(v, path, min: min)
        guard n < 1_000_000 else {
            throw ScenarioError(.invalidValue, path: path, "\(format(n)) s is too long (the limit is 1000000 s)", at: v.location)
        }
        return .seconds(n)
    }

    static func array(_ v: JSON, _ path: String) throws(ScenarioError) -> [JSON] {
        guard case .array(let items) = v.value else { throw wrongType(v, path, "an array") }
        return items
    }

    static func numbers(_ v: JSON, _ path: String, count: Int, shape: String) throws(ScenarioError) -> [Double] {
        guard case .array(let items) = v.value else { throw wrongType(v, path, shape) }
        guard items.count == count else {
            throw ScenarioError(.invalidValue, path: path, "expected \(shape), found \(items.count) numbers", at: v.location)
        }
        var result: [Double] = []
        for (i, item) in items.enumerated() {
            guard case .number(let n) = item.value else {
                throw wrongType(item, ScenarioPath.element(path, i), "a number (in \(shape))")
            }
            result.append(n)
        }
        return result
    }

    static func point(_ v: JSON, _ path: String) throws(ScenarioError) -> Point {
        let n = try numbers(v, path, count: 2, shape: "[x, y]")
        return Point(x: n[0], y: n[1])
    }

    static func size(_ v: JSON, _ path: String) throws(ScenarioError) -> Size {
        let n = try numbers(v, path, count: 2, shape: "[width, height]")
        for (i, x) in n.enumerated() where x < 0 {
            throw ScenarioError(.invalidValue, path: ScenarioPath.element(path, i), "a size cannot be negative", at: v.location)
        }
        return Size(width: n[0], height: n[1])
    }

    static func rect(_ v: JSON, _ path: String) throws(ScenarioError) -> Rect {
        let n = try numbers(v, path, count: 4, shape: "[x, y, width, height]")
        for i in 2...3 where n[i] < 0 {
            throw ScenarioError(
                .invalidValue, path: ScenarioPath.element(path, i), "the \(i == 2 ? "width" : "height") cannot be negative",
                at: v.location)
        }
        return Rect(x: n[0], y: n[1], width: n[2], height: n[3])
    }

    static func oneOf(_ v: JSON, _ path: String, _ allowed: [String]) throws(ScenarioError) -> String {
        guard case .string(let s) = v.value else {
            throw wrongType(v, path, "one of " + allowed.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        guard allowed.contains(s) else {
            throw ScenarioError(
                .invalidValue, path: path,
                "unknown value \"\(s)\"\(suggestion(s, allowed)); expected one of \(allowed.joined(separator: ", "))",
                at: v.location)
        }
        return s
    }

    static func contentType(_ v: JSON, _ path: String) throws(ScenarioError) -> ContentType {
        let t = ContentType(try string(v, path))
        guard t.isWellFormed else {
            throw ScenarioError(.invalidValue, path: path, "\"\(t.mimeType)\" is not a MIME type (type/subtype)", at: v.location)
        }
        return t
    }

    static func contentTypes(_ v: JSON, _ path: String) throws(ScenarioError) -> [ContentType] {
        var result: [ContentType] = []
        for (i, item) in try array(v, path).enumerated() {
            result.append(try contentType(item, ScenarioPath.element(path, i)))
        }
        return result
    }

    static func idList(_ v: JSON, _ path: String) throws(ScenarioError) -> [(id: TargetID, location: JSONLocation)] {
        var result: [(id: TargetID, location: JSONLocation)] = []
        var seen = Set<TargetID>()
        for (i, item) in try array(v, path).enumerated() {
            let id = TargetID(try nonEmptyString(item, ScenarioPath.element(path, i)))
            if !seen.insert(id).inserted {
                throw ScenarioError(.invalidValue, path: ScenarioPath.element(path, i), "\"\(id)\" is listed twice", at: item.location)
            }
            result.append((id, item.location))
        }
        return result
    }

    /// Numbers as people write them: 3, 0.25.
    static func format(_ n: Double) -> String {
        n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
    }

    /// The longest word ``suggestion(_:_:)`` looks at: longer ones are not typos of a field or
    /// an id, and comparing them would cost their length times each candidate's.
    static let longestSuggestedWord = 64

    /// ` (did you mean "steps"?)` when a known word is close to `word`, else "". Costs
    /// O(candidates), whatever their length: only words of similar, bounded lengths are compared.
    static func suggestion(_ word: String, _ candidates: [String]) -> String {
        let length = word.count
        guard length <= longestSuggestedWord else { return "" }
        let lower = word.lowercased()
        var best: (word: String, distance: Int)?
        for c in candidates {
            // At most three edits apart, so at most three characters longer or shorter: the
            // length of a long candidate is not even counted in full.
            let count = c.prefix(length + 4).count
            guard abs(count - length) <= 3 else { continue }
            let d = editDistance(lower, c.lowercased())
            let limit = max(1, min(3, max(length, count) / 3))
            if d <= limit, d < (best?.distance ?? .max) { best = (c, d) }
        }
        return best.map { " (did you mean \"\($0.word)\"?)" } ?? ""
    }

    /// Edits (insertions, deletions, substitutions, swaps of neighbours) from `a` to `b`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
