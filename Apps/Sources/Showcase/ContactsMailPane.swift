import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol
import Foundation
import ShowcaseModel

/// Situation 9: a contacts list beside a new message. Each contact is offered as a whole card
/// (`text/vcard`: name, email, phone, postal address); the "To:" field (a ``RecipientField``,
/// shared with situation 15) takes only "Name <email>" from it (A3, `RelevantParts.recipient`),
/// plain text as it is, typed addresses, and contacts picked with its contact-add button (K5).
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
    private var to: RecipientField?
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
            try to?.register(in: window)
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
        UI.append(column, UI.label(words("Contacts"), selectable: true, css: ["heading"]))
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
            onError?(Sentence.explaining(words("Could not read the contacts"), error))
        }
        let message = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        UI.append(message, UI.label(words("New Message"), selectable: true, css: ["heading"]))
        let line = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
        UI.append(line, UI.label(words("To:"), selectable: true))
        let store = self.store
        let entry = RecipientField(id: toID, name: words("To"), placeholder: words("Drop a contact here"), host: host) {
            Self.contacts(in: store)
        }
        gtk_widget_set_hexpand(entry.widget, 1)
        entry.onChange = { [weak self] in self?.onChange?() }
        entry.onError = { [weak self] message in self?.onError?(message) }
        UI.append(line, entry.widget)
        UI.append(message, line)
        UI.append(row, message)
        to = entry
    }

    /// The card as vCard 4 text.
    static func vcard(of card: ContactPayload) -> String {
        func escaped(_ s: String) -> String {
            s.replacingScalars(["\\": "\\\\", ",": "\\,", ";": "\\;"])
        }
        return [
            "BEGIN:VCARD", "VERSION:4.0", "FN:\(escaped(card.name))", "EMAIL;TYPE=work:\(card.email)",
            "TEL;TYPE=cell:\(card.phone)", "ADR;TYPE=home:;;\(escaped(card.address));;;;", "END:VCARD", "",
        ].joined(separator: "\r\n")
    }

    /// The store's contacts as cards, for the contact-add buttons of To: fields (here and in
    /// situation 15).
    static func contacts(in store: ShowcaseStore) -> [ContactAddButton.Contact] {
        guard let collection = try? store.collection(pane: .contacts, key: "all"), let id = collection.id,
            let items = try? store.items(in: id)
        else { return [] }
        return items.compactMap { item in
            item.payload(as: ContactPayload.self).map { ContactAddButton.Contact(name: $0.name, vCard: vcard(of: $0)) }
        }
    }

    func state() -> StateLine {
        var state = StateLine()
        state.lists = ["Contacts": contacts.map(\.card.name), "To": [to?.text ?? ""]]
        state.selected = [:]
        return state
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

extension ContactsMailPane: GtkDragHostDelegate {
    func dragHost(_ host: GtkDragHost, itemProviderFor item: TargetID) -> ItemProvider? {
        guard let contact = contacts.first(where: { $0.target == item }) else { return nil }
        // Named, so that a file manager gets "Ana Sousa.vcf" (written at the drop, FileExport).
        return ItemProvider(
            app: host.engine.app, representations: [.text(Self.vcard, Self.vcard(of: contact.card))],
            suggestedName: contact.card.name)
    }

    func dragHost(_ host: GtkDragHost, exportedRepresentationsFor items: [TargetID]) -> [ExportedRepresentation] {
        let cards = items.compactMap { id in contacts.first { $0.target == id } }.map { Self.vcard(of: $0.card) }
        return [.text(cards.joined())]
    }

    /// Drops on To: go to the field itself (a ``RecipientField``); the contacts take none.
    func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        .failed(DropFailure(.forbidden, words("Drop contacts on To:.")))
    }
}
