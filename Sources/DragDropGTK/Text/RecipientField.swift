import CGtk4
import DragDrop
import Foundation

/// A recipient field ("To:") with a contact-add button beside it (K5). Three ways in, one result:
///
/// - typing: the field takes typed addresses as any text field does;
/// - dropping a contact: a card offered as `text/vcard` adds only "Name <email>" (A3,
///   `RelevantParts/recipient`), read after the drop (a deferred drop) and undone as the drop;
///   dropped plain text is added as it is;
/// - the contact-add button: picking a contact adds the same "Name <email>", extracted from its
///   card by the same `RelevantParts/recipient(fromVCard:)`, as one undo step "Add Recipient".
///
/// Recipients are joined by ", ". The field is a destination accepting `text/vcard` before plain
/// text (a `text/vcard` conforms to `text/plain`, and a bare ``DragEntry`` would paste the whole
/// card); dragging text out of it is not offered.
///
/// ```swift
/// let to = RecipientField(id: "to", name: "To", placeholder: "Name or email", host: host) {
///     contacts.map { ContactAddButton.Contact(name: $0.name, vCard: $0.vCard) }
/// }
/// gtk_box_append(box, to.widget)
/// try to.register(in: "main")
/// ```
@MainActor
public final class RecipientField: GtkDragRegistering {
    /// The type of a dropped contact card.
    public static let vcard: ContentType = "text/vcard"
    /// What the field takes from drops, richest first.
    public static let acceptedTypes: [ContentType] = [vcard, .utf8PlainText, .plainText]
    /// The most characters the field holds (K11: a field asks for little).
    public static let maximumLength = 1_000
    /// The largest card read (a card with a photo is larger than its name and email need).
    public static let cardLimit: Int64 = 1 << 20

    /// The field's target identifier.
    public let id: TargetID
    /// The accessible name ("To").
    public let name: String
    /// The text field.
    public let entry: DragEntry
    /// The button beside it.
    public let contactAddButton: ContactAddButton
    /// Called after the text changed (typing, a drop, a pick, undo, redo).
    public var onChange: (@MainActor () -> Void)?
    /// Called with a reason when a picked contact has no usable address.
    public var onError: (@MainActor (String) -> Void)?

    private unowned let host: GtkDragHost
    private let root: GObjectRef

    /// The field and its button, to put in a window.
    public var widget: UnsafeMutablePointer<GtkWidget> { root.widget }
    /// The text.
    public var text: String { entry.text }

    /// Creates a field named `name` with `placeholder`, whose button offers `contacts`.
    public init(
        id: TargetID? = nil, name: String, placeholder: String, host: GtkDragHost,
        contacts: @escaping @MainActor () -> [ContactAddButton.Contact]
    ) {
        self.id = id ?? GtkDragHost.uniqueID(name)
        self.name = name
        self.host = host
        entry = DragEntry(id: id, name: name, placeholder: placeholder, host: host)
        contactAddButton = ContactAddButton(fieldName: name, contacts: contacts)
        root = GObjectRef(newWidget: gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4))
        gtk_widget_set_hexpand(entry.widget, 1)
        gtk_box_append(dd_box(root.raw), entry.widget)
        gtk_box_append(dd_box(root.raw), contactAddButton.widget)
        entry.onChange = { [weak self] in self?.onChange?() }
        contactAddButton.onPick = { [weak self] contact in self?.picked(contact) }
        if id == nil { host.registerWhenPlaced(self) }
    }

    /// Registers the field as a destination for contacts and text inside the registered window
    /// `window`.
    public func register(in window: TargetID) throws(GtkDragHostError) {
        var target = DragTarget(id: id, name: name, frame: .zero, parent: window)
        target.accepts = Self.acceptedTypes
        try host.register(entry.widget, as: target, delegate: self)
    }

    /// Unregisters the field.
    public func unregister() { host.unregister(id) }

    /// Appends `recipient` after what the field holds, separated by ", ", as the app's own change
    /// (not typing); returns how to undo and redo it.
    @discardableResult
    public func add(_ recipient: String) -> UndoableAction {
        let before = entry.text
        let after = before.trimmingCharacters(in: .whitespaces).isEmpty ? recipient : before + ", " + recipient
        let change = entry.replaceText(with: after)
        onChange?()
        return UndoableAction(
            undo: { [weak self] in
                change.undo()
                self?.onChange?()
            },
            redo: { [weak self] in
                change.redo()
                self?.onChange?()
            })
    }

    /// An address as one line, without bidirectional controls (see ``BidiControls``).
    static func line(_ text: String) -> String {
        BidiControls.neutralized(text).split(whereSeparator: \.isNewline).joined(separator: " ")
            .trimmingCharacters(in: .whitespaces)
    }

    /// The refusal of text longer than the room left.
    func tooLongFailure(_ room: Int) -> DropFailure {
        DroppedText.failure(.tooLong(limit: room), name: name)
    }

    /// A contact picked with the button: "Name <email>" from its card (the same extraction as a
    /// dropped card), one undo step.
    private func picked(_ contact: ContactAddButton.Contact) {
        let recipient: String
        do {
            recipient = Self.line(try RelevantParts.recipient(fromVCard: contact.vCard))
        } catch {
            onError?(DropLoading.failure(error, adding: .contact).message)
            return
        }
        let room = max(0, Self.maximumLength - text.unicodeScalars.count)
        guard recipient.unicodeScalars.count + 2 <= room || text.isEmpty && recipient.unicodeScalars.count <= room
        else {
            onError?(tooLongFailure(room).message)
            return
        }
        let action = add(recipient)
        host.registerEdit("Add Recipient", in: entry.id, undo: action.undo, redo: action.redo)
        // Back to typing, after the list has closed, with the caret at the end (a plain focus
        // grab would select the whole text, and the next key would replace it).
        GLibSource.idle { [weak self] in
            guard let self else { return }
            gtk_entry_grab_focus_without_selecting(gtkCast(self.entry.widget, to: GtkEntry.self))
            gtk_editable_set_position(self.entry.editable, -1)
        }
    }
}

extension RecipientField: GtkDragHostDelegate {
    /// A contact gives only "Name <email>" (A3), plain text comes as it is; read after the drop,
    /// then added as the drop's own undo step. Data from other apps is untrusted: a card is read
    /// up to ``cardLimit`` and text up to the room left (``maximumLength``), within
    /// ``DropLoading``'s deadline; text holding a NUL is refused, line breaks become spaces and
    /// bidirectional controls are removed (a right-to-left override would show another address
    /// than it holds). A refusal says why, in one sentence, and changes nothing.
    public func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        guard drop.destination == id else { return .failed(DropFailure(.forbidden, WidgetText.dropContacts(on: name))) }
        let accepted = Self.acceptedTypes
        let count = drop.data.itemCount
        guard count > 0, (0..<count).allSatisfy({ drop.data.choice(item: $0, accepting: accepted) != nil }) else {
            return .failed(DropFailure(.forbidden, Localization.format(.takesContacts, ["name": .name(name)])))
        }
        let token = drop.token
        let room = max(0, Self.maximumLength - text.unicodeScalars.count)
        let tooLong = tooLongFailure(room)
        Task { @MainActor [weak self, weak host] in
            var recipients: [String] = []
            for index in 0..<count {
                let isCard = drop.data.choice(item: index, accepting: accepted)?.offered == Self.vcard
                let what: DropLoading.Subject = isCard ? .contact : .text
                // A card is read whole (name, email, phone, address…), then only its name and
                // email are kept (A3); plain text is bounded by the field's room.
                let options = LoadOptions(
                    limit: isCard ? Self.cardLimit : Int64(max(4096, room * 4)),
                    extract: isCard ? RelevantParts.recipient : nil)
                let data: Data
                do throws(TransferError) {
                    let loaded = try await DropLoading.load(
                        drop.data, item: index, accepting: accepted, options: options)
                    guard case .data(_, let bytes) = loaded else { continue }
                    data = bytes
                } catch {
                    var failure = DropLoading.failure(error, adding: what)
                    if case .tooLarge = error, !isCard { failure = tooLong }
                    host?.completeDeferredDrop(token, with: .failed(failure))
                    return
                }
                if data.contains(0) {
                    host?.completeDeferredDrop(
                        token,
                        with: .failed(DropLoading.refusal(what, Localization.format(.reasonNul))))
                    return
                }
                recipients.append(Self.line(String(decoding: data, as: UTF8.self)))
            }
            let added = recipients.joined(separator: ", ")
            guard added.unicodeScalars.count <= room else {
                host?.completeDeferredDrop(token, with: .failed(tooLong))
                return
            }
            let undo = self?.add(added)
            host?.completeDeferredDrop(token, with: .committed(undo: undo))
        }
        return .deferred(placeholders: 1)
    }
}
