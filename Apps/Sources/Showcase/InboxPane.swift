import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol
import Foundation
import ShowcaseModel

/// Situation 15: a mail inbox that refreshes (K8) and a new message whose To: field has a
/// contact-add button (K5).
///
/// - The inbox (from the store) sits in an autoscrolling scroll view with a ``RefreshControl``:
///   pulled down from its empty area past the top, scrolled up past the top, or F5, it checks for
///   mail, showing progress; it also checks by itself every `--refresh-every` seconds (180 by
///   default) while the pane is shown. A check fetches the oldest message waiting on the
///   "server" (a hidden collection) into the top of the inbox, in one store transaction; a check
///   is no edit, so it adds no undo step.
/// - Messages drag to the Archive below (a move, undoable), and a drag never refreshes.
/// - To: is a ``RecipientField``: typed addresses, dropped contacts ("Name <email>" only) and
///   contacts picked with its button (the same "Name <email>"), saved as the setting `inbox.to`.
@MainActor
final class InboxPane: ShowcasePane {
    let situation = Situation.named("inbox")!
    let widget: UnsafeMutablePointer<GtkWidget>
    var onChange: (@MainActor () -> Void)?
    var onError: (@MainActor (String) -> Void)?

    private let store: ShowcaseStore
    private unowned let host: GtkDragHost
    private let refreshEvery: Duration
    private let row: UnsafeMutablePointer<GtkWidget>
    private var inbox: StoreListView?
    private var archive: StoreListView?
    private var scroll: DragScrollView?
    private var refresh: RefreshControl?
    private var to: RecipientField?
    private var window: TargetID?
    private var refreshes = 0
    private var lastTrigger: RefreshControl.Trigger?
    private var lastFetched: String?
    private static let scrollID = TargetID("inbox-scroll")
    private static let toID = TargetID("inbox-to")

    init(store: ShowcaseStore, host: GtkDragHost, refreshEvery: Duration) {
        self.store = store
        self.host = host
        self.refreshEvery = refreshEvery
        row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 24)
        gtk_box_set_homogeneous(dd_box(UnsafeMutableRawPointer(row)), 1)
        gtk_widget_set_vexpand(row, 1)
        widget = row
    }

    func activate(in window: TargetID) {
        self.window = window
        if inbox == nil { build() }
        guard let inbox, let archive, let scroll, let to else { return }
        do {
            try scroll.register(in: window)
            try to.register(in: window)
        } catch {
            onError?("\(error)")
        }
        inbox.register(in: Self.scrollID)
        archive.register(in: window)
        refresh?.setSchedule(every: refreshEvery)
        reload()
    }

    func deactivate() {
        refresh?.setSchedule(every: nil)
        inbox?.unregister()
        archive?.unregister()
        host.unregister(Self.scrollID)
        to?.unregister()
        window = nil
    }

    func reload() { reload(selecting: nil) }

    private func reload(selecting ids: [ItemID]?) {
        let lists = [inbox, archive].compactMap { $0 }
        for list in lists { list.reload(selecting: ids) }
        onChange?()
    }

    private func build() {
        do {
            guard let inboxCollection = try store.collection(pane: .inbox, key: "inbox"),
                let archiveCollection = try store.collection(pane: .inbox, key: "archive")
            else { return }
            let messages = StoreListView.Options(
                itemType: MailPane.itemType, noun: Noun("message"), emptyText: words("No Messages"))
            var growing = messages
            growing.growsWithRows = true
            let inbox = StoreListView(collection: inboxCollection, store: store, host: host, options: growing)
            let archive = StoreListView(collection: archiveCollection, store: store, host: host, options: messages)
            for list in [inbox, archive] {
                list.onStoreChanged = { [weak self] ids in self?.reload(selecting: ids) }
                list.onSelectionChanged = { [weak self] in self?.onChange?() }
                list.onError = { [weak self] message in self?.onError?(message) }
            }
            let scroll = DragScrollView(id: Self.scrollID, name: "Inbox", child: inbox.widget, host: host)
            let refresh = RefreshControl(wrapping: scroll.widget, name: "Inbox", host: host)
            refresh.refreshingText = "Checking for Mail\u{2026}"
            refresh.onRefresh = { [weak self] trigger in self?.check(trigger) }
            refresh.onPull = { [weak self] _ in self?.onChange?() }
            let column = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 12)
            UI.append(column, refresh.widget)
            gtk_widget_set_size_request(archive.widget, -1, 120)
            gtk_widget_set_vexpand(archive.widget, 0)  // the inbox takes the height
            UI.append(column, archive.widget)
            UI.append(row, column)
            self.inbox = inbox
            self.archive = archive
            self.scroll = scroll
            self.refresh = refresh
        } catch {
            onError?(words("Could not read the inbox: {reason}", ["reason": "\(error)"]))
            return
        }

        let message = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        UI.append(message, UI.label(words("New Message"), selectable: true, css: ["heading"]))
        let line = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
        UI.append(line, UI.label(words("To:"), selectable: true))
        let store = self.store
        let to = RecipientField(id: Self.toID, name: words("To"), placeholder: words("Name or email"), host: host) {
            ContactsMailPane.contacts(in: store)
        }
        gtk_widget_set_hexpand(to.widget, 1)
        if let saved = try? store.setting("inbox.to"), !saved.isEmpty { to.entry.replaceText(with: saved) }
        to.onChange = { [weak self] in self?.toChanged() }
        to.onError = { [weak self] message in self?.onError?(message) }
        UI.append(line, to.widget)
        UI.append(message, line)
        UI.append(
            message,
            UI.label(
                "Type addresses, or use the button to add a contact: it adds the same \"Name <email>\" as dropping "
                    + "the contact.", selectable: true, wrap: true))
        UI.append(row, message)
        self.to = to
    }

    private func toChanged() {
        do {
            try store.setSettings(["inbox.to": to?.text ?? ""])
        } catch {
            onError?("Could not save the message: \(error)")
        }
        onChange?()
    }

    /// A check for mail: 0.8 s of progress, then the oldest waiting message arrives at the top
    /// of the inbox (one store transaction; a check is no edit, so no undo step).
    private func check(_ trigger: RefreshControl.Trigger) {
        refreshes += 1
        lastTrigger = trigger
        onChange?()
        for step in 1...4 {
            GLibSource.once(afterMilliseconds: UInt32(step * 200)) { [weak self] in
                guard let self, let refresh = self.refresh else { return }
                refresh.updateProgress(Double(step) / 4)
                guard step == 4 else { return }
                self.fetch()
                refresh.endRefreshing()
                self.onChange?()
            }
        }
    }

    private func fetch() {
        do {
            guard let server = try store.collection(pane: .inbox, key: "server"), let inboxID = inbox?.collection.id,
                let next = try store.items(in: server.id ?? 0).first, let id = next.id
            else {
                lastFetched = nil
                host.announce("No new mail.")
                return
            }
            _ = try store.move([id], to: inboxID, at: 0)
            lastFetched = next.title
            host.announce(words("New mail: {title}.", ["title": next.title]))
            reload(selecting: nil)
        } catch {
            onError?(words("Could not check for mail: {reason}", ["reason": "\(error)"]))
        }
    }

    func state() -> StateLine {
        var state = StateLine()
        let lists = [inbox, archive].compactMap { $0 }
        state.lists = keyed(
            lists.map { ($0.collection.name, (try? store.items(in: $0.collection.id ?? 0).map(\.title)) ?? []) }
                + [("To", [to?.text ?? ""])])
        state.selected = keyed(
            lists.map { list in
                (list.collection.name, list.selectedTitles)
            })
        state.refreshing = refresh?.isRefreshing ?? false
        state.refreshes = refreshes
        state.trigger = lastTrigger?.rawValue
        state.fetched = lastFetched
        state.waiting =
            (try? store.collection(pane: .inbox, key: "server")).flatMap { $0 }
            .flatMap { try? store.items(in: $0.id ?? 0).count } ?? 0
        state.pulled = refresh?.shownDistance ?? 0
        state.scrollOffset = scroll?.verticalOffset ?? 0
        return state
    }

    func layout() -> PaneLayout? {
        guard let inbox, let archive, let to, let scrollFrame = host.frameInWindow(of: Self.scrollID),
            scrollFrame.height > 0, let list = inbox.frame(), let rows = inbox.elementFrames(),
            let archiveFrame = archive.frame(), let field = host.frameInWindow(of: Self.toID),
            let window = gtk_widget_get_root(widget).map({
                UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self)
            }),
            let button = UI.bounds(of: to.contactAddButton.widget, in: window)
        else { return nil }
        var layout = PaneLayout()
        layout.lists = [
            ("Inbox", scrollFrame), ("Messages", list), ("Archive", archiveFrame), ("To", field),
            ("Add Contact", Rect(x: button.x, y: button.y, width: button.width, height: button.height)),
        ]
        layout.rows = [("Inbox", rows), ("Archive", archive.elementFrames() ?? [])]
        layout.targets = [("Inbox", inbox.containerID), ("Archive", archive.containerID), ("To", Self.toID)]
        return layout
    }
}
