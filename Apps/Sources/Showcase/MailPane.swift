import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol
import ShowcaseModel

/// Situation 6, first part: mailboxes and their messages. Messages dragged onto a mailbox move
/// there in one store transaction (undo puts them back at their exact place); the read-only
/// Sent mailbox and the mailbox already shown refuse drops with a not-allowed badge.
///
/// The mailboxes are an outline (T1–T7): Work ▸ Projects ▸ 2026. A mailbox dragged between two
/// others goes in at the depth the pointer's x picks, into another when held over its middle,
/// never into one of its own (refused with the reason); the store keeps each mailbox's parent
/// and place among its siblings, and undo puts them back with the rows that were open. The
/// outline lists a mailbox's mailboxes only when its row opens (T7): with the big data, Shared
/// holds 100,000, and a drop reads and writes only the rows it touches.
///
/// Like Mail on a narrow screen, opening a mailbox (clicking it) shows its messages in place of
/// the mailbox list; the spring-loaded Back button above the messages goes back to the mailbox
/// list, by a click (SP2) or by resting dragged messages on it (SP1), so they can be dropped on
/// another mailbox. A long draft beside them scrolls while content is dragged near its top or
/// bottom edge (A1).
@MainActor
final class MailPane: ShowcasePane {
    static let itemType: ContentType = "application/x-showcase-message"
    static let mailboxType: ContentType = "application/x-showcase-mailbox"
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
    /// The mailboxes listed in the outline: the top level and the mailboxes of open rows.
    private var mailboxes: [ShowcaseCollection] = []
    private var counts: [CollectionID: Int] = [:]
    /// The mailboxes as an outline, by their collections' targets.
    private let mailboxOutline: DragOutlineView
    private(set) var outline = OutlineTree()
    /// The rows a person opened; nil until the tree is first built (then every mailbox that
    /// holds others is open).
    private var expanded: Set<TargetID>?
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
        mailboxOutline = DragOutlineView(
            id: Self.mailboxesID, title: words("Mailboxes"), host: host, itemType: Self.mailboxType,
            kind: Noun("mailbox"), alsoTakes: [Self.itemType], policy: .preferMove)
        gtk_widget_set_size_request(mailboxOutline.widget, 220, -1)
        gtk_widget_set_vexpand(mailboxOutline.widget, 1)
        UI.append(left, mailboxOutline.widget)
        let column = gtk_stack_new()!
        gtk_stack_set_transition_type(dd_stack(UnsafeMutableRawPointer(column)), GTK_STACK_TRANSITION_TYPE_NONE)
        gtk_stack_add_titled(dd_stack(UnsafeMutableRawPointer(column)), left, "mailboxes", words("Mailboxes"))
        let opened = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        openedTitle = UI.label("", selectable: true, css: ["sc-list-title"])
        UI.append(opened, openedTitle)
        UI.append(
            opened,
            UI.label(
                words("Back shows all the mailboxes. Rest dragged messages on it to reach another mailbox."),
                selectable: true, wrap: true))
        gtk_stack_add_titled(dd_stack(UnsafeMutableRawPointer(column)), opened, "opened", words("Messages"))
        gtk_stack_set_visible_child_name(dd_stack(UnsafeMutableRawPointer(column)), "mailboxes")
        UI.append(row, column)
        mailboxColumn = column
        messagesSlot = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        back = SpringButton(id: Self.backID, title: words("Back"), host: host)
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
            id: Self.draftID, title: words("Draft: {name}", ["name": "Trip Notes"]), items: Self.draftParagraphs,
            host: host,
            operationPolicy: .preferMove)
        draftScroll = DragScrollView(id: Self.draftScrollID, name: "Draft", child: draft.widget, host: host)
        gtk_widget_set_size_request(draftScroll.widget, -1, 260)
        gtk_widget_set_vexpand(draftScroll.widget, 1)
        UI.append(preview, draftScroll.widget)
        UI.append(row, preview)
        widget = row
        mailboxOutline.onSelectionChanged = { [weak self] in self?.mailboxSelected() }
        // A click on a mailbox (or Return) opens it, as on a narrow screen; its triangle shows
        // or hides the mailboxes inside it.
        mailboxOutline.onOpen = { [weak self] item in
            guard let self else { return }
            if self.mailboxOutline.selection != [item] { self.mailboxOutline.select([item]) }
            self.mailboxSelected()
            self.openMailbox()
        }
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
        do { try mailboxOutline.collection.register(in: window) } catch { onError?("\(error)") }
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
        mailboxOutline.collection.unregister()
        host.unregister(Self.backID)
        host.unregister(Self.draftScrollID)
        window = nil
    }

    func reload() {
        messages?.reload(selecting: nil)
        rebuildOutline()
        updatePreview()
        onChange?()
    }

    private func updatePreview() {
        guard let messages else { return }
        let selected = messages.selection
        guard selected.count == 1, let message = (try? store.item(selected[0])) ?? nil else {
            UI.setText(
                previewHeader,
                selected.isEmpty
                    ? words("No Message Selected")
                    : words("Messages selected: {count}", ["count": "\(selected.count)"]))
            UI.setText(previewBody, "")
            return
        }
        let payload = message.payload(as: MessagePayload.self)
        UI.setText(previewHeader, message.title)
        var lines: [String] = []
        if let payload {
            lines.append(words("From: {address}", ["address": payload.from]))
            if !payload.to.isEmpty {
                lines.append(words("To: {addresses}", ["addresses": payload.to.joined(separator: ", ")]))
            }
            lines.append("")
            lines.append(payload.body)
        }
        UI.setText(previewBody, lines.joined(separator: "\n"))
    }

    private func build() {
        let top: [ShowcaseCollection]
        do {
            top = try store.collections(in: .mail, under: nil)
        } catch {
            onError?(Sentence.explaining(words("Could not read the mailboxes"), error))
            return
        }
        building = true
        defer { building = false }
        mailboxOutline.dataSource = self
        guard let first = top.first else { return }
        let list = StoreListView(
            collection: first, store: store, host: host,
            options: .init(
                containerID: Self.messagesID, itemType: Self.itemType, noun: Noun("message"), acceptsDrops: false,
                emptyText: words("No Messages")))
        list.onSelectionChanged = { [weak self] in
            self?.updatePreview()
            self?.onChange?()
        }
        list.onError = { [weak self] message in self?.onError?(message) }
        gtk_widget_set_hexpand(list.widget, 0)
        UI.append(messagesSlot, list.widget)
        messages = list
        rebuildOutline()
        mailboxOutline.select([first.targetID])
    }

    /// At first, rows open level by level while the outline shows at most this many rows.
    static let firstOpenRows = 16

    /// The outline from the store: the top level and, under each open row, its mailboxes in
    /// the store's order (a closed row's are counted, not listed: T7); Sent (read-only) holds no
    /// mailboxes and, with the mailbox shown, refuses messages (F6).
    private func rebuildOutline() {
        var tree = OutlineTree()
        var listed: [ShowcaseCollection] = []
        do throws(ShowcaseStoreError) {
            let top = try store.collections(in: .mail, under: nil)
            if expanded == nil { expanded = try firstOpenRows(top) }
            let open = expanded ?? []
            func list(_ mailboxes: [ShowcaseCollection], under parent: TargetID?) throws(ShowcaseStoreError) {
                for mailbox in mailboxes {
                    try? tree.append(
                        mailbox.targetID, name: mailbox.name, under: parent,
                        canHoldChildren: !mailbox.flags.contains(.readOnly))
                    listed.append(mailbox)
                    if open.contains(mailbox.targetID), let id = mailbox.id {
                        try list(store.collections(in: .mail, under: id), under: mailbox.targetID)
                    }
                }
            }
            try list(top, under: nil)
            // The rows that hold mailboxes not listed: a triangle, and they spring open (T2).
            let closed = listed.filter { !open.contains($0.targetID) }.compactMap(\.id)
            var unlisted: [TargetID: Int] = [:]
            for (id, count) in try store.childCounts(of: closed, in: .mail) {
                unlisted[ShowcaseTargets.collection(id)] = count
            }
            tree.unlistedChildren = unlisted
        } catch {
            onError?(Sentence.explaining(words("Could not read the mailboxes"), error))
            return
        }
        mailboxes = listed
        tree.expanded = (expanded ?? []).filter { tree.containers.contains($0) }
        var refusals: [TargetID: String] = [:]
        for mailbox in mailboxes where mailbox.flags.contains(.readOnly) {
            refusals[mailbox.targetID] = words("{name} is read-only.", ["name": mailbox.name])
        }
        if let shown = messages?.collection {
            refusals[shown.targetID] = words("The messages are already in {name}.", ["name": shown.name])
        }
        tree.refusals = refusals
        updateCounts(reloading: false)
        guard tree != outline else { return }
        outline = tree
        mailboxOutline.reloadData()
    }

    /// The rows open at first: level by level, top to bottom, each row that holds mailboxes
    /// while the outline still shows at most ``firstOpenRows`` rows (every seeded row; Shared's
    /// 100,000 stay closed).
    private func firstOpenRows(_ top: [ShowcaseCollection]) throws(ShowcaseStoreError) -> Set<TargetID> {
        var open: Set<TargetID> = []
        var shown = top.count
        var level = top
        while !level.isEmpty {
            let counts = try store.childCounts(of: level.compactMap(\.id), in: .mail)
            var next: [ShowcaseCollection] = []
            for mailbox in level {
                guard let id = mailbox.id, let count = counts[id], shown + count <= Self.firstOpenRows else { continue }
                open.insert(mailbox.targetID)
                shown += count
                next += try store.collections(in: .mail, under: id)
            }
            level = next
        }
        return open
    }

    private func mailboxSelected() {
        guard !building, mailboxOutline.selection.count == 1, let id = mailboxOutline.selection.first,
            let mailbox = mailboxes.first(where: { $0.targetID == id })
        else { return }
        guard mailbox.id != messages?.collection.id else { return }
        messages?.show(mailbox)
        rebuildOutline()
        updatePreview()
        onChange?()
    }

    /// Each listed mailbox's message count (its detail line), in one query.
    private func updateCounts(reloading: Bool = true) {
        let read = (try? store.itemCounts(in: mailboxes.compactMap(\.id))) ?? [:]
        guard read != counts else { return }
        counts = read
        if reloading { mailboxOutline.reloadData() }
    }

    func state() -> StateLine {
        var state = StateLine()
        // The counts read when the outline was last rebuilt (every change to the store does).
        addCollections(mailboxes, of: store, to: &state, counts: counts)
        func walk(_ parent: TargetID?, _ indent: String) -> [String] {
            outline.children(of: parent).flatMap { [indent + outline.name(of: $0)] + walk($0, indent + "  ") }
        }
        state.mailboxes = walk(nil, "")
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
            // The rows on screen register once GTK bound them: asked again until they did. Rows
            // scrolled out of view have none (a big tree's open rows run far below), so the
            // rows with frames must be one run that fills the list or ends with the rows.
            let shown = outline.rows()
            let frames = shown.map { row in host.frameInWindow(of: row.id).flatMap { $0.height > 0 ? $0 : nil } }
            guard let first = frames.firstIndex(where: { $0 != nil }) else { return nil }
            let last = frames.lastIndex(where: { $0 != nil }) ?? first
            guard frames[first...last].allSatisfy({ $0 != nil }) else { return nil }
            if first > 0, let top = frames[first], top.minY > mailboxFrame.minY + 4 { return nil }
            if last < shown.count - 1, let end = frames[last], end.maxY < mailboxFrame.maxY - 4 { return nil }
            var mailboxFrames: [(title: String, frame: Rect)] = []
            for (row, frame) in zip(shown, frames) {
                guard let frame, frame.minY >= mailboxFrame.minY - 1, frame.maxY <= mailboxFrame.maxY + 1 else {
                    continue
                }
                mailboxFrames.append((outline.name(of: row.id), frame))
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
            targets: outline.rows().map { (outline.name(of: $0.id), $0.id) } + [
                ("Back", Self.backID), ("Draft", Self.draftScrollID),
            ])
    }
}

extension MailPane: DragOutlineDataSource {
    func outlineView(_ view: DragOutlineView, setExpanded open: Bool, for item: TargetID) {
        if open { expanded?.insert(item) } else { expanded?.remove(item) }
        // Opening a row lists its mailboxes (T7); the state line says what shows.
        rebuildOutline()
        onChange?()
    }

    func outlineView(_ view: DragOutlineView, detailFor item: TargetID) -> String? {
        guard let id = ShowcaseTargets.collectionID(item), let count = counts[id], count > 0 else { return nil }
        return Noun("message").counted(count)
    }

    func outlineView(_ view: DragOutlineView, perform drop: DropRequest, at point: OutlineDropPoint) -> DropResult {
        let ids = drop.items.map(\.id)
        guard ids.contains(where: { outline.holds($0) }) else {
            // Messages, on a mailbox (the outline offers nothing else for them).
            guard case .on(let mailbox) = point else {
                return .failed(DropFailure(.forbidden, words("Drop messages on a mailbox.")))
            }
            var request = drop
            request.destination = mailbox
            request.index = nil
            return ShowcaseDrops.perform(request, store: store, host: host) { [weak self] _ in self?.reload() }
        }
        guard ids.allSatisfy({ outline.holds($0) }) else {
            return .failed(
                DropFailure(.forbidden, words("Mailboxes and messages go to different places: drag them apart.")))
        }
        // Mailboxes: the outline as it will be, stored as each mailbox's parent and place. A
        // closed row they go into lists its own mailboxes first, so they keep their places.
        var moved = outline
        let parent = point.parent
        do {
            if let parent, moved.children(of: parent).isEmpty, let id = ShowcaseTargets.collectionID(parent) {
                for mailbox in try store.collections(in: .mail, under: id) {
                    try? moved.append(
                        mailbox.targetID, name: mailbox.name, under: parent,
                        canHoldChildren: !mailbox.flags.contains(.readOnly))
                }
            }
        } catch {
            return .failed(error.dropFailure)
        }
        do {
            _ = try moved.move(ids, to: point)
        } catch {
            return .failed(DropFailure(.forbidden, error.description))
        }
        let openBefore = expanded
        let after = places(under: parent, in: moved)
        let before: [CollectionPlace]
        do {
            before = try store.arrange(after)
        } catch {
            return .failed(error.dropFailure)
        }
        expanded = moved.expanded
        reload()
        let stored = store.undoableArrangement(from: before, to: after)
        let openAfter = expanded
        return .committed(
            undo: UndoableAction(
                undo: { [weak self] in
                    stored.undo()
                    self?.expanded = openBefore
                    self?.reload()
                },
                redo: { [weak self] in
                    stored.redo()
                    self?.expanded = openAfter
                    self?.reload()
                }))
    }

    /// The places of `parent`'s mailboxes in `tree` (the only ones a drop there changes: the
    /// rows it took mailboxes from keep their order), numbered from 0.
    private func places(under parent: TargetID?, in tree: OutlineTree) -> [CollectionPlace] {
        let holder = parent.flatMap(ShowcaseTargets.collectionID)
        return tree.children(of: parent).compactMap(ShowcaseTargets.collectionID).enumerated().map {
            CollectionPlace(id: $1, parent: holder, position: $0)
        }
    }
}
