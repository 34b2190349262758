import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol
import ShowcaseModel

/// Situation 6, first part: mailboxes and their messages. Messages dragged onto a mailbox move
/// there in one store transaction (undo puts them back at their exact place); the read-only
/// Sent mailbox and the mailbox already shown refuse drops with a not-allowed badge.
///
/// Like Mail on a narrow screen, opening a mailbox (clicking it) shows its messages in place of
/// the mailbox list; the spring-loaded Back button above the messages goes back to the mailbox
/// list, by a click (SP2) or by resting dragged messages on it (SP1), so they can be dropped on
/// another mailbox. A long draft beside them scrolls while content is dragged near its top or
/// bottom edge (A1).
@MainActor
final class MailPane: ShowcasePane {
    static let itemType: ContentType = "application/x-showcase-message"
    static let mailboxesID: TargetID = "mail-mailboxes"
    static let messagesID: TargetID = "mail-messages"
    static let backID: TargetID = "mail-back"
    static let draftID: TargetID = "mail-draft"
    static let draftScrollID: TargetID = "mail-draft-scroll"

    let situation = Situation.named("mail")!
    let widget: UnsafeMutablePointer<GtkWidget>
    var onChange: (@MainActor () -> Void)?
    var onError: (@MainActor (String) -> Void)?

    private let store: ShowcaseStore
    private unowned let host: GtkDragHost
    private var mailboxes: [ShowcaseCollection] = []
    private var counts: [CollectionID: Int] = [:]
    private let mailboxList: GObjectRef
    private var mailboxRows:
        [(collection: ShowcaseCollection, row: GObjectRef, count: UnsafeMutablePointer<GtkWidget>)] =
            []
    private var messages: StoreListView?
    private let messagesSlot: UnsafeMutablePointer<GtkWidget>
    private let previewHeader: UnsafeMutablePointer<GtkWidget>
    private let previewBody: UnsafeMutablePointer<GtkWidget>
    private var window: TargetID?
    private var building = false
    /// The left column: the mailbox list, or the open mailbox's name (same width, so nothing
    /// else moves when it switches, also mid-drag).
    private let mailboxColumn: UnsafeMutablePointer<GtkWidget>
    private let openedTitle: UnsafeMutablePointer<GtkWidget>
    private let back: SpringButton
    private let draft: DragListView
    private let draftScroll: DragScrollView
    /// "mailboxes" (the mailbox list shows) or "messages" (a mailbox is open, the list hidden).
    private(set) var level = "mailboxes"

    init(store: ShowcaseStore, host: GtkDragHost) {
        self.store = store
        self.host = host
        let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 18)
        gtk_widget_set_vexpand(row, 1)
        let left = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        UI.append(left, UI.label("Mailboxes", selectable: true, css: ["sc-list-title"]))
        mailboxList = GObjectRef(newWidget: gtk_list_box_new())
        gtk_list_box_set_selection_mode(dd_list_box(mailboxList.raw), GTK_SELECTION_SINGLE)
        gtk_widget_add_css_class(mailboxList.widget, "navigation-sidebar")
        FocusNavigation.tabLeaves(mailboxList.widget)
        gtk_widget_set_size_request(mailboxList.widget, 220, -1)
        gtk_widget_set_vexpand(mailboxList.widget, 1)
        dd_accessible_set_label(dd_accessible(mailboxList.raw), "Mailboxes")
        UI.append(left, mailboxList.widget)
        let column = gtk_stack_new()!
        gtk_stack_set_transition_type(dd_stack(UnsafeMutableRawPointer(column)), GTK_STACK_TRANSITION_TYPE_NONE)
        gtk_stack_add_named(dd_stack(UnsafeMutableRawPointer(column)), left, "mailboxes")
        let opened = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        openedTitle = UI.label("", selectable: true, css: ["sc-list-title"])
        UI.append(opened, openedTitle)
        UI.append(
            opened,
            UI.label(
                "Back shows all the mailboxes. Rest dragged messages on it to reach another mailbox.",
                selectable: true, wrap: true))
        gtk_stack_add_named(dd_stack(UnsafeMutableRawPointer(column)), opened, "opened")
        gtk_stack_set_visible_child_name(dd_stack(UnsafeMutableRawPointer(column)), "mailboxes")
        UI.append(row, column)
        mailboxColumn = column
        messagesSlot = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        back = SpringButton(id: Self.backID, title: "Back", host: host)
        gtk_widget_set_halign(back.widget, GTK_ALIGN_START)
        UI.append(messagesSlot, back.widget)
        gtk_widget_set_size_request(messagesSlot, 360, -1)
        gtk_widget_set_vexpand(messagesSlot, 1)
        UI.append(row, messagesSlot)
        // The selected message, read-only: sender, recipients and body (copyable, K3).
        let preview = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 8)
        gtk_widget_set_hexpand(preview, 1)
        previewHeader = UI.label("", selectable: true, wrap: true, css: ["sc-list-title"])
        previewBody = UI.label("", selectable: true, wrap: true)
        gtk_widget_set_valign(previewBody, GTK_ALIGN_START)
        UI.append(preview, previewHeader)
        UI.append(preview, previewBody)
        // A long draft: its paragraphs can be reordered, and it scrolls by itself while
        // content is dragged near its top or bottom edge (A1).
        draft = DragListView(
            id: Self.draftID, title: "Draft: Trip Notes", items: Self.draftParagraphs, host: host,
            operationPolicy: .preferMove)
        draftScroll = DragScrollView(id: Self.draftScrollID, name: "Draft", child: draft.widget, host: host)
        gtk_widget_set_size_request(draftScroll.widget, -1, 260)
        gtk_widget_set_vexpand(draftScroll.widget, 1)
        UI.append(preview, draftScroll.widget)
        UI.append(row, preview)
        widget = row
        GSignal.connect(
            mailboxList.raw, "row-selected",
            pointer: { [weak self] row in self?.mailboxSelected(row) })
        GSignal.connect(
            mailboxList.raw, "row-activated",
            pointer: { [weak self] _ in self?.openMailbox() })
        back.onActivate = { [weak self] _ in self?.showMailboxes() }
        draftScroll.onScroll = { [weak self] _ in self?.onChange?() }
        draft.onChange = { [weak self] in self?.onChange?() }
    }

    static let draftParagraphs: [String] = (1...40).map { "Paragraph \($0)" }

    /// Opens the selected mailbox: its messages show in place of the mailbox list.
    private func openMailbox() {
        guard !building, level != "messages" else { return }
        level = "messages"
        UI.setText(openedTitle, messages?.collection.name ?? "")
        gtk_stack_set_visible_child_name(dd_stack(UnsafeMutableRawPointer(mailboxColumn)), "opened")
        onChange?()
    }

    /// Back: the mailbox list shows again (a click, or messages resting on Back mid-drag).
    private func showMailboxes() {
        guard level != "mailboxes" else { return }
        level = "mailboxes"
        gtk_stack_set_visible_child_name(dd_stack(UnsafeMutableRawPointer(mailboxColumn)), "mailboxes")
        onChange?()
    }

    func activate(in window: TargetID) {
        if mailboxes.isEmpty { build() }
        self.window = window
        var container = DragTarget(id: Self.mailboxesID, name: "Mailboxes", frame: .zero, parent: window)
        container.clipsChildren = true
        do { try host.register(mailboxList.widget, as: container, delegate: self) } catch { onError?("\(error)") }
        registerMailboxRows()
        messages?.register(in: window)
        do {
            try back.register(in: window)
            try draftScroll.register(in: window)
            try draft.register(in: draftScroll.id)
        } catch { onError?("\(error)") }
        reload()
    }

    func deactivate() {
        messages?.unregister()
        host.unregister(Self.mailboxesID)
        host.unregister(Self.backID)
        host.unregister(Self.draftScrollID)
        window = nil
    }

    func reload() {
        messages?.reload(selecting: nil)
        updateCounts()
        updatePreview()
        onChange?()
    }

    private func updatePreview() {
        guard let messages else { return }
        let selected = messages.selection
        guard selected.count == 1, let message = (try? store.item(selected[0])) ?? nil else {
            UI.setText(previewHeader, selected.isEmpty ? "No Message Selected" : "\(selected.count) Messages Selected")
            UI.setText(previewBody, "")
            return
        }
        let payload = message.payload(as: MessagePayload.self)
        UI.setText(previewHeader, message.title)
        var lines: [String] = []
        if let payload {
            lines.append("From: \(payload.from)")
            if !payload.to.isEmpty { lines.append("To: \(payload.to.joined(separator: ", "))") }
            lines.append("")
            lines.append(payload.body)
        }
        UI.setText(previewBody, lines.joined(separator: "\n"))
    }

    private func build() {
        do {
            mailboxes = try store.collections(in: .mail)
        } catch {
            onError?(Sentence.explaining("Could not read the mailboxes", error))
            return
        }
        building = true
        defer { building = false }
        for collection in mailboxes {
            let row = GObjectRef(newWidget: gtk_list_box_row_new())
            let content = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
            UI.margins(content, 8)
            let name = UI.label(collection.name)
            gtk_widget_set_hexpand(name, 1)
            UI.append(content, name)
            let count = UI.label("", css: ["sc-count"])
            UI.append(content, count)
            gtk_list_box_row_set_child(dd_list_box_row(row.raw), content)
            gtk_list_box_append(dd_list_box(mailboxList.raw), row.widget)
            mailboxRows.append((collection, row, count))
        }
        guard let first = mailboxRows.first else { return }
        let list = StoreListView(
            collection: first.collection, store: store, host: host,
            options: .init(
                containerID: Self.messagesID, itemType: Self.itemType, noun: Noun("message"), acceptsDrops: false,
                emptyText: "No Messages"))
        list.onSelectionChanged = { [weak self] in
            self?.updatePreview()
            self?.onChange?()
        }
        list.onError = { [weak self] message in self?.onError?(message) }
        gtk_widget_set_hexpand(list.widget, 0)
        UI.append(messagesSlot, list.widget)
        messages = list
        gtk_list_box_select_row(dd_list_box(mailboxList.raw), dd_list_box_row(first.row.raw))
    }

    /// Each mailbox row is a drop destination for messages, except the read-only ones and the
    /// one shown (its messages are already there).
    private func registerMailboxRows() {
        guard window != nil else { return }
        for entry in mailboxRows {
            let id = entry.collection.targetID
            if host.widget(for: id) != nil { host.unregister(id) }
            var target = DragTarget(id: id, name: entry.collection.name, frame: .zero, parent: Self.mailboxesID)
            target.accepts = [Self.itemType]
            if entry.collection.flags.contains(.readOnly) {
                target.operationPolicy = .forbidden(reason: "\(entry.collection.name) is read-only.")
            } else if entry.collection.id == messages?.collection.id {
                target.operationPolicy = .forbidden(reason: "The messages are already in \(entry.collection.name).")
            } else {
                target.operationPolicy = .preferMove
            }
            do { try host.register(entry.row.widget, as: target, delegate: self) } catch { onError?("\(error)") }
        }
    }

    private func mailboxSelected(_ row: UnsafeMutableRawPointer?) {
        guard !building, let row, let entry = mailboxRows.first(where: { $0.row.raw == row }) else { return }
        guard entry.collection.id != messages?.collection.id else { return }
        messages?.show(entry.collection)
        registerMailboxRows()
        updatePreview()
        onChange?()
    }

    private func updateCounts() {
        for entry in mailboxRows {
            let count = (try? store.itemCount(in: entry.collection.id ?? 0)) ?? 0
            counts[entry.collection.id ?? 0] = count
            UI.setText(entry.count, count == 0 ? "" : "\(count)")
        }
    }

    func state() -> StateLine {
        var state = StateLine()
        addCollections(mailboxes, of: store, to: &state)
        state.mailbox = messages?.collection.name ?? ""
        state.level = level
        state.draftOffset = draftScroll.verticalOffset
        state.draft = draft.items.map(\.title)
        let selected = messages.map { list in list.selectedTitles }
        state.selected = ["Messages": selected ?? []]
        return state
    }

    func layout() -> PaneLayout? {
        guard let messages, let messagesFrame = messages.frame(), let messageRows = messages.elementFrames(),
            let backFrame = host.frameInWindow(of: Self.backID), backFrame.height > 0,
            let draftFrame = host.frameInWindow(of: Self.draftScrollID), draftFrame.height > 0
        else { return nil }
        var lists: [(String, Rect)] = [("Messages", messagesFrame), ("Back", backFrame), ("Draft", draftFrame)]
        var rows: [(String, [(title: String, frame: Rect)])] = [("Messages", messageRows)]
        if level == "mailboxes" {
            guard let mailboxFrame = host.frameInWindow(of: Self.mailboxesID), mailboxFrame.height > 0 else {
                return nil
            }
            var mailboxFrames: [(title: String, frame: Rect)] = []
            for entry in mailboxRows {
                guard let frame = host.frameInWindow(of: entry.collection.targetID), frame.height > 0 else {
                    return nil
                }
                mailboxFrames.append((entry.collection.name, frame))
            }
            lists.insert(("Mailboxes", mailboxFrame), at: 0)
            rows.insert(("Mailboxes", mailboxFrames), at: 0)
        }
        var paragraphs: [(title: String, frame: Rect)] = []
        for item in draft.items {
            // Only the paragraphs in view: the others lie outside the scrolled window.
            if let frame = host.frameInWindow(of: item.id), frame.height > 0, frame.minY >= draftFrame.minY,
                frame.maxY <= draftFrame.maxY
            {
                paragraphs.append((item.title, frame))
            }
        }
        rows.append(("Draft", paragraphs))
        return PaneLayout(
            lists: lists, rows: rows,
            targets: mailboxRows.map { ($0.collection.name, $0.collection.targetID) } + [
                ("Back", Self.backID), ("Draft", Self.draftScrollID),
            ])
    }
}

extension MailPane: GtkDragHostDelegate {
    func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        ShowcaseDrops.perform(drop, store: store, host: host) { [weak self] _ in self?.reload() }
    }

    func dragHost(_ host: GtkDragHost, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    {
        store.removeMovedItems(items, after: drop)
    }
}
