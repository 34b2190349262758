import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol
import Foundation
import Synchronization

// `--scene apps`: one process of a pair (or a peer of another app) for drags between apps.
//
//   dragdrop-gtk-fixture --scene apps --name A [--text "Hello from A"] [--slow-text BYTES]
//                        [--read-timeout SECONDS] [--inbox-limit BYTES] [--private-only]
//                        [--size WIDTHxHEIGHT]
//
// The window "DragDrop apps <name>" holds a draggable text item (a label) and an "Inbox" that
// accepts text dropped from anywhere and lists what arrived. The item offers, richest first, a
// private native form (never offered to other apps, P5), HTML and UTF-8 text; with
// --slow-text the text is BYTES long and produced slowly, for interrupted transfers, and is the
// only text offered (no HTML, which another app would read first); with
// --inbox-limit the Inbox refuses texts longer than BYTES (a drop that fails after its transfer);
// with --private-only the item offers only its private native form (other apps see no type at
// all, P5) and the Inbox takes that form too.
//
// Prints JSON lines like the default scene, plus:
//   {"kind":"apps-state","name":…,"received":[…],"status":…,"pending":n}   after every change
//   {"kind":"apps-layout","window":[w,h],"item":[x,y,w,h],"inbox":[x,y,w,h]}   frames in window coordinates
//   {"kind":"ready"}   once both are laid out

@MainActor
final class AppsScene: GtkDragHostDelegate {
    /// The item's private native type (offered only inside this app).
    static let noteType: ContentType = "application/x-dragdrop-note"

    let name: String
    let text: String
    let slowBytes: Int?
    let readTimeout: Double?
    let inboxLimit: Int64?
    let privateOnly: Bool
    let size: (width: Int32, height: Int32)
    var host: GtkDragHost?
    var received: [String] = []
    var status = "Drop text here."
    var pending = 0
    var statusLabel: GObjectRef?
    var announcedReady = false
    let printer = ChangedLineWriter()

    /// The scene for these arguments, or nil when they do not ask for `--scene apps`.
    init?(arguments: [String]) {
        func value(_ flag: String) -> String? {
            guard let i = arguments.firstIndex(of: flag), i + 1 < arguments.count else { return nil }
            return arguments[i + 1]
        }
        guard value("--scene") == "apps" else { return nil }
        name = value("--name") ?? "A"
        text = value("--text") ?? "Hello from \(name)"
        slowBytes = value("--slow-text").flatMap(Int.init)
        readTimeout = value("--read-timeout").flatMap(Double.init)
        inboxLimit = value("--inbox-limit").flatMap(Int64.init)
        privateOnly = arguments.contains("--private-only")
        let parts = (value("--size") ?? "420x260").split(separator: "x").compactMap { Int32($0) }
        size = parts.count == 2 ? (parts[0], parts[1]) : (420, 260)
    }

    func activate(_ app: UnsafeMutablePointer<GtkApplication>) {
        let host = GtkDragHost(app: AppID("dragdrop-apps-\(name)"))
        self.host = host
        if let readTimeout { host.otherAppReadTimeout = readTimeout }
        host.onEvent = { [weak self] event in
            guard let self, let host = self.host else { return }
            LineWriter.write(FeedbackLine(event, at: host.engine.clock.now))
        }
        host.onDiagnostic = { message in LineWriter.write(GtkLine(message: message)) }
        host.onFramesChanged = { [weak self] in self?.printLayout() }

        guard let window = gtk_application_window_new(app) else { return }
        gtk_window_set_title(dd_window(window), "DragDrop apps \(name)")
        gtk_window_set_default_size(dd_window(window), size.width, size.height)
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)
        for margin in [
            gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start,
            gtk_widget_set_margin_end,
        ] {
            margin(box, 16)
        }
        gtk_window_set_child(dd_window(window), box)

        let item = gtk_label_new(text)
        gtk_widget_set_size_request(item, -1, 48)
        gtk_label_set_ellipsize(dd_label(UnsafeMutableRawPointer(item)), PANGO_ELLIPSIZE_END)
        gtk_widget_add_css_class(item, "card")
        gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), item)

        let inbox = gtk_frame_new("Inbox")
        gtk_widget_set_vexpand(inbox, 1)
        let status = gtk_label_new(status)
        gtk_label_set_wrap(dd_label(UnsafeMutableRawPointer(status)), 1)
        statusLabel = GObjectRef(status)
        if let inbox {
            gtk_frame_set_child(UnsafeMutableRawPointer(inbox).assumingMemoryBound(to: GtkFrame.self), status)
        }
        gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), inbox)

        do {
            try host.addWindow(window, id: "window", name: "DragDrop apps \(name)")
            var destination = DragTarget(id: "inbox", name: "Inbox", frame: .zero, parent: "window")
            destination.accepts =
                privateOnly ? [Self.noteType, .utf8PlainText, .plainText] : [.utf8PlainText, .plainText]
            if let inbox { try host.register(inbox, as: destination, delegate: self) }
            var source = DragTarget(id: "note", name: text, frame: .zero, parent: "window")
            source.offers =
                privateOnly
                ? [Self.noteType] : [Self.noteType] + (slowBytes == nil ? [.html] : []) + [.utf8PlainText]
            if let item { try host.register(item, as: source, delegate: self) }
        } catch {
            LineWriter.write(ErrorLine(message: error.description))
            g_application_quit(dd_application(app))
            return
        }
        gtk_window_present(dd_window(window))
        printState()
    }

    // MARK: GtkDragHostDelegate

    func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        guard drop.destination == "inbox" else {
            return .failed(DropFailure(.forbidden, "Only the Inbox takes drops."))
        }
        pending += 1
        status = "Receiving…"
        printState()
        let token = drop.token
        let data = drop.data
        let options = LoadOptions(limit: inboxLimit)
        Task { @MainActor in
            var texts: [String] = []
            do throws(TransferError) {
                for index in 0..<data.itemCount {
                    let loaded = try await data.load(
                        item: index, accepting: [Self.noteType, .utf8PlainText, .plainText], options: options)
                    guard case .data(let type, let bytes) = loaded else { continue }
                    if type == Self.noteType {
                        // {"note":"…"}: the text inside.
                        let note = try? JSONSerialization.jsonObject(with: bytes) as? [String: String]
                        texts.append(note?["note"] ?? "")
                    } else {
                        texts.append(String(decoding: bytes, as: UTF8.self))
                    }
                }
            } catch {
                self.finish(token, .failed(error.dropFailure), status: Sentence.explaining("Drop failed", error))
                return
            }
            let before = self.received
            // All or nothing: the texts appear only once every item arrived (no partial content).
            self.received += texts
            let after = self.received
            let undo = UndoableAction(
                undo: { [weak self] in self?.setReceived(before) }, redo: { [weak self] in self?.setReceived(after) })
            self.finish(token, .committed(undo: undo), status: "Received \(texts.count) text(s).")
        }
        return .deferred(placeholders: max(1, drop.items.count))
    }

    func dragHost(_ host: GtkDragHost, itemProviderFor item: TargetID) -> ItemProvider? {
        guard item == "note" else { return nil }
        let text = text
        var plain = Representation.text(.utf8PlainText, text)
        if let slowBytes { plain = Self.slowText(bytes: slowBytes) }
        if privateOnly {
            return ItemProvider(
                app: host.engine.app,
                representations: [.data(Self.noteType, Data("{\"note\":\"\(text)\"}".utf8), visibility: .ownApp)])
        }
        // A slow text is the only text offered: another app reads that one, not a fast HTML.
        return ItemProvider(
            app: host.engine.app,
            representations: [.data(Self.noteType, Data("{\"note\":\"\(text)\"}".utf8), visibility: .ownApp)]
                + (slowBytes == nil ? [.text(.html, "<p><b>\(text)</b></p>")] : []) + [plain])
    }

    // MARK: State

    private func finish(_ token: DropToken, _ result: DropResult, status: String) {
        pending -= 1
        self.status = status
        host?.engine.completeDeferredDrop(token, with: result)
        printState()
    }

    private func setReceived(_ texts: [String]) {
        received = texts
        printState()
    }

    /// Text of `bytes` letters produced 64 KiB every 40 ms: a slow source (for transfers cut
    /// short when the source app quits).
    static func slowText(bytes: Int) -> Representation {
        final class Counter: Sendable { let sent = Mutex(0) }
        return Representation(.utf8PlainText, size: nil) {
            let counter = Counter()
            return .stream(
                ClosureSource(size: nil) { maxLength in
                    try await Task.sleep(for: .milliseconds(40))
                    let count = counter.sent.withLock { sent -> Int in
                        let n = min(maxLength, 64 * 1024, bytes - sent)
                        sent += n
                        return n
                    }
                    return Data(repeating: UInt8(ascii: "x"), count: count)
                })
        }
    }

    func printState() {
        if let label = statusLabel {
            let shown =
                received.isEmpty
                ? status : "\(status)\n" + received.map { String($0.prefix(60)) }.joined(separator: "\n")
            gtk_label_set_text(dd_label(label.raw), shown)
        }
        printer.write(
            AppsStateLine(
                name: name,
                received: received.map { $0.count > 200 ? "\($0.prefix(200))…(\($0.utf8.count) bytes)" : $0 },
                status: status, pending: pending))
    }

    func printLayout() {
        guard let host, let window = host.frameInWindow(of: "window"), let item = host.frameInWindow(of: "note"),
            let inbox = host.frameInWindow(of: "inbox")
        else { return }
        LineWriter.write(AppsLayoutLine(window: [window.width, window.height], item: Frame(item), inbox: Frame(inbox)))
        if item.height > 0, inbox.height > 0, !announcedReady {
            announcedReady = true
            LineWriter.write(ReadyLine())
        }
    }
}
