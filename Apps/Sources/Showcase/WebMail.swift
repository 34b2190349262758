import CGtk4
import ShowcaseModel
import DragDrop
import DragDropGTK
import DriverProtocol
import Foundation

/// Situation 3: a photo dragged from a web page (another process, `showcase --role page`) into
/// a new message. The page offers each photo as `image/png` to other apps (produced only when
/// the message reads it); the message's body takes `image/png` and any `image/*` from other
/// apps. Drops from another app are external sessions: they always copy, and the data is read
/// after the drop, so the body defers the drop while it loads.
enum WebPhotos {
    struct Photo: Sendable {
        var title: String
        var sky: (Double, Double, Double)
        var ground: (Double, Double, Double)
        var sun: (Double, Double, Double)
    }

    static let size = (width: Int32(160), height: Int32(110))

    static let all: [Photo] = [
        Photo(title: "Beach", sky: (0.55, 0.78, 0.95), ground: (0.93, 0.84, 0.6), sun: (1, 0.85, 0.2)),
        Photo(title: "Mountains", sky: (0.7, 0.82, 0.95), ground: (0.35, 0.5, 0.35), sun: (1, 1, 0.9)),
        Photo(title: "Sunset", sky: (0.95, 0.6, 0.4), ground: (0.25, 0.2, 0.3), sun: (1, 0.4, 0.2)),
    ]

    /// The photo as a PNG image (cairo): sky, sun, hills. Safe off the main thread (the drag
    /// produces it when the other app reads it).
    static func png(_ photo: Photo) throws -> Data {
        try Artwork.png(width: size.width, height: size.height) { cr in
            let w = Double(size.width), h = Double(size.height)
            cairo_set_source_rgb(cr, photo.sky.0, photo.sky.1, photo.sky.2)
            cairo_paint(cr)
            cairo_set_source_rgb(cr, photo.sun.0, photo.sun.1, photo.sun.2)
            cairo_arc(cr, w * 0.7, h * 0.35, 16, 0, 2 * Double.pi)
            cairo_fill(cr)
            cairo_set_source_rgb(cr, photo.ground.0, photo.ground.1, photo.ground.2)
            cairo_move_to(cr, 0, h)
            cairo_line_to(cr, 0, h * 0.7)
            cairo_curve_to(cr, w * 0.3, h * 0.45, w * 0.6, h * 0.9, w, h * 0.6)
            cairo_line_to(cr, w, h)
            cairo_close_path(cr)
            cairo_fill(cr)
        }
    }

    @MainActor static func texture(_ data: Data) -> OpaquePointer? {
        let bytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        return gdk_texture_new_from_bytes(bytes, nil)
    }

    @MainActor static func picture(_ data: Data) -> UnsafeMutablePointer<GtkWidget> {
        let picture = gtk_picture_new()!
        if let texture = texture(data) {
            gtk_picture_set_paintable(dd_picture(UnsafeMutableRawPointer(picture)), texture)
            g_object_unref(UnsafeMutableRawPointer(texture))
        }
        return picture
    }
}

/// `showcase --role page`: the "Web Page" window, its own process and app, whose photos offer
/// `image/png` to other apps. In `--tour` mode it prints `layout` (the photos' frames), `ready`
/// and feedback lines like the showcase.
@MainActor
final class WebPageWindow: GtkDragHostDelegate {
    static let windowID: TargetID = "web-page"
    static let title = "Web Page"

    let output: TourOutput?
    private var host: GtkDragHost?
    private var window: UnsafeMutablePointer<GtkWidget>?
    private var cards: [UnsafeMutablePointer<GtkWidget>] = []
    private var menus: [EditMenu] = []

    /// Where dragged photos are written as files for other apps (nil: the host's default cache).
    private let exports: URL?

    init(tour: Bool, exports: URL? = nil) {
        output = tour ? TourOutput() : nil
        self.exports = exports
    }

    /// Puts a photo on the clipboard as `image/png`.
    private func copyPhoto(_ index: Int) {
        guard let data = try? WebPhotos.png(WebPhotos.all[index]) else { return }
        EditClipboard.copy([ExportedRepresentation(mimeType: "image/png", bytes: Array(data))], from: cards[index])
        output?.write(CopiedLine(title: WebPhotos.all[index].title))
    }

    private func id(_ index: Int) -> TargetID { TargetID("web-photo-\(index)") }

    func activate(_ app: UnsafeMutablePointer<GtkApplication>) {
        let host = GtkDragHost(app: "Web Page")
        if let exports { host.fileExport.directory = exports }
        self.host = host
        guard let window = gtk_application_window_new(app) else { return }
        self.window = window
        gtk_window_set_title(dd_window(window), Self.title)
        gtk_window_set_default_size(dd_window(window), 300, 520)
        let column = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 10)
        UI.margins(column, 14)
        gtk_window_set_child(dd_window(window), column)
        UI.append(column, UI.label(words("Holiday Photos"), selectable: true, css: ["title-2"]))
        UI.append(column, UI.label(words("Drag a photo into a new message."), selectable: true, wrap: true))
        for photo in WebPhotos.all {
            let card = FocusNavigation.focusableBox(GTK_ORIENTATION_VERTICAL, spacing: 4)
            gtk_widget_set_halign(card, GTK_ALIGN_START)
            if let data = try? WebPhotos.png(photo) {
                let picture = WebPhotos.picture(data)
                gtk_widget_set_size_request(picture, WebPhotos.size.width, WebPhotos.size.height)
                UI.append(card, picture)
            }
            UI.append(card, UI.label(photo.title, xalign: 0.5))
            UI.append(column, card)
            cards.append(card)
            // Without a pointer (C4): Tab to a photo, Ctrl+C (or Copy in its menu), then paste
            // it into the message.
            let index = cards.count - 1
            menus.append(
                EditMenu(attachedTo: card, name: photo.title) { [weak self] in
                    [EditCommand("Copy") { [weak self] in self?.copyPhoto(index) }]
                })
            UI.onKey(card, "c", control: true) { [weak self] in self?.copyPhoto(index) }
        }
        host.onEvent = { [weak self] event in
            guard let self, let output = self.output, let host = self.host else { return }
            output.write(FeedbackLine(event, at: host.engine.clock.now))
        }
        host.onDiagnostic = { [weak self] message in self?.output?.write(GtkLine(message: message)) }
        do {
            try host.addWindow(window, id: Self.windowID, name: Self.title)
            for (index, card) in cards.enumerated() {
                var source = DragTarget(
                    id: id(index), name: WebPhotos.all[index].title, frame: .zero, parent: Self.windowID)
                source.offers = [.png]
                try host.register(card, as: source, delegate: self)
            }
        } catch {
            FileHandle.standardError.write(Data("showcase --role page: \(error)\n".utf8))
        }
        if let output {
            GSignal.connect(
                UnsafeMutableRawPointer(window), "notify::focus-widget",
                pointer: { _ in
                    guard let focus = ControlsReport.focus(in: window) else { return }
                    output.write(focus)
                })
            GSignal.connect(UnsafeMutableRawPointer(window), "realize") { [weak self] in
                guard let clock = gtk_widget_get_frame_clock(window) else { return }
                GSignal.connect(UnsafeMutableRawPointer(clock), "after-paint") { [weak self] in self?.printLayout() }
            }
        }
        gtk_window_present(dd_window(window))
    }

    func dragHost(_ host: GtkDragHost, itemProviderFor item: TargetID) -> ItemProvider? {
        guard let index = cards.indices.first(where: { id($0) == item }) else { return nil }
        let photo = WebPhotos.all[index]
        // A file form too ("Beach.png"): browsers' upload zones and file managers take files.
        return ItemProvider(
            app: host.engine.app, representations: [Representation(.png) { .data(try WebPhotos.png(photo)) }],
            suggestedName: photo.title)
    }

    func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        .failed(DropFailure(.forbidden, words("The page takes no drops.")))
    }

    private func printLayout() {
        guard let output, let window, let host, !host.engine.isDragging else { return }
        var sx = 0.0, sy = 0.0
        gtk_native_get_surface_transform(OpaquePointer(window), &sx, &sy)
        var layout = LayoutLine()
        layout.pane = "page"
        layout.window = [Double(gtk_widget_get_width(window)), Double(gtk_widget_get_height(window))]
        layout.surface = [sx, sy]
        layout.lists = [:]
        for index in cards.indices {
            guard let frame = host.frameInWindow(of: id(index)), frame.height > 0 else { return }
            layout.lists?[WebPhotos.all[index].title] = Frame(frame)
        }
        let printed = output.writeIfChanged(layout)
        if printed { output.announceReadyOnce() }
    }
}

/// 3. The "New Message" pane: its body takes a photo from another app (a copy, S2), in any
/// form a browser or a file manager offers it (``ImageIntake``: an image type, a file or web
/// address, bytes, an `<img>`); a download shows a placeholder with progress and Cancel (A4, A5).
@MainActor
final class WebMailPane: ShowcasePane, GtkDragHostDelegate {
    struct Received {
        var type: String
        var size: Int
        var from: String
        var operation: String
        /// How it came: `image`, `file`, `web`, `data`, `bytes`, or `paste`.
        var origin: String = "image"
        /// The file name it came with, if any.
        var name: String?
    }

    /// What the body takes: images, or what may carry one.
    static let intake = ImageIntake.gdk(images: [.png, .jpeg])

    let situation = Situation.named("web-mail")!
    let widget: UnsafeMutablePointer<GtkWidget>
    var onChange: (@MainActor () -> Void)?
    var onError: (@MainActor (String) -> Void)?

    private unowned let host: GtkDragHost
    private let body: UnsafeMutablePointer<GtkWidget>
    private let bodyLabel: UnsafeMutablePointer<GtkWidget>
    private let picture: UnsafeMutablePointer<GtkWidget>
    private var received: Received?
    private var registered = false
    private let bodyID: TargetID = "web-mail-body"
    /// The placeholder shown while a dropped photo arrives: a line, a progress bar, Cancel.
    private let placeholder: UnsafeMutablePointer<GtkWidget>
    private let placeholderLabel: UnsafeMutablePointer<GtkWidget>
    private let placeholderBar: UnsafeMutablePointer<GtkWidget>
    private var cancelButton: UnsafeMutablePointer<GtkWidget>!
    /// The loads in progress, by drop: Cancel (or the placeholder's end) stops them.
    private var loads: [DropToken: Task<Void, Never>] = [:]

    init(host: GtkDragHost) {
        self.host = host
        let column = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 8)
        widget = column
        UI.append(
            column,
            UI.label(
                "Run `showcase --role page` (make run starts it too), or open a page in a web browser, and drag a "
                    + "photo into the message.",
                selectable: true, wrap: true))
        let message = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        gtk_widget_add_css_class(message, "card")
        UI.margins(message, 4)
        gtk_widget_set_vexpand(message, 1)
        UI.append(message, UI.label(words("New Message"), selectable: true, css: ["sc-list-title"]))
        UI.append(message, UI.label(words("To: Grandma <grandma@example.com>"), selectable: true))
        UI.append(message, UI.label(words("Subject: Photos from our holiday"), selectable: true))
        UI.append(message, gtk_separator_new(GTK_ORIENTATION_HORIZONTAL))
        body = FocusNavigation.focusableBox(GTK_ORIENTATION_VERTICAL, spacing: 6)
        gtk_widget_set_vexpand(body, 1)
        gtk_widget_set_size_request(body, 300, 240)
        bodyLabel = UI.label(words("Hi Grandma, here is a photo. (Drop a photo here.)"), wrap: true)
        UI.append(body, bodyLabel)
        placeholder = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 4)
        gtk_widget_add_css_class(placeholder, "dd-placeholder")
        placeholderLabel = UI.label(words("Adding the photo…"), css: ["dim-label"])
        placeholderBar = gtk_progress_bar_new()!
        UI.append(placeholder, placeholderLabel)
        UI.append(placeholder, placeholderBar)
        gtk_widget_set_visible(placeholder, 0)
        UI.append(body, placeholder)
        picture = gtk_picture_new()!
        gtk_widget_set_vexpand(picture, 1)
        UI.append(body, picture)
        UI.append(message, body)
        UI.append(column, message)
        // Without a pointer (C4): Tab to the body, Ctrl+V (or Paste in its menu) attaches the
        // photo copied in the page.
        menu = EditMenu(attachedTo: body, name: words("Message Body")) { [weak self] in self?.editCommands() ?? [] }
        UI.onKey(body, "v", control: true) { [weak self] in self?.paste() }
        cancelButton = UI.button(words("Cancel"), tooltip: words("Stop adding the photo"), bordered: true) {
            [weak self] in
            self?.cancelLoads()
        }
        gtk_widget_set_halign(cancelButton, GTK_ALIGN_START)
        UI.append(placeholder, cancelButton)
    }

    private var menu: EditMenu?

    /// Undo and Redo, and Paste while the clipboard holds an image.
    private func editCommands() -> [EditCommand] {
        var commands = EditMenu.undoCommands(host, for: bodyID)
        if EditClipboard.hasImage(for: body) {
            commands.append(EditCommand("Paste") { [weak self] in self?.paste() })
        }
        return commands
    }

    /// Attaches the clipboard's image (decoded by GDK, as PNG): one undo step, "Paste Photo".
    private func paste() {
        guard EditClipboard.hasImage(for: body) else { return }
        EditClipboard.readImage(for: body) { [weak self] bytes in
            guard let bytes else { return }
            Task { @MainActor [weak self] in
                let image: DroppedImage
                do throws(DroppedImage.Problem) {
                    image = try await DroppedImage.decode(bytes, type: .png)
                } catch {
                    self?.host.onNotice?(error.dropFailure.message)
                    return
                }
                guard let self else { return }
                let before = self.received
                let beforeImage = self.shownImage
                let after = Received(
                    type: "image/png", size: bytes.count, from: "the clipboard", operation: "paste", origin: "paste")
                self.show(after, image: image)
                self.host.registerEdit(
                    "Paste Photo", in: self.bodyID, undo: { [weak self] in self?.show(before, image: beforeImage) },
                    redo: { [weak self] in self?.show(after, image: image) })
            }
        }
    }

    func activate(in window: TargetID) {
        guard !registered else { return }
        var target = DragTarget(id: bodyID, name: words("Message Body"), frame: .zero, parent: window)
        // PNG and JPEG (the pictures ``DroppedImage`` decodes), as themselves or as another
        // app's file, web address, bytes or <img> (a browser's photo, ``ImageIntake``).
        target.accepts = Self.intake.acceptedTypes
        target.operationPolicy = .alwaysCopy
        do {
            try host.register(body, as: target, delegate: self)
            registered = true
        } catch {
            UI.setText(bodyLabel, "Could not register: \(error)")
        }
        onChange?()
    }

    func deactivate() {
        guard registered else { return }
        host.unregister(bodyID)
        registered = false
    }

    func reload() { onChange?() }

    func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        guard drop.destination == bodyID else { return .failed(DropFailure(.forbidden, words("Not here."))) }
        let token = drop.token
        let data = drop.data
        let from = drop.items.first?.app.rawValue ?? "?"
        let operation = "\(drop.operation)"
        loads[token] = Task { @MainActor [weak self] in
            let image: ImageIntake.Image
            do throws(TransferError) {
                image = try await Self.intake.load(from: data) { fraction in
                    Task { @MainActor in host.updateDeferredDrop(token, progress: fraction) }
                } sourceDone: {
                    // The browser gets its pointer back while the photo downloads.
                    Task { @MainActor in host.otherAppDone(with: token) }
                }
            } catch {
                self?.loads[token] = nil
                host.completeDeferredDrop(token, with: .failed(Self.failure(error)))
                return
            }
            // Attached only once it has decoded: a broken picture is refused, not "copied".
            let picture: DroppedImage
            do throws(DroppedImage.Problem) {
                picture = try await DroppedImage.decode(image.data, type: image.type)
            } catch {
                self?.loads[token] = nil
                host.completeDeferredDrop(token, with: .failed(DropLoading.refusal(.photo, error.clause)))
                return
            }
            guard let self else { return }
            self.loads[token] = nil
            let before = self.received
            let beforeImage = self.shownImage
            let after = Received(
                type: image.type.mimeType, size: image.data.count, from: from, operation: operation,
                origin: image.origin.description, name: image.name)
            self.show(after, image: picture)
            let undo = UndoableAction(
                undo: { [weak self] in self?.show(before, image: beforeImage) },
                redo: { [weak self] in self?.show(after, image: picture) })
            host.completeDeferredDrop(token, with: .committed(undo: undo))
        }
        return .deferred(placeholders: 1)
    }

    /// What the person reads when a photo could not be added (F7, A6): one sentence with the
    /// most telling reason ``ImageIntake`` found. A reason about the picture itself (its bytes'
    /// signature, or ``DroppedImage``'s checks) is said as it is: "The photo was not added: it is
    /// damaged: its IDAT chunk is corrupt."; any other as ``DropLoading`` words it: "The photo
    /// was not added: nothing arrived from the other app for 15 seconds.".
    private static func failure(_ error: TransferError) -> DropFailure {
        if error == .cancelled { return DropFailure(.cancelled, words("Adding the photo was cancelled.")) }
        if case .malformed(let type, let reason) = error, ContentType(type).mediaType == "image" {
            return DropLoading.refusal(.photo, reason)
        }
        return DropLoading.failure(error, adding: .photo)
    }

    /// Cancel on the placeholder: stops every load; each drop fails as cancelled.
    private func cancelLoads() {
        for task in loads.values { task.cancel() }
    }

    // MARK: Placeholder (A4, A5)

    func dragHost(
        _ host: GtkDragHost, placeholder token: DropToken, in container: TargetID, changed: PlaceholderChange
    ) {
        switch changed {
        case .inserted:
            setPlaceholderText("Adding the photo…")
            gtk_progress_bar_set_fraction(dd_progress_bar(UnsafeMutableRawPointer(placeholderBar)), 0)
            gtk_widget_set_visible(placeholder, 1)
        case .progress(let fraction):
            let bar = dd_progress_bar(UnsafeMutableRawPointer(placeholderBar))
            if let fraction {
                gtk_progress_bar_set_fraction(bar, fraction)
                setPlaceholderText("Downloading the photo… \(Int((fraction * 100).rounded())) %")
            } else {
                gtk_progress_bar_pulse(bar)
                setPlaceholderText("Downloading the photo…")
            }
        case .resolved, .failed:
            gtk_widget_set_visible(placeholder, 0)
        }
        onChange?()
    }

    /// The placeholder's line, for the tour's state.
    private var placeholderText = ""

    private func setPlaceholderText(_ text: String) {
        placeholderText = text
        UI.setText(placeholderLabel, text)
    }

    private var shownImage: DroppedImage?

    private func show(_ value: Received?, image: DroppedImage?) {
        received = value
        shownImage = image
        let paintable = dd_picture(UnsafeMutableRawPointer(picture))
        if let value, let texture = image?.makeTexture() {
            gtk_picture_set_paintable(paintable, texture)
            g_object_unref(UnsafeMutableRawPointer(texture))
            UI.setText(
                bodyLabel,
                "Hi Grandma, here is a photo. Attached: \(value.type), "
                    + "\(ByteCountFormatter.string(fromByteCount: Int64(value.size), countStyle: .binary)) "
                    + "(copied from \(value.from)).")
        } else {
            gtk_picture_set_paintable(paintable, nil)
            UI.setText(bodyLabel, "Hi Grandma, here is a photo. (Drop a photo here.)")
        }
        onChange?()
    }

    func state() -> StateLine {
        var state = StateLine()
        state.loading = gtk_widget_get_visible(placeholder) != 0 ? placeholderText : nil
        state.received = received.map {
            StateLine.Received(
                type: $0.type, size: $0.size, from: $0.from, operation: $0.operation, origin: $0.origin, name: $0.name)
        }
        return state
    }

    func layout() -> PaneLayout? {
        guard registered, let frame = host.frameInWindow(of: bodyID), frame.height > 0 else { return nil }
        var layout = PaneLayout()
        layout.lists.append(("Body", frame))
        layout.targets.append(("Body", bodyID))
        // The placeholder's Cancel button while a photo arrives.
        if gtk_widget_get_visible(placeholder) != 0, let root = gtk_widget_get_root(cancelButton),
            let b = UI.bounds(
                of: cancelButton, in: UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self)),
            b.height > 0
        {
            layout.lists.append(("Cancel", Rect(x: b.x, y: b.y, width: b.width, height: b.height)))
        }
        return layout
    }
}
