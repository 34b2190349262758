import DragDrop

/// `{"t":…,"kind":"feedback","event":NAME,…}`: one piece of the engine's feedback, in the
/// timeline schema of `docs/scenarios.md` (the same names and fields as `dragdrop replay`
/// prints). Fields a feedback event does not have are absent.
public struct FeedbackLine: AppEvent {
    public static let kind = "feedback"
    /// Seconds on the engine's clock.
    public var t: Double
    /// The event's name: "lifted", "highlightOn", "committed", "outcome"...
    public var event: String
    public var target: String?
    public var destination: String?
    public var items: [String]?
    public var at: [Double]?
    public var mode: String?
    public var count: Int?
    public var flocked: Bool?
    public var badge: String?
    public var operation: String?
    public var reason: String?
    public var index: Int?
    public var explicit: Bool?
    public var by: [Double]?
    public var message: String?
    public var outcome: String?
    public var failure: String?
    public var token: Int?
    public var app: String?
    public var fraction: Double?
    public var title: String?
    public var text: String?
    public var action: String?
    /// An outline's drop point (`outlineDrop`): "between" (with ``parent``, ``index`` and
    /// ``depth``; no parent: the top level) or "on" (with ``row``); absent when none shows.
    public var place: String?
    public var parent: String?
    public var depth: Int?
    public var row: String?

    public init(t: Double, event: String) {
        self.t = t
        self.event = event
    }

    /// The line for `feedback`, given at `time` on the engine's clock.
    public init(_ feedback: FeedbackEvent, at time: MonotonicInstant) {
        self.init(t: time.seconds, event: "")
        func id(_ id: TargetID?) -> String? { id?.rawValue }
        func ids(_ ids: [TargetID]) -> [String] { ids.map(\.rawValue) }
        func set(_ op: DropOperation) {
            if case .forbidden(let why) = op {
                operation = "forbidden"
                reason = why
            } else {
                operation = op.name
            }
        }
        switch feedback {
        case .lifted(let lifted, let point, let how):
            event = "lifted"
            items = ids(lifted)
            at = [point.x, point.y]
            mode = how.rawValue
        case .itemsAdded(let added):
            event = "itemsAdded"
            items = ids(added)
        case .preview(let p):
            event = "preview"
            count = p.count
            flocked = p.isFlocked
            badge = p.badge.rawValue
        case .proposal(let d, let op):
            event = "proposal"
            destination = id(d)
            set(op)
        case .highlight(let t, let on):
            event = on ? "highlightOn" : "highlightOff"
            target = id(t)
        case .insertion(let t, let i):
            event = "insertion"
            target = id(t)
            index = i
        case .outlineDrop(let t, let point):
            event = "outlineDrop"
            target = id(t)
            switch point {
            case .between(let p, let i, let d)?:
                place = "between"
                parent = id(p)
                index = i
                depth = d
            case .on(let r)?:
                place = "on"
                row = r.rawValue
            case nil:
                break
            }
        case .springArmed(let t):
            event = "springArmed"
            target = id(t)
        case .springFlash(let t):
            event = "springFlash"
            target = id(t)
        case .springActivated(let t, let isExplicit):
            event = "springActivated"
            target = id(t)
            explicit = isExplicit
        case .springDisarmed(let t):
            event = "springDisarmed"
            target = id(t)
        case .autoscrollStarted(let t):
            event = "autoscrollStarted"
            target = id(t)
        case .autoscrolled(let t, let v):
            event = "autoscrolled"
            target = id(t)
            by = [v.dx, v.dy]
        case .autoscrollStopped(let t):
            event = "autoscrollStopped"
            target = id(t)
        case .confirmationRequested(let t, let text):
            event = "confirmationRequested"
            target = id(t)
            message = text
        case .dropped(let d, let op, let i):
            event = "dropped"
            destination = id(d)
            set(op)
            index = i
        case .committed(let d, let committed, let op, let i):
            event = "committed"
            destination = id(d)
            items = ids(committed)
            set(op)
            index = i
        case .sourceRemoved(let removed):
            event = "sourceRemoved"
            items = ids(removed)
        case .outcome(let how):
            event = "outcome"
            outcome = how.name
            switch how {
            case .completed(let d, let op):
                destination = id(d)
                set(op)
            case .returnToSource(let f), .evaporate(let f):
                failure = f.code.rawValue
                reason = f.message
            case .placeholder(let d, let t):
                destination = id(d)
                token = Int(t.rawValue)
            case .handedOff(let other, let performed):
                app = other?.rawValue
                operation = performed.name
            }
        case .placeholderInserted(let t, let tok, let i, let n):
            event = "placeholderInserted"
            target = id(t)
            token = Int(tok.rawValue)
            index = i
            count = n
        case .placeholderProgress(let tok, let f):
            event = "placeholderProgress"
            token = Int(tok.rawValue)
            fraction = f
        case .placeholderResolved(let tok):
            event = "placeholderResolved"
            token = Int(tok.rawValue)
        case .placeholderFailed(let tok, let f):
            event = "placeholderFailed"
            token = Int(tok.rawValue)
            failure = f.code.rawValue
            reason = f.message
        case .cancellationOffered(let t, let name):
            event = "cancellationOffered"
            target = id(t)
            title = name
        case .cancellationUsed(let t):
            event = "cancellationUsed"
            target = id(t)
        case .announcement(let sentence):
            event = "announcement"
            text = sentence.text
        case .keyboardFocus(let t, let i):
            event = "keyboardFocus"
            target = id(t)
            index = i
        case .undid(let name):
            event = "undid"
            action = name
        case .redid(let name):
            event = "redid"
            action = name
        case .clicked(let t):
            event = "clicked"
            target = id(t)
        }
    }
}
