/// What a drop would do, proposed continuously while dragging (S2, S3).
public enum DropOperation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The content is duplicated; the source keeps it. Badge: plus.
    case copy
    /// The content leaves the source once the destination commits it (S4). No badge.
    case move
    /// A destination is under the pointer but cannot take the content now. Badge: not-allowed.
    case forbidden(reason: String)
    /// Nothing would happen: no destination accepts the content here. No badge.
    case cancel

    /// The badge that must accompany this proposal.
    public var badge: Badge {
        switch self {
        case .copy: .copy
        case .forbidden: .forbidden
        case .move, .cancel: .none
        }
    }

    /// Whether a drop with this proposal would change anything.
    public var isPerformable: Bool {
        switch self {
        case .copy, .move: true
        case .forbidden, .cancel: false
        }
    }

    /// A short lowercase verb: "copy", "move", "forbidden", "cancel".
    public var name: String {
        switch self {
        case .copy: "copy"
        case .move: "move"
        case .forbidden: "forbidden"
        case .cancel: "cancel"
        }
    }

    public var description: String {
        if case .forbidden(let reason) = self { return "forbidden(\(reason))" }
        return name
    }
}

/// The symbol on the drag image (S3).
public enum Badge: String, Sendable, Hashable, Codable {
    /// No symbol: a move, or nothing to drop on.
    case none
    /// A plus sign: the drop copies.
    case copy
    /// A circle with a slash: the drop is impossible here.
    case forbidden
}

/// Modifier keys held during a drag.
public struct DragModifiers: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Forces a copy (Ctrl on Linux, Option on a Mac).
    public static let forceCopy = DragModifiers(rawValue: 1)
    /// Forces a move where the destination allows it (Shift on Linux): inside one app, and from
    /// another app onto a destination that ``DragTarget/takesMovesFromOtherApps``.
    public static let forceMove = DragModifiers(rawValue: 2)
}

/// The operations another app's drag allows (S2): what its source offers, which the platform
/// reports per move (an X11 source that suggests a move while Shift is held is given to GTK 4.8's
/// drop with that one action).
public struct DropOperations: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The content may be copied.
    public static let copy = DropOperations(rawValue: 1)
    /// The content may be moved.
    public static let move = DropOperations(rawValue: 2)
    /// Copy and move: what this app's own drags allow.
    public static let all: DropOperations = [.copy, .move]
}

/// The default operation rules (S2) as a pure function, shared by the engine and the auditor.
public enum OperationRules {
    /// The proposal for dropping items from `sourceContainers` and `sourceApp` onto
    /// `destination` (of `destinationApp`) under `policy`, with `modifiers` held.
    ///
    /// Same container moves; another container copies; another app copies, unless the person
    /// holds ``DragModifiers/forceMove`` over a destination that `takesMovesFromOtherApps`; a
    /// ``OperationPolicy/preferMove`` destination moves in-app drops; ``DragModifiers/forceCopy``
    /// copies; ``DragModifiers/forceMove`` moves. Items that may not leave their place
    /// (`itemsMovable` false: read-only content) are copied where they would move.
    ///
    /// Another app's drag may allow less than both (`sourceAllows`): a move it does not allow
    /// is a copy; a copy it does not allow is a move where the destination carries out other
    /// apps' moves (and does not always copy), and otherwise forbidden, with the reason
    /// (``onlyMoveReason(sourceApp:destinationName:)``), so the destination is not highlighted
    /// for a drop it would refuse (F4).
    public static func propose(
        sourceContainers: [TargetID?],
        sourceApp: AppID,
        destination: TargetID,
        destinationApp: AppID,
        policy: OperationPolicy,
        modifiers: DragModifiers,
        itemsMovable: Bool = true,
        takesMovesFromOtherApps: Bool = false,
        sourceAllows: DropOperations = .all,
        destinationName: String = ""
    ) -> DropOperation {
        var operation = proposeIgnoringMovability(
            sourceContainers: sourceContainers, sourceApp: sourceApp, destination: destination,
            destinationApp: destinationApp, policy: policy, modifiers: modifiers,
            takesMovesFromOtherApps: takesMovesFromOtherApps)
        if operation == .move && !itemsMovable { operation = .copy }
        guard sourceApp != destinationApp, sourceAllows != .all else { return operation }
        switch operation {
        case .move where !sourceAllows.contains(.move):
            return sourceAllows.contains(.copy)
                ? .copy : .forbidden(reason: nothingReason(sourceApp: sourceApp))
        case .copy where !sourceAllows.contains(.copy):
            if sourceAllows.contains(.move), takesMovesFromOtherApps, policy != .alwaysCopy, itemsMovable {
                return .move
            }
            return .forbidden(
                reason: sourceAllows.contains(.move)
                    ? onlyMoveReason(sourceApp: sourceApp, destinationName: destinationName)
                    : nothingReason(sourceApp: sourceApp))
        default:
            return operation
        }
    }

    /// Why a destination that copies what other apps drop refuses a drag that `sourceApp`
    /// allows only to move: "'Thunar' allows only a move, and Notes copies what other apps
    /// drop.".
    public static func onlyMoveReason(sourceApp: AppID, destinationName: String) -> String {
        if destinationName.isEmpty { return Localization.format(.onlyMoveHere, ["app": .name(sourceApp.rawValue)]) }
        return Localization.format(.onlyMove, ["app": .name(sourceApp.rawValue), "destination": .name(destinationName)])
    }

    /// Why nothing takes a drag that `sourceApp` allows neither to copy nor to move.
    public static func nothingReason(sourceApp: AppID) -> String {
        Localization.format(.neitherCopyNorMove, ["app": .name(sourceApp.rawValue)])
    }

    private static func proposeIgnoringMovability(
        sourceContainers: [TargetID?], sourceApp: AppID, destination: TargetID, destinationApp: AppID,
        policy: OperationPolicy, modifiers: DragModifiers, takesMovesFromOtherApps: Bool
    ) -> DropOperation {
        if case .forbidden(let reason) = policy { return .forbidden(reason: reason) }
        if sourceApp != destinationApp {
            let moves = takesMovesFromOtherApps && policy != .alwaysCopy && modifiers == .forceMove
            return moves ? .move : .copy
        }
        if modifiers.contains(.forceCopy) { return .copy }
        if policy == .alwaysCopy { return .copy }
        if modifiers.contains(.forceMove) { return .move }
        if policy == .preferMove { return .move }
        let allSame = !sourceContainers.isEmpty && sourceContainers.allSatisfy { $0 == destination }
        return allSame ? .move : .copy
    }
}
