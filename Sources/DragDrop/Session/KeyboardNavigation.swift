/// Keys the engine understands for keyboard dragging (C4) and spring loading (SP3). The
/// platform maps its own key bindings to these.
public enum DragKey: String, Sendable, Hashable, Codable {
    /// Picks up the selection (platform binding, for example Ctrl+Shift+D or a menu command).
    case pickUp
    /// Moves the keyboard focus to the next drop point (Tab, Down).
    case nextDropPoint
    /// Moves the keyboard focus to the previous drop point (Shift+Tab, Up).
    case previousDropPoint
    /// Drops at the focused drop point (Return).
    case drop
    /// Cancels the drag (Escape).
    case cancel
    /// Activates the spring-loaded control under the pointer or focus at once (Space, SP3).
    case activate
}

/// What a key did (``DragEngine/keyDown(_:)``).
public enum KeyResult: Sendable, Hashable {
    /// Not used: no drag runs, or the key means nothing now.
    case ignored
    /// Used, and the drag goes on (the focus moved to another drop point, a control opened, a
    /// drop waits for its confirmation or for its drop point to show).
    case handled
    /// Used, and the drag ended: Return dropped, Escape cancelled.
    case ended(DropOutcome)

    /// Whether the key was used.
    public var wasHandled: Bool { self != .ignored }

    /// How the drag ended, when the key ended it.
    public var outcome: DropOutcome? {
        if case .ended(let outcome) = self { outcome } else { nil }
    }

    /// A used key that ended the drag with `outcome`, or left it going (nil).
    init(_ outcome: DropOutcome?) { self = outcome.map { .ended($0) } ?? .handled }
}

/// A place the keyboard can drop on: a destination, or a spring-loaded control to open.
public struct KeyboardDropPoint: Sendable, Hashable {
    /// The target.
    public var target: TargetID
    /// Its accessible name.
    public var name: String
    /// Whether items can be dropped on it (otherwise it only springs open).
    public var isDestination: Bool
    /// Whether Space opens it.
    public var isSpringLoaded: Bool
    /// In an outline, where in it (T5): each gap at each depth and each row that holds
    /// children is a drop point of its own, named by parent and position.
    public var outline: OutlineDropPoint? = nil

    /// Whether `other` is the same place (the same target, the same point in it).
    func isSamePlace(as other: KeyboardDropPoint) -> Bool { target == other.target && outline == other.outline }
}

/// The ordered drop points of a keyboard drag and the focused one.
struct KeyboardNavigation {
    var points: [KeyboardDropPoint]
    var focus: Int?
    var membershipVersion: Int
    /// A drop point of a container's model that is being brought on screen (a folder scrolled
    /// out of a virtualized list): the focus lands on it once it registers (C4).
    var revealing: Reveal?

    /// A model drop point on its way to the screen, and the direction that reached it.
    struct Reveal: Equatable {
        var container: TargetID
        var item: TargetID
        var forward: Bool
    }

    init(points: [KeyboardDropPoint], focus: Int?, membershipVersion: Int) {
        self.points = points
        self.focus = focus
        self.membershipVersion = membershipVersion
    }

    /// Drop points in reading order: top to bottom, then along each row in its direction (left
    /// to right, or right to left where the points' layout direction is right to left, L3),
    /// outer before inner; an outline's points (`outlinePoints`, nil for other targets) in its
    /// own order, in its place.
    static func points(
        in registry: TargetRegistry, masks: [TypeMask], excluding items: Set<TargetID>,
        outlinePoints: (DragTarget) -> [(OutlineDropPoint, String)]? = { _ in nil }
    )
        -> [KeyboardDropPoint]
    {
        var found: [(Rect, Int, KeyboardDropPoint, LayoutDirection)] = []
        for target in registry.allTargets where registry.isShown(target.id) {
            if items.contains(target.id) { continue }
            let ancestors = registry.ancestors(of: target.id)
            if ancestors.contains(where: items.contains) { continue }
            let isDestination = registry.accepts(target.id, masks: masks)
            let isSpring = target.springLoading != nil
            guard isDestination || isSpring else { continue }
            // A point reads in its container's direction (its parent's, or the engine's).
            let direction = target.parent.map(registry.layoutDirection(of:)) ?? registry.defaultLayoutDirection
            if isDestination, target.outline != nil, let inside = outlinePoints(target) {
                for (point, name) in inside {
                    found.append(
                        (
                            target.frame, ancestors.count,
                            KeyboardDropPoint(
                                target: target.id, name: name, isDestination: true, isSpringLoaded: false,
                                outline: point), direction
                        ))
                }
                continue
            }
            found.append(
                (
                    target.frame, ancestors.count,
                    KeyboardDropPoint(
                        target: target.id, name: target.name, isDestination: isDestination, isSpringLoaded: isSpring),
                    direction
                ))
        }
        // An outline's points keep their order (the sort is stable on the found order).
        let ordered = found.enumerated().sorted { x, y in
            let (a, b) = (x.element, y.element)
            if a.0.minY != b.0.minY { return a.0.minY < b.0.minY }
            // Two points of right-to-left rows: the one further right comes first.
            if a.3 == .rightToLeft && b.3 == .rightToLeft {
                if a.0.maxX != b.0.maxX { return a.0.maxX > b.0.maxX }
            } else if a.0.minX != b.0.minX {
                return a.0.minX < b.0.minX
            }
            if a.1 != b.1 { return a.1 < b.1 }
            if a.2.target != b.2.target { return a.2.target < b.2.target }
            return x.offset < y.offset
        }
        return ordered.map(\.element.2)
    }
}

/// Where a keyboard drag's focus goes next (C4), decided from the drop points alone: the
/// engine applies the step (focus a point, or have the delegate bring a model point on
/// screen) and says it.
///
/// The points of a container whose model has drop points of its own (the folders of a
/// virtualized list, `DragEngineDelegate.dragEngine(_:keyboardDropPointIn:after:forward:)`)
/// come together, right after the container, in the model's order, on screen or not.
/// Registered points that belong to such a model are reached through it, never by the
/// reading order. A model point is taken when it is a registered drop point, or not
/// registered and not dragged (on its way to the screen); one registered that takes not
/// every item, or a dragged item, is passed.
///
/// Cost: a step is O(points) plus the model points passed; ``reachableCount()`` walks every
/// model point once. Each container's "has a model" answer is asked once per route.
struct KeyboardRoute {
    /// What the engine does next.
    enum Step: Equatable {
        /// Focus drop point `index` of ``points``.
        case focus(Int)
        /// Bring a model point on screen; the focus lands on it once it is a drop point.
        case reveal(KeyboardNavigation.Reveal)
        /// There is no drop point at all.
        case none
    }

    /// The registered drop points, in reading order.
    let points: [KeyboardDropPoint]
    /// The container directly holding a target, nil at the top.
    let parent: (TargetID) -> TargetID?
    /// The model point of a container after `after` (nil: its first) going `forward` or back;
    /// nil at the end or for a container without a model.
    let modelPoint: (_ container: TargetID, _ after: TargetID?, _ forward: Bool) -> TargetID?
    /// Whether a model point is not registered and not dragged: one on its way to the screen.
    let onItsWay: (TargetID) -> Bool
    private let targets: Set<TargetID>
    private var blocks: [TargetID: Bool] = [:]

    init(
        points: [KeyboardDropPoint], parent: @escaping (TargetID) -> TargetID?,
        modelPoint: @escaping (_ container: TargetID, _ after: TargetID?, _ forward: Bool) -> TargetID?,
        onItsWay: @escaping (TargetID) -> Bool
    ) {
        self.points = points
        self.parent = parent
        self.modelPoint = modelPoint
        self.onItsWay = onItsWay
        targets = Set(points.map(\.target))
    }

    /// The step from the focused point `focus` (nil: none yet), or on from `revealing`, a model
    /// point on its way to the screen, going `forward` (Tab) or back (Shift+Tab).
    mutating func next(from focus: Int?, revealing: KeyboardNavigation.Reveal?, forward: Bool) -> Step {
        if let reveal = revealing {
            if let step = modelStep(in: reveal.container, after: reveal.item, forward: forward) { return .reveal(step) }
            return leave(reveal.container, from: focus, forward: forward)
        }
        guard !points.isEmpty else { return .none }
        guard let focus else { return scan(from: forward ? 0 : points.count - 1, forward: forward) }
        let point = points[focus].target
        if forward, isModelBlock(point), let step = modelStep(in: point, after: nil, forward: true) {
            return .reveal(step)
        }
        if let parent = parent(point), isModelBlock(parent) {
            if let step = modelStep(in: parent, after: point, forward: forward) { return .reveal(step) }
            return leave(parent, from: focus, forward: forward)
        }
        let count = points.count
        return scan(from: forward ? (focus + 1) % count : (focus - 1 + count) % count, forward: forward)
    }

    /// How many drop points the drag reaches (said at the pick-up): the registered ones, but
    /// those of a container's model counted from the model, on screen or not.
    mutating func reachableCount() -> Int {
        var containers: [TargetID] = []
        var count = 0
        for point in points {
            if let parent = parent(point.target), isModelBlock(parent) {
                if !containers.contains(parent) { containers.append(parent) }
                continue
            }
            count += 1
            if isModelBlock(point.target), !containers.contains(point.target) { containers.append(point.target) }
        }
        for container in containers {
            var after: TargetID?
            var seen: Set<TargetID> = []
            while let next = modelPoint(container, after, true), seen.insert(next).inserted {
                if takes(next) { count += 1 }
                after = next
            }
        }
        return count
    }

    /// Where the focus goes from the points of a container's model (going forward, past its
    /// last; backward, before its first): backward to the container itself, forward to the
    /// next point after it outside it.
    private mutating func leave(_ container: TargetID, from focus: Int?, forward: Bool) -> Step {
        guard !points.isEmpty else { return .none }
        let count = points.count
        guard let index = points.firstIndex(where: { $0.target == container }) else {
            let from = focus ?? (forward ? count - 1 : 0)
            return scan(from: forward ? (from + 1) % count : (from - 1 + count) % count, forward: forward)
        }
        return forward ? scan(from: (index + 1) % count, forward: true) : .focus(index)
    }

    /// The first point from `start` in the direction of travel that does not belong to a
    /// container's model (those are reached through their container); coming backward onto a
    /// container with a model, its last model point.
    private mutating func scan(from start: Int, forward: Bool) -> Step {
        guard !points.isEmpty else { return .none }
        let count = points.count
        var index = start
        for _ in 0..<count {
            let point = points[index].target
            if let parent = parent(point), isModelBlock(parent) {
                // A container's model point: skipped, unless its container is no drop point.
                if !targets.contains(parent), let step = modelStep(in: parent, after: nil, forward: forward) {
                    return .reveal(step)
                }
            } else if !forward, isModelBlock(point), let step = modelStep(in: point, after: nil, forward: false) {
                return .reveal(step)
            } else {
                return .focus(index)
            }
            index = forward ? (index + 1) % count : (index - 1 + count) % count
        }
        return .focus(start)
    }

    /// Whether `container`'s model has drop points of its own (asked once a route).
    private mutating func isModelBlock(_ container: TargetID) -> Bool {
        if let answer = blocks[container] { return answer }
        let answer = modelPoint(container, nil, true) != nil
        blocks[container] = answer
        return answer
    }

    /// Whether the route stops at model point `point`.
    private func takes(_ point: TargetID) -> Bool { targets.contains(point) || onItsWay(point) }

    /// The next point of `container`'s model after `item` that the route stops at; nil when
    /// there is none.
    private func modelStep(in container: TargetID, after item: TargetID?, forward: Bool) -> KeyboardNavigation.Reveal? {
        var after = item
        var seen: Set<TargetID> = []
        while let next = modelPoint(container, after, forward), seen.insert(next).inserted {
            if takes(next) { return .init(container: container, item: next, forward: forward) }
            after = next
        }
        return nil
    }
}
