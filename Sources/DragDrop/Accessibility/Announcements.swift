/// The sentences the engine gives assistive technology to speak (C4). Kept in one place so an
/// app can read what will be said, and so the wording stays consistent.
public enum Announcements {
    /// "'Milk'" for one item, "3 photos" for several of one kind, "3 items" for a mix: the
    /// items inside other sentences, in the current language (``Localization``).
    public static func describe(_ items: [DragItem]) -> String {
        if items.count == 1, let only = items.first { return quoted(only.name) }
        return noun(for: items).counted(items.count)
    }

    /// "'Milk'": one item's name as sentences quote it ("«Milk»" in Russian).
    static func quoted(_ name: String) -> String {
        Localization.format(.quotedItem, ["name": .name(name)])
    }

    /// The shared noun of the items, or "item" for a mix.
    public static func noun(for items: [DragItem]) -> Noun {
        guard let first = items.first?.kind else { return .item }
        return items.allSatisfy { $0.kind == first } ? first : .item
    }

    /// "Picked up 3 photos."
    public static func pickedUp(_ items: [DragItem]) -> String {
        Localization.format(.pickedUp, ["items": .text(describe(items))])
    }

    /// "Added 'Beach'. Dragging 4 photos."
    public static func added(_ added: [DragItem], total: [DragItem]) -> String {
        Localization.format(
            .added, ["items": .text(describe(added)), "total": .text(noun(for: total).counted(total.count))])
    }

    /// "Over Album 'Trips', will copy." / "Over Archive, cannot drop: read-only." / "Not over a drop point."
    public static func over(_ name: String?, _ operation: DropOperation) -> String {
        guard let name else { return Localization.format(.notOver) }
        let destination: [String: MessageArgument] = ["destination": .name(name)]
        switch operation {
        case .copy: return Localization.format(.overCopy, destination)
        case .move: return Localization.format(.overMove, destination)
        case .forbidden(let reason):
            let because = Sentence.clause(reason)
            if because.isEmpty { return Localization.format(.overForbidden, destination) }
            return Localization.format(
                .overForbiddenBecause, destination.merging(["reason": .text(because)]) { a, _ in a })
        case .cancel: return Localization.format(.overCancel, destination)
        }
    }

    /// "Copied 3 photos to Album 'Trips'."
    public static func completed(_ items: [DragItem], _ operation: DropOperation, to name: String) -> String {
        Localization.format(
            operation == .move ? .moved : .copied, ["items": .text(describe(items)), "destination": .name(name)])
    }

    /// "Copied 'Report' to Thunar.", "Moved 2 files to Thunar." or, when another app moved
    /// only some of them, "Moved 'a.txt' to Thunar; 'b.txt' stayed here."
    public static func handedOff(_ items: [DragItem], moved: [DragItem], to name: String) -> String {
        if moved.isEmpty { return completed(items, .copy, to: name) }
        if moved.count == items.count { return completed(items, .move, to: name) }
        let left = Set(moved.map(\.id))
        let kept = items.filter { !left.contains($0.id) }
        return Localization.format(
            .movedPartly, ["moved": .text(describe(moved)), "destination": .name(name), "kept": .text(describe(kept))])
    }

    /// "Not dropped: <reason>."
    public static func failed(_ items: [DragItem], _ failure: DropFailure) -> String {
        let because = Sentence.clause(failure.message)
        if because.isEmpty { return Localization.format(.notDropped) }
        return Localization.format(.notDroppedBecause, ["reason": .text(because)])
    }

    /// "Adding 'Beach' to Album 'Trips'." while a deferred drop's data arrives (A4).
    public static func adding(_ items: [DragItem], to name: String) -> String {
        Localization.format(.adding, ["items": .text(describe(items)), "destination": .name(name)])
    }

    /// "Stopped adding 3 photos to Album 'Trips'."
    public static func loadCancelled(_ items: [DragItem], to name: String) -> String {
        Localization.format(.stoppedAdding, ["items": .text(describe(items)), "destination": .name(name)])
    }

    /// "Drop on Archive? <question>"
    public static func confirm(_ name: String, _ message: String) -> String {
        Localization.format(
            .confirm, ["destination": .name(Sentence.clause(name)), "question": .text(Sentence.finished(message))])
    }

    /// "Opened Back."
    public static func sprang(_ name: String) -> String { Localization.format(.opened, ["destination": .name(name)]) }

    /// "Over Next Page: hold still to open it." when the pointer rests on something that opens
    /// under a drag (SP1) but takes no drop itself: a page edge, a back button, a tab.
    public static func springHover(_ name: String) -> String {
        Localization.format(.holdToOpen, ["destination": .name(Sentence.clause(name))])
    }

    /// "Undid Move 3 Photos."
    public static func undid(_ name: String) -> String { Localization.format(.undid, ["action": .name(name)]) }

    /// "Redid Move 3 Photos."
    public static func redid(_ name: String) -> String { Localization.format(.redid, ["action": .name(name)]) }

    /// The undo action name for a drop: "Move 3 Photos", "Copy Photo".
    public static func actionName(_ items: [DragItem], _ operation: DropOperation) -> String {
        Localization.format(
            operation == .move ? .moveAction : .copyAction, ["what": .text(noun(for: items).titled(items.count))])
    }

    /// "Move 2 Files to Thunar": the undo step of a drop into another app.
    public static func actionName(_ items: [DragItem], _ operation: DropOperation, to name: String) -> String {
        Localization.format(
            operation == .move ? .moveActionTo : .copyActionTo,
            ["what": .text(noun(for: items).titled(items.count)), "destination": .name(name)])
    }
}

/// A sentence for assistive technology to speak (C4), kept as its parts and put into words only
/// when read through ``text``.
///
/// The engine announces every change of destination under a dragged pointer, which in a fast
/// drag is dozens of times a second; building the sentence there would allocate a string on the
/// move path even though, most of the time, no screen reader is listening. A platform's
/// announcer reads ``text`` when it actually speaks.
///
/// ```swift
/// case .announcement(let a): if screenReaderIsOn { speak(a.text) }
/// ```
///
/// Two announcements are equal when their text is (comparing formats the text: a test-side
/// cost). A string literal (interpolated or not) is an announcement, so `.announcement("Over Work, will move.")`
/// matches what the engine emits over Work.
public struct Announcement: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    private enum Parts: Sendable {
        case text(String)
        case over(name: String?, operation: DropOperation)
        case sprang(name: String)
        case pickedUp(count: Int, kind: Noun, name: String)
        case place(OutlineDropPoint, OutlineTree, DropOperation)
    }

    private let parts: Parts

    /// An announcement of finished text.
    public init(_ text: String) { parts = .text(text) }

    public init(stringLiteral value: String) { parts = .text(value) }

    private init(_ parts: Parts) { self.parts = parts }

    /// "Over Album 'Trips', will copy." (see ``Announcements/over(_:_:)``), formatted when read.
    public static func over(_ name: String?, _ operation: DropOperation) -> Announcement {
        Announcement(.over(name: name, operation: operation))
    }

    /// "Over Next Page: hold still to open it." (see ``Announcements/springHover(_:)``).
    public static func springHover(_ name: String) -> Announcement { Announcement(Announcements.springHover(name)) }

    /// "After Budget, inside Work. Will move.": a drop point of an outline named by its parent
    /// and position, and what a drop there does (T5), formatted when read.
    public static func place(_ point: OutlineDropPoint, in tree: OutlineTree, _ operation: DropOperation)
        -> Announcement
    {
        Announcement(.place(point, tree, operation))
    }

    /// "Opened Back." (see ``Announcements/sprang(_:)``), formatted when read.
    public static func sprang(_ name: String) -> Announcement { Announcement(.sprang(name: name)) }

    /// "Picked up 3 photos." (see ``Announcements/pickedUp(_:)``), formatted when read.
    public static func pickedUp(_ items: [DragItem]) -> Announcement {
        pickedUp(count: items.count, kind: Announcements.noun(for: items), name: items.first?.name ?? "")
    }

    /// "Picked up 'Beach'." for one item named `name`, "Picked up 3 photos." for `count` items of
    /// one `kind` (``Noun/item`` for a mix), formatted when read.
    public static func pickedUp(count: Int, kind: Noun, name: String) -> Announcement {
        Announcement(.pickedUp(count: count, kind: kind, name: name))
    }

    /// The sentence. Formats it on every call: O(length), allocates.
    public var text: String {
        switch parts {
        case .text(let text): text
        case .over(let name, let operation): Announcements.over(name, operation)
        case .sprang(let name): Announcements.sprang(name)
        case .place(let point, let tree, let operation):
            operation.isPerformable
                ? Localization.format(
                    operation == .move ? .placeMove : .placeCopy, ["place": .text(tree.describe(point))])
                : Announcements.over(tree.describe(point), operation)
        case .pickedUp(let count, let kind, let name):
            Localization.format(
                .pickedUp, ["items": .text(count == 1 ? Announcements.quoted(name) : kind.counted(count))])
        }
    }

    public var description: String { text }

    public static func == (a: Announcement, b: Announcement) -> Bool { a.text == b.text }

    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

extension String {
    /// The string with its first letter upper-cased ("photos" -> "Photos").
    var capitalizedFirst: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
