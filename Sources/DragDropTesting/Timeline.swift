import DragDrop

/// Input given to the engine by a test or scenario, recorded in the timeline before what it
/// caused.
public enum InputEvent: Sendable, Hashable {
    case pointerDown(Point, kind: PointerKind)
    case pointerMove(Point)
    case pointerUp(Point)
    case modifiers(DragModifiers)
    case key(DragKey)
    case tap(Point)
    case select([TargetID])
    case pickUp([TargetID])
    case confirm(Bool)
    case undo
    case redo
    case cancelAfterDrop
    /// Cancels a drop still loading (``DragEngine/cancelDeferredDrop(_:)``).
    case cancelLoad(DropToken)
    case externalDragEnter([DragItem], at: Point)
    case externalDragExit
    /// What another app's drag allows changed (``DragEngine/otherAppAllows(_:)``).
    case otherAppAllows(DropOperations)
}

/// One line of the timeline: an input or a piece of feedback, at a virtual instant.
public struct TimelineEntry: Sendable, Hashable {
    /// When it happened.
    public var time: MonotonicInstant
    /// What happened.
    public var event: Event

    /// Input or feedback.
    public enum Event: Sendable, Hashable {
        case input(InputEvent)
        case feedback(FeedbackEvent)
    }

    public init(time: MonotonicInstant, event: Event) {
        self.time = time
        self.event = event
    }
}

/// A JSON value with ordered object keys, for stable one-line output.
public indirect enum JSONValue: Sendable, Hashable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.serialized == rhs.serialized }
    public func hash(into hasher: inout Hasher) { hasher.combine(serialized) }

    /// Compact JSON text.
    public var serialized: String {
        switch self {
        case .string(let s): return Self.quote(s)
        case .number(let n): return n.isFinite ? Self.number(n) : "null"
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let items): return "[" + items.map(\.serialized).joined(separator: ",") + "]"
        case .object(let pairs):
            return "{" + pairs.map { Self.quote($0.0) + ":" + $0.1.serialized }.joined(separator: ",") + "}"
        }
    }

    private static func number(_ n: Double) -> String {
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        let rounded = (n * 1e6).rounded() / 1e6
        return String(rounded)
    }

    private static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

extension TimelineEntry {
    /// The entry as one JSON object: `{"t":…,"kind":"input"|"feedback","event":NAME,…fields}`.
    /// The schema is documented in `docs/scenarios.md`.
    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [("t", .number(time.seconds))]
        switch event {
        case .input(let input):
            fields.append(("kind", .string("input")))
            fields += Self.fields(input)
        case .feedback(let feedback):
            fields.append(("kind", .string("feedback")))
            fields += Self.fields(feedback)
        }
        return .object(fields)
    }

    static func point(_ p: Point) -> JSONValue { .array([.number(p.x), .number(p.y)]) }
    static func ids(_ ids: [TargetID]) -> JSONValue { .array(ids.map { .string($0.rawValue) }) }
    /// `["copy", "move"]`, the names of `operations` (the scenario format's too).
    static func operationNames(_ operations: DropOperations) -> [JSONValue] {
        var names: [JSONValue] = []
        if operations.contains(.copy) { names.append(.string("copy")) }
        if operations.contains(.move) { names.append(.string("move")) }
        return names
    }
    static func id(_ id: TargetID?) -> JSONValue { id.map { .string($0.rawValue) } ?? .null }
    static func operation(_ op: DropOperation) -> [(String, JSONValue)] {
        if case .forbidden(let reason) = op {
            return [("operation", .string("forbidden")), ("reason", .string(reason))]
        }
        return [("operation", .string(op.name))]
    }

    static func fields(_ input: InputEvent) -> [(String, JSONValue)] {
        switch input {
        case .pointerDown(let p, let kind):
            return [("event", .string("pointerDown")), ("at", point(p)), ("pointer", .string(kind.rawValue))]
        case .pointerMove(let p): return [("event", .string("pointerMove")), ("at", point(p))]
        case .pointerUp(let p): return [("event", .string("pointerUp")), ("at", point(p))]
        case .modifiers(let m):
            var names: [JSONValue] = []
            if m.contains(.forceCopy) { names.append(.string("copy")) }
            if m.contains(.forceMove) { names.append(.string("move")) }
            return [("event", .string("modifiers")), ("modifiers", .array(names))]
        case .key(let k): return [("event", .string("key")), ("key", .string(k.rawValue))]
        case .tap(let p): return [("event", .string("tap")), ("at", point(p))]
        case .select(let items): return [("event", .string("select")), ("items", ids(items))]
        case .pickUp(let items): return [("event", .string("pickUp")), ("items", ids(items))]
        case .confirm(let ok): return [("event", .string("confirm")), ("accepted", .bool(ok))]
        case .undo: return [("event", .string("undo"))]
        case .redo: return [("event", .string("redo"))]
        case .cancelAfterDrop: return [("event", .string("cancelAfterDrop"))]
        case .cancelLoad(let token):
            return [("event", .string("cancelLoad")), ("token", .number(Double(token.rawValue)))]
        case .externalDragEnter(let items, let p):
            return [
                ("event", .string("externalDragEnter")), ("items", ids(items.map(\.id))),
                ("app", .string(items.first?.app.rawValue ?? "")), ("at", point(p)),
            ]
        case .externalDragExit: return [("event", .string("externalDragExit"))]
        case .otherAppAllows(let allowed):
            return [("event", .string("otherAppAllows")), ("operations", .array(Self.operationNames(allowed)))]
        }
    }

    static func fields(_ event: FeedbackEvent) -> [(String, JSONValue)] {
        switch event {
        case .lifted(let items, let at, let mode):
            return [
                ("event", .string("lifted")), ("items", ids(items)), ("at", point(at)),
                ("mode", .string(mode.rawValue)),
            ]
        case .itemsAdded(let items): return [("event", .string("itemsAdded")), ("items", ids(items))]
        case .preview(let p):
            return [
                ("event", .string("preview")), ("count", .number(Double(p.count))), ("flocked", .bool(p.isFlocked)),
                ("badge", .string(p.badge.rawValue)),
            ]
        case .proposal(let d, let op): return [("event", .string("proposal")), ("destination", id(d))] + operation(op)
        case .highlight(let t, let on):
            return [("event", .string(on ? "highlightOn" : "highlightOff")), ("target", id(t))]
        case .insertion(let t, let index):
            return [
                ("event", .string("insertion")), ("target", id(t)),
                ("index", index.map { .number(Double($0)) } ?? .null),
            ]
        case .outlineDrop(let t, let point):
            var f: [(String, JSONValue)] = [("event", .string("outlineDrop")), ("target", id(t))]
            switch point {
            case .between(let parent, let index, let depth)?:
                f += [
                    ("place", .string("between")), ("parent", id(parent)), ("index", .number(Double(index))),
                    ("depth", .number(Double(depth))),
                ]
            case .on(let row)?: f += [("place", .string("on")), ("row", id(row))]
            case nil: f += [("place", .null)]
            }
            return f
        case .springArmed(let t): return [("event", .string("springArmed")), ("target", id(t))]
        case .springFlash(let t): return [("event", .string("springFlash")), ("target", id(t))]
        case .springActivated(let t, let explicit):
            return [("event", .string("springActivated")), ("target", id(t)), ("explicit", .bool(explicit))]
        case .springDisarmed(let t): return [("event", .string("springDisarmed")), ("target", id(t))]
        case .autoscrollStarted(let t): return [("event", .string("autoscrollStarted")), ("target", id(t))]
        case .autoscrolled(let t, let v):
            return [
                ("event", .string("autoscrolled")), ("target", id(t)), ("by", .array([.number(v.dx), .number(v.dy)])),
            ]
        case .autoscrollStopped(let t): return [("event", .string("autoscrollStopped")), ("target", id(t))]
        case .confirmationRequested(let t, let message):
            return [("event", .string("confirmationRequested")), ("target", id(t)), ("message", .string(message))]
        case .dropped(let d, let op, let index):
            return [("event", .string("dropped")), ("destination", id(d))] + operation(op) + [
                ("index", index.map { .number(Double($0)) } ?? .null)
            ]
        case .committed(let d, let items, let op, let index):
            return [("event", .string("committed")), ("destination", id(d)), ("items", ids(items))] + operation(op) + [
                ("index", index.map { .number(Double($0)) } ?? .null)
            ]
        case .sourceRemoved(let items): return [("event", .string("sourceRemoved")), ("items", ids(items))]
        case .outcome(let outcome):
            var f: [(String, JSONValue)] = [("event", .string("outcome")), ("outcome", .string(outcome.name))]
            switch outcome {
            case .completed(let d, let op): f += [("destination", id(d))] + operation(op)
            case .returnToSource(let failure), .evaporate(let failure):
                f += [("failure", .string(failure.code.rawValue)), ("reason", .string(failure.message))]
            case .placeholder(let d, let token):
                f += [("destination", id(d)), ("token", .number(Double(token.rawValue)))]
            case .handedOff(let app, let operation):
                f += [("app", app.map { .string($0.rawValue) } ?? .null), ("operation", .string(operation.name))]
            }
            return f
        case .placeholderInserted(let t, let token, let index, let count):
            return [
                ("event", .string("placeholderInserted")), ("target", id(t)),
                ("token", .number(Double(token.rawValue))),
                ("index", index.map { .number(Double($0)) } ?? .null), ("count", .number(Double(count))),
            ]
        case .placeholderProgress(let token, let fraction):
            return [
                ("event", .string("placeholderProgress")), ("token", .number(Double(token.rawValue))),
                ("fraction", fraction.map { .number($0) } ?? .null),
            ]
        case .placeholderResolved(let token):
            return [("event", .string("placeholderResolved")), ("token", .number(Double(token.rawValue)))]
        case .placeholderFailed(let token, let failure):
            return [
                ("event", .string("placeholderFailed")), ("token", .number(Double(token.rawValue))),
                ("failure", .string(failure.code.rawValue)), ("reason", .string(failure.message)),
            ]
        case .cancellationOffered(let t, let title):
            return [("event", .string("cancellationOffered")), ("target", id(t)), ("title", .string(title))]
        case .cancellationUsed(let t): return [("event", .string("cancellationUsed")), ("target", id(t))]
        case .announcement(let s): return [("event", .string("announcement")), ("text", .string(s.text))]
        case .keyboardFocus(let t, let index):
            return [
                ("event", .string("keyboardFocus")), ("target", id(t)),
                ("index", index.map { .number(Double($0)) } ?? .null),
            ]
        case .undid(let name): return [("event", .string("undid")), ("action", .string(name))]
        case .redid(let name): return [("event", .string("redid")), ("action", .string(name))]
        case .clicked(let t): return [("event", .string("clicked")), ("target", id(t))]
        }
    }
}
