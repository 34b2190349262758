/// The sentences and titles of ready-made widgets (L1): what a keyboard pick-up says when
/// nothing is selected, widgets' refusal reasons, headings and the labels of controls. A
/// platform's widgets show them through `WidgetText`.
extension EngineMessage {
    static let nothingToPickUp = EngineMessage(
        "Nothing to pick up: select an item first.",
        note: "Said when the keyboard pick-up (Ctrl+Shift+D) finds nothing selected or focused.")
    static let textAlreadyThere = EngineMessage(
        "The text is already there.", note: "A refusal: text dropped onto the place it was dragged from.")
    static let pageEdgeDrop = EngineMessage(
        "Drop on a page, not on its edge; hold content at the edge to turn the page.",
        note: "A refusal: content dropped on the edge of a paged view, which only turns pages.")
    static let dropContactsOn = EngineMessage(
        "Drop contacts on {name}.",
        note:
            "A refusal: something other than a contact dropped on a recipient field's button; {name} is the field, To:."
    )
    static let valuesDeclined = EngineMessage(
        "{name} did not take what was dropped.",
        note:
            "A refusal: an app's own widget looked at the dropped values and declined them; {name} is the widget, Basket."
    )
    static let keyboardDragHelp = EngineMessage(
        "Press Control+Shift+D to pick up, Tab to choose a drop point, Return to drop, Escape to cancel.",
        note:
            "The description a screen reader reads on anything that can be dragged: how to drag it with the keyboard; the key names stay as they are."
    )
    static let selectedText = EngineMessage(
        "Selected text in {name}", context: "item",
        note:
            "The name of a text selection being dragged, said in sentences: Copied 'Selected text in Sourdough' to Notes; {name} is the note or field."
    )
    static let detailsFor = EngineMessage(
        "Details for {name}", context: "label",
        note: "What a screen reader says for a row's detail (info) button; {name} is the row, a Wi-Fi network.")
    static let addContactTo = EngineMessage(
        "Add a Contact to {name}", context: "label",
        note: "The tooltip of the button beside a recipient field; {name} is the field, To.")
    static let cannotPickUp = EngineMessage(
        "Cannot pick up", context: "clause",
        note: "Begins a sentence saying why the keyboard pick-up failed: Cannot pick up: <reason>.")
    static let notPasted = EngineMessage(
        "Not pasted", context: "clause", note: "Begins a sentence saying why a paste failed: Not pasted: <reason>.")
    static let takesNoContent = EngineMessage(
        "{name} takes no content; drag its thumb to change it.",
        note: "A refusal: content dropped on a slider; {name} is the slider, Brightness.")
    static let turnOn = EngineMessage(
        "Turn On {name}", context: "undo",
        note: "The undo step of a switch turned on, read after Undo: Undo Turn On Airplane Mode; {name} is the switch.")
    static let turnOff = EngineMessage(
        "Turn Off {name}", context: "undo",
        note: "The undo step of a switch turned off, read after Undo: Undo Turn Off Wi-Fi; {name} is the switch.")
    static let aboutName = EngineMessage(
        "About {name}", context: "label",
        note: "The tooltip and spoken name of an info button that shows what {name} (an app, Showcase Settings) is.")
    static let showDetails = EngineMessage(
        "Show Details", context: "label", note: "The tooltip of a row's detail (•••) button.")
    static let addContactButton = EngineMessage(
        "Add Contact", context: "label",
        note: "What a screen reader says for the button that adds a contact to a field.")
    static let contactsList = EngineMessage(
        "Contacts", context: "label", note: "What a screen reader says for the list of contacts the add button opens.")
    static let refreshName = EngineMessage(
        "Refresh {name}", context: "label",
        note: "What a screen reader says for the spinner of a list pulled to refresh; {name} is the list, Inbox.")
    static let chooseContact = EngineMessage(
        "Choose a Contact", context: "title", note: "The heading of a popover listing contacts to add.")
    static let pullToRefresh = EngineMessage(
        "Pull to Refresh", context: "title", note: "A pull-to-refresh control's label while it is pulled.")
    static let releaseToRefresh = EngineMessage(
        "Release to Refresh", context: "title", note: "A pull-to-refresh control's label once pulled far enough.")
    static let nothingHere = EngineMessage(
        "Nothing Here", context: "title", note: "Shown in an empty list or grid.")

    static let widgetTexts: [EngineMessage] = [
        nothingToPickUp, textAlreadyThere, pageEdgeDrop, dropContactsOn, valuesDeclined, keyboardDragHelp,
        selectedText, detailsFor, addContactTo, aboutName, showDetails, addContactButton, contactsList, refreshName,
        cannotPickUp, notPasted, takesNoContent, turnOn, turnOff,
        chooseContact, pullToRefresh, releaseToRefresh, nothingHere,
    ]
}

/// The words of the ready-made widgets in the current language (L1; see ``Localization``).
package enum WidgetText {
    /// "Nothing to pick up: select an item first."
    package static var nothingToPickUp: String { Localization.format(.nothingToPickUp) }
    /// "The text is already there."
    package static var textAlreadyThere: String { Localization.format(.textAlreadyThere) }
    /// "Drop on a page, not on its edge; hold content at the edge to turn the page."
    package static var pageEdgeDrop: String { Localization.format(.pageEdgeDrop) }
    /// "Drop contacts on {name}."
    package static func dropContacts(on name: String) -> String {
        Localization.format(.dropContactsOn, ["name": .name(name)])
    }
    /// "{name} did not take what was dropped."
    package static func valuesDeclined(by name: String) -> String {
        Localization.format(.valuesDeclined, ["name": .name(name)])
    }
    /// "Press Control+Shift+D to pick up, …": how to drag with the keyboard, read on sources.
    package static var keyboardDragHelp: String { Localization.format(.keyboardDragHelp) }
    /// "Selected text in {name}": a dragged text selection's name.
    package static func selectedText(in name: String) -> String {
        Localization.format(.selectedText, ["name": .name(name)])
    }
    /// "Details for {name}": a detail button's accessible name.
    package static func details(for name: String) -> String { Localization.format(.detailsFor, ["name": .name(name)]) }
    /// "Add a Contact to {name}": the contact-add button's tooltip.
    package static func addContact(to name: String) -> String {
        Localization.format(.addContactTo, ["name": .name(name)])
    }
    /// "About {name}": an info button's tooltip and name.
    package static func about(_ name: String) -> String { Localization.format(.aboutName, ["name": .name(name)]) }
    /// "Show Details": a detail button's tooltip.
    package static var showDetails: String { Localization.format(.showDetails) }
    /// "Add Contact": the contact-add button's name.
    package static var addContact: String { Localization.format(.addContactButton) }
    /// "Contacts": the list the contact-add button opens.
    package static var contacts: String { Localization.format(.contactsList) }
    /// "Refresh {name}": a pull-to-refresh spinner's name.
    package static func refresh(_ name: String) -> String { Localization.format(.refreshName, ["name": .name(name)]) }
    /// "Cannot pick up", begins a reason.
    package static var cannotPickUp: String { Localization.format(.cannotPickUp) }
    /// "Not pasted", begins a reason.
    package static var notPasted: String { Localization.format(.notPasted) }
    /// "{name} takes no content; drag its thumb to change it." (a slider's refusal)
    package static func takesNoContent(_ name: String) -> String {
        Localization.format(.takesNoContent, ["name": .name(name)])
    }
    /// "Turn On {name}" / "Turn Off {name}": a switch's undo step.
    package static func turn(_ on: Bool, _ name: String) -> String {
        Localization.format(on ? .turnOn : .turnOff, ["name": .name(name)])
    }
    /// "Choose a Contact"
    package static var chooseContact: String { Localization.format(.chooseContact) }
    /// "Pull to Refresh"
    package static var pullToRefresh: String { Localization.format(.pullToRefresh) }
    /// "Release to Refresh"
    package static var releaseToRefresh: String { Localization.format(.releaseToRefresh) }
    /// "Nothing Here"
    package static var nothingHere: String { Localization.format(.nothingHere) }
}
