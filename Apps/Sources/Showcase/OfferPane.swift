import CGtk4
import ShowcaseModel
import DragDrop
import DragDropGTK
import DriverProtocol
import Foundation

/// A pane with one draggable item offered in several representations, richest first (P1, P2),
/// and destinations that each take some of them: each shows the representation it received
/// (A2: the richest it accepts). Situations 10 (Charts) and 11 (Drawing).
///
/// The item's data is produced only when a destination loads it at the drop (lazily: cairo
/// renders the image then). A drop is deferred while the data loads, then one undo step.
@MainActor
final class OfferPane: ShowcasePane, GtkDragHostDelegate {
    /// A drop destination and the types it takes.
    struct Destination {
        /// Its key in the state and layout lines, in English.
        var name: String
        /// What the person reads and hears, in their language.
        var title: String
        var accepts: [ContentType]
        /// Shown under the name: what it takes ("Takes charts").
        var caption: String

        /// The image types it takes: from other apps it also takes them as files, web
        /// addresses, bytes or an `<img>` (``ImageIntake``).
        var images: [ContentType] { accepts.filter { $0.mediaType == "image" } }
        /// What its target accepts.
        var registeredTypes: [ContentType] {
            images.isEmpty ? accepts : accepts + ImageIntake(images: images).acceptedTypes.dropFirst(images.count)
        }
    }

    /// What a destination received.
    struct Received: Equatable {
        var type: String
        var size: Int
        var detail: String
    }

    let situation: Situation
    let widget: UnsafeMutablePointer<GtkWidget>
    var onChange: (@MainActor () -> Void)?
    var onError: (@MainActor (String) -> Void)?

    private unowned let host: GtkDragHost
    private let sourceName: String
    /// What the offered item is called in announcements and undo names ("Undo Copy Chart").
    private let noun: Noun
    private let representations: @Sendable () -> [Representation]
    private let describe: @Sendable (ContentType, Data) -> String
    /// Why received data of a type cannot be used (the end of a sentence about it), or nil.
    private let check: @Sendable (ContentType, Data) -> String?
    private let destinations: [Destination]
    private var received: [String: Received] = [:]
    private var sourceWidget: UnsafeMutablePointer<GtkWidget>!
    private var destinationWidgets:
        [(
            box: UnsafeMutablePointer<GtkWidget>, label: UnsafeMutablePointer<GtkWidget>,
            picture: UnsafeMutablePointer<GtkWidget>
        )] = []
    private var registered = false

    /// `representations`: the item's, richest first, produced lazily. `preview`: a PNG shown
    /// on the source. `describe`: a line about received data of a type (the chart's values).
    /// `check`: why received data of a type cannot be used, a clause ("it is not a chart …"),
    /// nil if it can;
    /// pictures are decoded (``DroppedImage``) whatever it says.
    init(
        situation slug: String, host: GtkDragHost, sourceName: String, noun: Noun, preview: Data?,
        representations: @escaping @Sendable () -> [Representation], destinations: [Destination],
        describe: @escaping @Sendable (ContentType, Data) -> String = { _, _ in "" },
        check: @escaping @Sendable (ContentType, Data) -> String? = { _, _ in nil }
    ) {
        situation = Situation.named(slug)!
        self.host = host
        self.sourceName = sourceName
        self.noun = noun
        self.representations = representations
        self.destinations = destinations
        self.describe = describe
        self.check = check
        let column = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 12)
        widget = column

        let offered = representations().map(\.type.mimeType).joined(separator: ", ")
        UI.append(
            column,
            UI.label(words("Offered, richest first: {types}.", ["types": offered]), selectable: true, wrap: true))
        let source = FocusNavigation.focusableBox(GTK_ORIENTATION_VERTICAL, spacing: 4)  // picked up by keyboard
        gtk_widget_set_halign(source, GTK_ALIGN_START)
        gtk_widget_add_css_class(source, "card")
        UI.margins(source, 4)
        if let preview, let picture = Self.picture(preview) {
            gtk_widget_set_size_request(picture, 200, 130)
            UI.append(source, picture)
        }
        UI.append(source, UI.label(sourceName, xalign: 0.5, css: ["sc-list-title"]))
        UI.append(column, source)
        sourceWidget = source

        let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 18)
        gtk_box_set_homogeneous(dd_box(UnsafeMutableRawPointer(row)), 1)
        gtk_widget_set_vexpand(row, 1)
        for destination in destinations {
            let box = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
            gtk_widget_add_css_class(box, "card")
            gtk_widget_set_size_request(box, 180, 200)
            UI.append(box, UI.label(destination.title, xalign: 0.5, css: ["sc-list-title"]))
            UI.append(box, UI.label(destination.caption, xalign: 0.5, css: ["sc-count"]))
            let label = UI.label(words("Nothing received yet."), selectable: false, wrap: true, xalign: 0.5)
            UI.append(box, label)
            let picture = gtk_picture_new()!
            gtk_widget_set_vexpand(picture, 1)
            UI.append(box, picture)
            UI.append(row, box)
            destinationWidgets.append((box, label, picture))
        }
        UI.append(column, row)
    }

    private func sourceID() -> TargetID { TargetID("\(situation.slug)-item") }
    private func destinationID(_ name: String) -> TargetID {
        TargetID("\(situation.slug)-\(name.lowercased())")
    }

    func activate(in window: TargetID) {
        guard !registered else { return }
        do {
            var source = DragTarget(id: sourceID(), name: sourceName, frame: .zero, parent: window)
            source.offers = representations().map(\.type)
            source.kind = noun
            try host.register(sourceWidget, as: source, delegate: self)
            for (destination, widgets) in zip(destinations, destinationWidgets) {
                var target = DragTarget(
                    id: destinationID(destination.name), name: destination.title, frame: .zero, parent: window)
                target.accepts = destination.registeredTypes
                target.operationPolicy = .alwaysCopy
                try host.register(widgets.box, as: target, delegate: self)
            }
            registered = true
        } catch {
            UI.setText(destinationWidgets.first?.label ?? widget, "Could not register: \(error)")
        }
        onChange?()
    }

    func deactivate() {
        guard registered else { return }
        host.unregister(sourceID())
        for destination in destinations { host.unregister(destinationID(destination.name)) }
        registered = false
    }

    func reload() { onChange?() }

    // MARK: GtkDragHostDelegate

    func dragHost(_ host: GtkDragHost, itemProviderFor item: TargetID) -> ItemProvider? {
        guard item == sourceID() else { return nil }
        // A file form too (the chart as "Sales 2026.png", the drawing as "House and Sun.pdf"):
        // browsers and file managers take files.
        return ItemProvider(app: host.engine.app, representations: representations(), suggestedName: sourceName)
    }

    func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        guard let destination = destinations.first(where: { destinationID($0.name) == drop.destination }) else {
            return .failed(DropFailure(.forbidden, words("{name} takes no drops.", ["name": sourceName])))
        }
        let token = drop.token
        let data = drop.data
        let describe = describe
        let check = check
        let what = Self.what(data.choice(item: 0, accepting: destination.accepts)?.delivered)
        Task { @MainActor [weak self] in
            let type: ContentType
            let bytes: Data
            do throws(TransferError) {
                if data.choice(item: 0, accepting: destination.accepts) == nil, !destination.images.isEmpty {
                    // Another app's image as a file, an address, bytes or HTML.
                    let image = try await ImageIntake.gdk(images: destination.images).load(from: data) { fraction in
                        Task { @MainActor in host.updateDeferredDrop(token, progress: fraction) }
                    } sourceDone: {
                        Task { @MainActor in host.otherAppDone(with: token) }
                    }
                    (type, bytes) = (image.type, image.data)
                } else {
                    guard
                        case .data(let t, let b) = try await DropLoading.load(
                            data, item: 0, accepting: destination.accepts)
                    else {
                        throw TransferError.malformed(type: "data", reason: words("it did not arrive in memory"))
                    }
                    (type, bytes) = (t, b)
                }
            } catch {
                host.completeDeferredDrop(token, with: .failed(DropLoading.failure(error, adding: what)))
                return
            }
            if let reason = check(type, bytes) {
                host.completeDeferredDrop(token, with: .failed(DropLoading.refusal(what, reason)))
                return
            }
            // A picture is shown only once it has decoded (never a success with nothing shown).
            var image: DroppedImage?
            if type.mediaType == "image" {
                do throws(DroppedImage.Problem) {
                    image = try await DroppedImage.decode(bytes, type: type)
                } catch {
                    host.completeDeferredDrop(token, with: .failed(error.dropFailure))
                    return
                }
            }
            guard let self else { return }
            let before = self.received[destination.name]
            let beforeImage = self.images[destination.name]
            let after = Received(type: type.mimeType, size: bytes.count, detail: describe(type, bytes))
            self.show(after, image: image, in: destination.name)
            let undo = UndoableAction(
                undo: { [weak self] in self?.show(before, image: beforeImage, in: destination.name) },
                redo: { [weak self] in self?.show(after, image: image, in: destination.name) })
            host.completeDeferredDrop(token, with: .committed(undo: undo))
        }
        return .deferred(placeholders: 1)
    }

    /// What a failure message calls received content of `type`: the picture…
    private static func what(_ type: ContentType?) -> DropLoading.Subject {
        guard let type else { return .content }
        if type.mediaType == "image" { return .picture }
        if type == .pdf { return .document }
        if type == AppsPanes.chartType { return .named(words("The chart")) }
        return .content
    }

    /// The decoded picture each destination shows.
    private var images: [String: DroppedImage] = [:]

    // MARK: Showing

    private func show(_ value: Received?, image: DroppedImage?, in name: String) {
        guard let index = destinations.firstIndex(where: { $0.name == name }) else { return }
        let widgets = destinationWidgets[index]
        received[name] = value
        images[name] = image
        if let value {
            var text =
                "Received \(value.type), \(ByteCountFormatter.string(fromByteCount: Int64(value.size), countStyle: .binary))"
            if !value.detail.isEmpty { text += ": \(value.detail)" }
            UI.setText(widgets.label, text + ".")
        } else {
            UI.setText(widgets.label, "Nothing received yet.")
        }
        let picture = dd_picture(UnsafeMutableRawPointer(widgets.picture))
        if value != nil, let texture = image?.makeTexture() {
            gtk_picture_set_paintable(picture, texture)
            g_object_unref(UnsafeMutableRawPointer(texture))
        } else {
            gtk_picture_set_paintable(picture, nil)
        }
        onChange?()
    }

    private static func texture(_ data: Data) -> OpaquePointer? {
        let bytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        return gdk_texture_new_from_bytes(bytes, nil)
    }

    private static func picture(_ data: Data) -> UnsafeMutablePointer<GtkWidget>? {
        guard let texture = texture(data) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        return gtk_picture_new_for_paintable(texture)
    }

    // MARK: Tour

    func state() -> StateLine {
        var state = StateLine()
        state.receivedBy = keyed(
            destinations.compactMap { destination in
                received[destination.name].map {
                    (destination.name, StateLine.Received(type: $0.type, size: $0.size, detail: $0.detail))
                }
            })
        return state
    }

    func layout() -> PaneLayout? {
        guard registered, let source = host.frameInWindow(of: sourceID()), source.height > 0 else { return nil }
        var layout = PaneLayout()
        layout.lists.append((sourceName, source))
        layout.targets.append((sourceName, sourceID()))
        for destination in destinations {
            let id = destinationID(destination.name)
            guard let frame = host.frameInWindow(of: id), frame.height > 0 else { return nil }
            layout.lists.append((destination.name, frame))
            layout.targets.append((destination.name, id))
        }
        return layout
    }
}
