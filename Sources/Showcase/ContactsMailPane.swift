import CGtk4
import DragDrop
import DragDropGTK
import DragDropTesting
import Foundation
import ShowcaseModel

/// Situation 9: a contacts list beside a new message. Each contact is offered as a whole card
/// (`text/vcard`: name, email, phone, postal address); the "To:" field (a DragEntry) takes only
/// "Name <email>" from it (A3, `RelevantParts.recipient`), and plain text as it is.
@MainActor
final class ContactsMailPane: ShowcasePane {
    static let vcard: ContentType = "text/vcard"

    let situation = Situation.named("contacts-mail")!
    let widget: UnsafeMutablePointer<GtkWidget>
    var onChange: (@MainActor () -> Void)?
    var onError: (@MainActor (String) -> Void)?

    private let store: ShowcaseStore
    private unowned let host: GtkDragHost
    private let row: UnsafeMutablePointer<GtkWidget>
    private let listBox: UnsafeMutablePointer<GtkWidget>
    private var contacts: [(target: TargetID, card: ContactPayload, label: UnsafeMutablePointer<GtkWidget>)] = []
    private var to: DragEntry?
    private let listID = TargetID("contacts")
    private let toID = TargetID("message-to")
    private var built = false

    init(store: ShowcaseStore, host: GtkDragHost) {
        self.store = store
        self.host = host
        row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 18)
        gtk_box_set_homogeneous(dd_box(UnsafeMutableRawPointer(row)), 1)
        gtk_widget_set_vexpand(row, 1)
        listBox = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 4)
        widget = row
    }

    func activate(in window: TargetID) {
        if !built { build() }
        do {
            try host.register(
                listBox, as: DragTarget(id: listID, name: "Contacts", frame: .zero, parent: window), delegate: self)
            for contact in contacts {
                var target = DragTarget(id: contact.target, name: contact.card.name, frame: .zero, parent: listID)
                target.offers = [Self.vcard]
                target.kind = Noun("contact")
                try host.register(contact.label, as: target, delegate: self)
            }
            if let to {
                var target = DragTarget(id: toID, name: "To", frame: .zero, parent: window)
                target.accepts = [Self.vcard, .utf8PlainText, .plainText]
                try host.register(to.widget, as: target, delegate: self)
            }
        } catch {
            onError?("\(error)")
        }
        onChange?()
    }

    func deactivate() {
        for contact in contacts { host.unregister(contact.target) }
        host.unregister(listID)
        host.unregister(toID)
    }

    func reload() { onChange?() }

    private func build() {
        built = true
        let column = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        UI.append(column, UI.label("Contacts", selectable: true, css: ["heading"]))
        UI.append(column, listBox)
        UI.append(row, column)
        do {
            if let collection = try store.collection(pane: .contacts, key: "all"), let id = collection.id {
                for item in try store.items(in: id) {
                    guard let data = item.payload, let card = try? JSONDecoder().decode(ContactPayload.self, from: data)
                    else { continue }
                    // A focusable box, not the label itself: a GtkLabel that cannot be selected
                    // never takes the keyboard focus, and a keyboard drag picks up what has it.
                    let label = FocusNavigation.focusableBox(GTK_ORIENTATION_HORIZONTAL, spacing: 0)
                    gtk_widget_add_css_class(label, "card")
                    let name = UI.label(card.name)
                    gtk_widget_set_hexpand(name, 1)
                    UI.append(label, name)
                    UI.append(listBox, label)
                    contacts.append((TargetID("contact-\(item.id ?? 0)"), card, label))
                }
            }
        } catch {
            onError?(Sentence.explaining("Could not read the contacts", error))
        }
        let message = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        UI.append(message, UI.label("New Message", selectable: true, css: ["heading"]))
        let line = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
        UI.append(line, UI.label("To:", selectable: true))
        let entry = DragEntry(id: toID, name: "To", placeholder: "Drop a contact here", host: host)
        gtk_widget_set_hexpand(entry.widget, 1)
        entry.onChange = { [weak self] in self?.onChange?() }
        UI.append(line, entry.widget)
        UI.append(message, line)
        UI.append(row, message)
        to = entry
    }

    /// The card as vCard 4 text.
    static func vcard(of card: ContactPayload) -> String {
        func escaped(_ s: String) -> String {
            s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ",", with: "\\,")
                .replacingOccurrences(of: ";", with: "\\;")
        }
        return [
            "BEGIN:VCARD", "VERSION:4.0", "FN:\(escaped(card.name))", "EMAIL;TYPE=work:\(card.email)",
            "TEL;TYPE=cell:\(card.phone)", "ADR;TYPE=home:;;\(escaped(card.address));;;;", "END:VCARD", "",
        ].joined(separator: "\r\n")
    }

    /// Appends `recipient` to the To: field, separated by ", " from what is there.
    private func add(_ recipient: String) -> UndoableAction? {
        guard let to else { return nil }
        let before = to.text
        let after = before.trimmingCharacters(in: .whitespaces).isEmpty ? recipient : before + ", " + recipient
        // The drop's own change, undone as the drop ("Undo Copy Contact"), not as typing.
        let change = to.replaceText(with: after)
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

    func state() -> [(String, JSONValue)] {
        [
            (
                "lists",
                .object([
                    ("Contacts", .array(contacts.map { .string($0.card.name) })),
                    ("To", .array([.string(to?.text ?? "")])),
                ])
            ),
            ("selected", .object([])),
        ]
    }

    func layout() -> PaneLayout? {
        var layout = PaneLayout()
        guard let list = host.frameInWindow(of: listID), list.height > 0, let field = host.frameInWindow(of: toID)
        else {
            return nil
        }
        layout.lists = [("Contacts", list), ("To", field)]
        var rows: [(title: String, frame: Rect)] = []
        for contact in contacts {
            guard let frame = host.frameInWindow(of: contact.target) else { return nil }
            rows.append((contact.card.name, frame))
        }
        layout.rows = [("Contacts", rows)]
        layout.targets = [("Contacts", listID), ("To", toID)]
        return layout
    }
}

extension ContactsMailPane {
    /// The most characters the To: field holds (K11: a field asks for little).
    static let maximumLength = 1_000
    /// The largest card read (a card with a photo is larger than its name and email need).
    static let cardLimit: Int64 = 1 << 20

    static func tooLong(_ room: Int) -> DropFailure {
        DropLoading.refusal("The text", "it is longer than the \(DropLoading.count(room)) characters To: has room for")
    }
}

extension ContactsMailPane: GtkDragHostDelegate {
    func dragHost(_ host: GtkDragHost, itemProviderFor item: TargetID) -> ItemProvider? {
        guard let contact = contacts.first(where: { $0.target == item }) else { return nil }
        return ItemProvider(app: host.engine.app, representations: [.text(Self.vcard, Self.vcard(of: contact.card))])
    }

    func dragHost(_ host: GtkDragHost, exportedRepresentationsFor items: [TargetID]) -> [ExportedRepresentation] {
        let cards = items.compactMap { id in contacts.first { $0.target == id } }.map { Self.vcard(of: $0.card) }
        return [.text(cards.joined())]
    }

    func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        guard drop.destination == toID else { return .failed(DropFailure(.forbidden, "Drop contacts on To:.")) }
        let accepted: [ContentType] = [Self.vcard, .utf8PlainText, .plainText]
        let count = drop.data.itemCount
        guard count > 0, (0..<count).allSatisfy({ drop.data.choice(item: $0, accepting: accepted) != nil }) else {
            return .failed(DropFailure(.forbidden, "To: takes contacts and addresses."))
        }
        let token = drop.token
        let room = max(0, Self.maximumLength - (to?.text.unicodeScalars.count ?? 0))
        Task { @MainActor [weak self, weak host] in
            var recipients: [String] = []
            for index in 0..<count {
                let isCard = drop.data.choice(item: index, accepting: accepted)?.offered == Self.vcard
                let what = isCard ? "The contact" : "The text"
                // A card is read whole (name, email, phone, address…), then only its name and
                // email are kept (A3); plain text is bounded by the field's room.
                let options = LoadOptions(
                    limit: isCard ? Self.cardLimit : Int64(max(4096, room * 4)),
                    extract: isCard ? RelevantParts.recipient : nil)
                let data: Data
                do throws(TransferError) {
                    let loaded = try await DropLoading.load(drop.data, item: index, accepting: accepted, options: options)
                    guard case .data(_, let bytes) = loaded else { continue }
                    data = bytes
                } catch {
                    var failure = DropLoading.failure(error, adding: what)
                    if case .tooLarge = error, !isCard { failure = Self.tooLong(room) }
                    host?.engine.completeDeferredDrop(token, with: .failed(failure))
                    return
                }
                if data.contains(0) {
                    host?.engine.completeDeferredDrop(
                        token, with: .failed(DropLoading.refusal(what, "it contains a NUL character, which text never holds")))
                    return
                }
                // An address is one line, and names from another app lose their bidirectional
                // controls (a right-to-left override would show another address than it holds).
                let line = BidiControls.neutralized(String(decoding: data, as: UTF8.self))
                    .split(whereSeparator: \.isNewline).joined(separator: " ")
                recipients.append(line.trimmingCharacters(in: .whitespaces))
            }
            let added = recipients.joined(separator: ", ")
            guard added.unicodeScalars.count <= room else {
                host?.engine.completeDeferredDrop(token, with: .failed(Self.tooLong(room)))
                return
            }
            let undo = self?.add(added)
            host?.engine.completeDeferredDrop(token, with: .committed(undo: undo))
        }
        return .deferred(placeholders: 1)
    }
}
