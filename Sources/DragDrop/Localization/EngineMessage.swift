/// One sentence the engine can say or show, as a translator sees it (L1, L2): the English text
/// with named placeholders (`Over {destination}, will copy.`), its plural when a count appears,
/// and a context when the same English needs different translations.
///
/// Every message is in ``all``, the table the catalogs (`dragdrop.pot` and each language's
/// `.po`) are checked against. Placeholders are written `{name}`; `{name:을}` (and 를, 이, 가,
/// 은, 는, 와, 과, 으로, 로) adds the Korean particle that fits the substituted text (see
/// ``Localization``).
public struct EngineMessage: Sendable, Hashable, CustomStringConvertible {
    /// gettext's `msgctxt`, or `nil`.
    public let context: String?
    /// gettext's `msgid`: the English sentence with placeholders.
    public let id: String
    /// gettext's `msgid_plural`, for a message with a count.
    public let plural: String?
    /// What a translator should know (the `#.` comment of the catalogs).
    public let note: String
    /// Whether the formatted text is made one sentence as ``Sentence/finished(_:)`` does (a
    /// name ending with a full stop does not double it).
    let finishes: Bool

    init(_ id: String, plural: String? = nil, context: String? = nil, finishes: Bool = false, note: String) {
        self.id = id
        self.plural = plural
        self.context = context
        self.finishes = finishes
        self.note = note
    }

    public var description: String { context.map { "[\($0)] \(id)" } ?? id }

    /// The names of the placeholders of `text`, in order (`{items:을}` gives `items`).
    public static func placeholders(in text: String) -> [String] {
        MessageTemplate(text).pieces.compactMap {
            if case .placeholder(let name, _) = $0 { name } else { nil }
        }
    }
}

extension EngineMessage {
    // MARK: Items

    static let quotedItem = EngineMessage(
        "'{name}'", context: "item", note: "One dragged item by its name, inside other sentences: 'Beach'.")
    static let countedNoun = EngineMessage(
        "{count} {noun}", plural: "{count} {noun}", context: "noun",
        note:
            "Several items of a kind an app named itself ({noun}: its word, plural in English), when no catalog has that noun."
    )
    static let titleNoun = EngineMessage(
        "{noun}", plural: "{count} {noun}", context: "noun title",
        note: "An app's own noun in an undo action's name, title case in English (Move Chore, Move 3 Chores).")

    // MARK: Announcements

    static let pickedUp = EngineMessage(
        "Picked up {items}.", finishes: true, note: "A drag began. {items}: 'Beach' or 3 photos.")
    static let pickedUpWithDropPoints = EngineMessage(
        "Picked up {items}. {count} drop point; press Tab to choose one.",
        plural: "Picked up {items}. {count} drop points; press Tab to choose one.",
        note: "A keyboard drag began; {count} places can take it.")
    static let added = EngineMessage(
        "Added {items}. Dragging {total}.", note: "Items joined a drag. {total}: all dragged items, 4 photos.")
    static let notOver = EngineMessage(
        "Not over a drop point.", note: "The dragged items are over nothing that takes them.")
    static let overCopy = EngineMessage(
        "Over {destination}, will copy.", note: "The drag is over {destination}; dropping copies.")
    static let overMove = EngineMessage(
        "Over {destination}, will move.", note: "The drag is over {destination}; dropping moves.")
    static let overForbidden = EngineMessage(
        "Over {destination}, cannot drop.", note: "The drag is over {destination}, which refuses it now.")
    static let overForbiddenBecause = EngineMessage(
        "Over {destination}, cannot drop: {reason}.", finishes: true,
        note: "The drag is over {destination}, which refuses it now; {reason} is a sentence saying why.")
    static let overCancel = EngineMessage(
        "Over {destination}, cannot drop here.", note: "The drag is over {destination}, which takes nothing of it.")
    static let copied = EngineMessage(
        "Copied {items} to {destination}.", finishes: true, note: "A drop copied {items} into {destination}.")
    static let moved = EngineMessage(
        "Moved {items} to {destination}.", finishes: true, note: "A drop moved {items} into {destination}.")
    static let movedPartly = EngineMessage(
        "Moved {moved} to {destination}; {kept} stayed here.", finishes: true,
        note: "Another app ({destination}) took only some items as a move; {kept} are still here.")
    static let notDropped = EngineMessage("Not dropped.", note: "A drop failed, no reason known.")
    static let notDroppedBecause = EngineMessage(
        "Not dropped: {reason}.", finishes: true, note: "A drop failed; {reason} is a sentence saying why.")
    static let adding = EngineMessage(
        "Adding {items} to {destination}.", finishes: true, note: "A drop's data is still arriving.")
    static let stoppedAdding = EngineMessage(
        "Stopped adding {items} to {destination}.", note: "A drop's data stopped arriving: the person cancelled it.")
    static let confirm = EngineMessage(
        "Drop on {destination}? {question}", note: "Before an irreversible drop; {question} is the app's sentence.")
    static let opened = EngineMessage(
        "Opened {destination}.", finishes: true,
        note: "Something opened under a drag held still over it (spring loading).")
    static let holdToOpen = EngineMessage(
        "Over {destination}: hold still to open it.", finishes: true,
        note: "The drag is over something that opens when the pointer stays still (a tab, a back button).")
    static let undid = EngineMessage(
        "Undid {action}.", finishes: true, note: "{action}: an undo action's name, Move 3 Photos.")
    static let redid = EngineMessage(
        "Redid {action}.", finishes: true, note: "{action}: an undo action's name, Move 3 Photos.")
    static let waitForPoint = EngineMessage(
        "Wait for '{name}' to show, then drop.", note: "A keyboard drop point is still scrolling into view.")
    static let waitForNextPoint = EngineMessage(
        "Wait for the next drop point to show, then drop.", note: "A keyboard drop point is still scrolling into view.")
    static let noDropPoints = EngineMessage("No drop points.", note: "A keyboard drag found nowhere to go.")
    static let cancellationDone = EngineMessage(
        "{action}: done.", note: "An offered way to take back a drop was used; {action} is its title.")
    static let finishBeforeUndo = EngineMessage(
        "Finish or cancel the drag before undoing.", note: "Undo was asked for during a drag.")
    static let finishBeforeRedo = EngineMessage(
        "Finish or cancel the drag before redoing.", note: "Redo was asked for during a drag.")

    // MARK: Why a drop failed

    static let dragCancelled = EngineMessage(
        "The drag was cancelled.", note: "A drop failed: the person cancelled the drag.")
    static let notConfirmed = EngineMessage(
        "The drop on {destination} was not confirmed.", note: "The person declined an irreversible drop.")
    static let nothingTakes = EngineMessage(
        "Nothing here can take {items}.", note: "Items were dropped where nothing takes them.")
    static let noApp = EngineMessage(
        "No app is attached to take the drop.", note: "A drop arrived with no app to take it.")
    static let addingCancelled = EngineMessage(
        "Adding {items} to {destination} was cancelled.",
        note: "A drop's data stopped arriving: the person cancelled it.")
    static let appDidNotTake = EngineMessage(
        "'{app}' did not take {items}.", note: "Another app refused items dropped on it.")
    static let otherAppDidNotTake = EngineMessage(
        "The other app did not take {items}.", note: "Another app, name unknown, refused items dropped on it.")
    static let anotherApp = EngineMessage(
        "another app", context: "destination",
        note: "Where items went, when the app that took them is not known; inside other sentences as {destination}.")
    static let onlyMove = EngineMessage(
        "'{app}' allows only a move, and {destination} copies what other apps drop.",
        note: "Why a drop is refused: the source app lets items be moved only, and {destination} copies.")
    static let onlyMoveHere = EngineMessage(
        "'{app}' allows only a move, and this place copies what other apps drop.",
        note: "Why a drop is refused: the source app lets items be moved only, and the place under the pointer copies.")
    static let neitherCopyNorMove = EngineMessage(
        "'{app}' allows neither a copy nor a move.", note: "Why a drop is refused: the source app allows nothing.")

    // MARK: Undo

    static let moveAction = EngineMessage(
        "Move {what}", note: "An undo action's name, title case in English; {what}: Photo, 3 Photos.")
    static let copyAction = EngineMessage(
        "Copy {what}", note: "An undo action's name, title case in English; {what}: Photo, 3 Photos.")
    static let moveActionTo = EngineMessage(
        "Move {what} to {destination}", note: "An undo action's name: items moved into another app.")
    static let copyActionTo = EngineMessage(
        "Copy {what} to {destination}", note: "An undo action's name: items copied into another app.")
    static let undoMenu = EngineMessage("Undo", context: "menu", note: "The Undo menu item with nothing to name.")
    static let undoMenuNamed = EngineMessage(
        "Undo {action}", context: "menu", note: "The Undo menu item: Undo Move 3 Photos.")
    static let cannotUndoMenu = EngineMessage(
        "Can't Undo", context: "menu", note: "The Undo menu item when the last step cannot be undone.")
    static let cannotUndoMenuNamed = EngineMessage(
        "Can't Undo {action}", context: "menu", note: "The Undo menu item when the last step (named) cannot be undone.")
    static let redoMenu = EngineMessage("Redo", context: "menu", note: "The Redo menu item with nothing to name.")
    static let redoMenuNamed = EngineMessage(
        "Redo {action}", context: "menu", note: "The Redo menu item: Redo Move 3 Photos.")

    // MARK: Transfers

    static let notDroppedYet = EngineMessage(
        "The data is not available before the drop; only its types are.",
        note: "An app asked for dropped data too early.")
    static let accessFinished = EngineMessage(
        "This drop's data can no longer be read.", note: "A drop's data was asked for after it ended.")
    static let noAcceptableType = EngineMessage(
        "None of the offered types ({offered}) can be used here (accepts {accepted}).",
        note: "{offered}, {accepted}: lists of data types (text/plain, image/png).")
    static let ownAppOnly = EngineMessage(
        "The {type} data can only be dropped inside the app it comes from.", note: "{type}: a data type, image/png.")
    static let tooLarge = EngineMessage(
        "The {type} data is {size}, more than the {limit} this destination takes.",
        note: "{size}, {limit}: amounts of data, 2 GB.")
    static let malformed = EngineMessage(
        "The dropped data is not valid {type}.", finishes: true, note: "{type}: a data type, image/png.")
    static let malformedBecause = EngineMessage(
        "The dropped data is not valid {type}: {reason}.", finishes: true,
        note: "{type}: a data type; {reason}: what is wrong with the data.")
    static let transferCancelled = EngineMessage("The transfer was cancelled.", note: "A drop's data stopped arriving.")
    static let sourceStopped = EngineMessage(
        "The source stopped providing the data.", note: "The app a drop came from stopped sending its data.")
    static let sourceStoppedBecause = EngineMessage(
        "The source stopped providing the data: {reason}.", finishes: true,
        note: "The app a drop came from stopped sending its data; {reason} says more.")
    static let fileFailed = EngineMessage(
        "Could not read or write {path}.", finishes: true, note: "{path}: a file's path.")
    static let fileFailedBecause = EngineMessage(
        "Could not read or write {path}: {reason}.", finishes: true, note: "{path}: a file's path; {reason} says why.")
    static let noSuchItem = EngineMessage(
        "The drop has no item number {number}.", note: "An app asked for an item a drop does not have.")
    // MARK: Outlines (T3)

    static let outlineIntoItself = EngineMessage(
        "{item} cannot go inside itself.",
        note: "An outline refuses to put {item} (an item's name, quoted) inside itself.")
    static let outlineIntoDescendant = EngineMessage(
        "{item} cannot go inside {descendant}, which is inside it.",
        note: "An outline refuses to put {item} inside {descendant} (names, quoted), which is one of its own sub-items."
    )
    static let outlineCannotHold = EngineMessage(
        "{item} cannot hold other items.",
        note:
            "An outline refuses to put anything inside {item} (a name, quoted), which holds no sub-items (a file, a task)."
    )

    static let outlineInto = EngineMessage(
        "Into {item}.", note: "A keyboard drop point in an outline: into {item} (a name), as its last item.")
    static let outlineFirstIn = EngineMessage(
        "At the top of {parent}.", note: "A keyboard drop point in an outline: the first place inside {parent}.")
    static let outlineAfterIn = EngineMessage(
        "After {sibling}, inside {parent}.",
        note: "A keyboard drop point in an outline: after {sibling}, both inside {parent}.")
    static let outlineFirstAtTop = EngineMessage(
        "At the top of the list.", note: "A keyboard drop point in an outline: the very first place, at the top level.")
    static let outlineAfterAtTop = EngineMessage(
        "After {sibling}, at the top level.",
        note: "A keyboard drop point in an outline: after {sibling}, which is not inside anything.")
    static let placeMove = EngineMessage(
        "{place} Will move.",
        note:
            "A drag is over a drop point of an outline; {place} is that point's own sentence (\"After Budget, inside Work.\"); dropping moves."
    )
    static let placeCopy = EngineMessage(
        "{place} Will copy.",
        note:
            "A drag is over a drop point of an outline; {place} is that point's own sentence (\"Into Projects.\"); dropping copies."
    )

    static let bytes = EngineMessage(
        "{count} bytes", plural: "{count} bytes", context: "size",
        note: "An amount of data under a kilobyte (English says bytes even for 1).")
    static let kilobytes = EngineMessage(
        "{size} KB", context: "size", note: "An amount of data in kilobytes (1000 bytes); {size}: 1.5.")
    static let megabytes = EngineMessage(
        "{size} MB", context: "size", note: "An amount of data in megabytes; {size}: 1.5.")
    static let gigabytes = EngineMessage(
        "{size} GB", context: "size", note: "An amount of data in gigabytes; {size}: 1.5.")
    static let terabytes = EngineMessage(
        "{size} TB", context: "size", note: "An amount of data in terabytes; {size}: 1.5.")

    /// The nouns the engine and its platforms name items with, counted ("3 photos") and in
    /// undo names ("Move 3 Photos"). Apps' other nouns use ``countedNoun`` and ``titleNoun``.
    static let knownNouns: [Noun] = [
        .item, Noun("photo"), Noun("image"), Noun("file"), Noun("folder"), Noun("text", plural: "texts"),
        Noun("reminder"), Noun("message"), Noun("event"), Noun("contact"), Noun("card"), Noun("icon"),
        Noun("drawing"), Noun("note"), Noun("chore"),
    ]

    /// "{count} photo" / "{count} photos" in context "noun".
    static func counted(_ noun: Noun) -> EngineMessage {
        EngineMessage(
            "{count} \(noun.singular)", plural: "{count} \(noun.plural)", context: "noun",
            note: "A number of items of this kind inside other sentences: 1 \(noun.singular), 3 \(noun.plural).")
    }

    /// "Photo" / "{count} Photos" in context "noun title".
    static func title(_ noun: Noun) -> EngineMessage {
        EngineMessage(
            noun.singular.capitalizedFirst, plural: "{count} \(noun.plural.capitalizedFirst)", context: "noun title",
            note:
                "Items of this kind in an undo action's name, title case in English: Move \(noun.singular.capitalizedFirst), Move 3 \(noun.plural.capitalizedFirst)."
        )
    }

    /// Every message the engine can say or show: the table the catalogs are checked against.
    public static let all: [EngineMessage] =
        [
            quotedItem, countedNoun, titleNoun,
            pickedUp, pickedUpWithDropPoints, added, notOver, overCopy, overMove, overForbidden, overForbiddenBecause,
            overCancel, copied, moved, movedPartly, notDropped, notDroppedBecause, adding, stoppedAdding, confirm,
            opened,
            holdToOpen, undid, redid, waitForPoint, waitForNextPoint, noDropPoints, cancellationDone, finishBeforeUndo,
            finishBeforeRedo,
            dragCancelled, notConfirmed, nothingTakes, noApp, addingCancelled, appDidNotTake, otherAppDidNotTake,
            anotherApp, onlyMove, onlyMoveHere, neitherCopyNorMove,
            moveAction, copyAction, moveActionTo, copyActionTo, undoMenu, undoMenuNamed, cannotUndoMenu,
            cannotUndoMenuNamed, redoMenu, redoMenuNamed,
            notDroppedYet, accessFinished, noAcceptableType, ownAppOnly, tooLarge, malformed, malformedBecause,
            transferCancelled, sourceStopped, sourceStoppedBecause, fileFailed, fileFailedBecause, noSuchItem,
            outlineIntoItself, outlineIntoDescendant, outlineCannotHold, outlineInto, outlineFirstIn, outlineAfterIn,
            outlineFirstAtTop, outlineAfterAtTop, placeMove, placeCopy,
            bytes, kilobytes, megabytes, gigabytes, terabytes,
        ] + knownNouns.flatMap { [counted($0), title($0)] } + commands + editNames + widgetTexts + reasons
}
