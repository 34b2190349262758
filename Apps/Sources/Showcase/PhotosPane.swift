import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol
import Foundation
import ShowcaseModel

/// Situation 5: Photos. The library as a grid with a Select button (selection mode: a plain
/// click toggles, M1); several photos dragged together fly with a count (M3); albums copy what
/// is dropped on them; the shared Family Stream commits at once with no undo but offers Stop
/// Sharing right after the drop (U3, the engine's drop cancellation), which un-shares it.
@MainActor
final class PhotosPane: ShowcasePane, GtkDragHostDelegate {
    static let itemType: ContentType = "application/x-showcase-photo"

    let situation = Situation.named("photos")!
    let widget: UnsafeMutablePointer<GtkWidget>
    var onChange: (@MainActor () -> Void)?
    var onError: (@MainActor (String) -> Void)?

    private let store: ShowcaseStore
    private unowned let host: GtkDragHost
    private var library: StoreGridView?
    private var albums: [(collection: ShowcaseCollection, row: GObjectRef, count: UnsafeMutablePointer<GtkWidget>)] = []
    private let row: UnsafeMutablePointer<GtkWidget>
    private let albumBox: UnsafeMutablePointer<GtkWidget>
    private let libraryBox: UnsafeMutablePointer<GtkWidget>
    private var selectButton: UnsafeMutablePointer<GtkWidget>!
    private var stopSharing: UnsafeMutablePointer<GtkWidget>!
    private var window: TargetID?

    init(store: ShowcaseStore, host: GtkDragHost) {
        self.store = store
        self.host = host
        row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 18)
        gtk_widget_set_vexpand(row, 1)
        libraryBox = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        albumBox = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        gtk_widget_set_size_request(albumBox, 220, -1)
        UI.append(row, libraryBox)
        UI.append(row, albumBox)
        widget = row
        selectButton = UI.button(
            words("Select"), tooltip: words("Choose several photos with plain clicks"), bordered: true
        ) {
            [weak self] in self?.toggleSelectionMode()
        }
        stopSharing = UI.button(
            words("Stop Sharing"), tooltip: words("Take back the photo just shared"), bordered: true
        ) {
            [weak self] in self?.useStopSharing()
        }
        gtk_widget_set_visible(stopSharing, 0)
    }

    func activate(in window: TargetID) {
        self.window = window
        if library == nil { build() }
        library?.register(in: window)
        for album in albums {
            var target = DragTarget(
                id: album.collection.targetID, name: album.collection.name, frame: .zero, parent: window)
            target.accepts = [Self.itemType]
            target.operationPolicy = .alwaysCopy
            do { try host.register(album.row.widget, as: target, delegate: self) } catch { onError?("\(error)") }
        }
        reload()
    }

    func deactivate() {
        library?.unregister()
        for album in albums { host.unregister(album.collection.targetID) }
        window = nil
    }

    func reload() { reload(selecting: nil) }

    private func reload(selecting ids: [ItemID]?) {
        library?.reload(selecting: ids)
        for album in albums {
            let count = (try? store.itemCount(in: album.collection.id ?? 0)) ?? 0
            UI.setText(album.count, "\(count)")
        }
        onChange?()
    }

    private func build() {
        let collections: [ShowcaseCollection]
        do {
            collections = try store.collections(in: .photos)
        } catch {
            onError?(Sentence.explaining(words("Could not read the photos"), error))
            return
        }
        guard let all = collections.first(where: { $0.kind == .grid }) else { return }
        let bar = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
        UI.append(bar, selectButton)
        UI.append(libraryBox, bar)
        let grid = StoreGridView(
            collection: all, store: store, host: host, itemType: Self.itemType, noun: Noun("photo"), columns: 3,
            tileSize: (120, 100))
        grid.onStoreChanged = { [weak self] ids in self?.reload(selecting: ids) }
        grid.onSelectionChanged = { [weak self] in self?.onChange?() }
        grid.onError = { [weak self] message in self?.onError?(message) }
        // Other apps get each photo as an image, and as a file ("Tram 28.png") where they take files.
        let app = host.engine.app
        grid.makeProvider = { item in Self.provider(for: item, app: app) }
        // Each tile shows its photo: a thumbnail drawn from the photo's colour and shape.
        grid.makeThumbnail = { [weak self] item in self?.thumbnail(for: item) }
        UI.append(libraryBox, grid.widget)
        library = grid
        UI.append(albumBox, UI.label(words("Albums"), selectable: true, css: ["sc-list-title"]))
        for collection in collections where collection.kind == .album {
            let line = GObjectRef(newWidget: UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8))
            let shared = collection.flags.contains(.shared)
            let name = UI.label(shared ? words("{name} (shared)", ["name": collection.name]) : collection.name)
            gtk_widget_set_hexpand(name, 1)
            let count = UI.label("0", css: ["dim-label"])
            UI.append(line.widget, name)
            UI.append(line.widget, count)
            UI.margins(line.widget, 10)
            gtk_widget_add_css_class(line.widget, "sc-tile")
            UI.append(albumBox, line.widget)
            albums.append((collection, line, count))
        }
        UI.append(albumBox, stopSharing)
    }

    private func toggleSelectionMode() {
        guard let library else { return }
        library.isSelectionMode.toggle()
        gtk_button_set_label(
            dd_button(UnsafeMutableRawPointer(selectButton)), library.isSelectionMode ? words("Done") : words("Select"))
        onChange?()
    }

    private func useStopSharing() {
        gtk_widget_set_visible(stopSharing, 0)
        guard host.engine.availableCancellation != nil else { return }
        _ = host.engine.useCancellation()
        reload()
    }

    // MARK: Albums as destinations

    func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        let result = ShowcaseDrops.perform(drop, store: store, host: host) { [weak self] _ in self?.afterAlbumDrop() }
        return result
    }

    private func afterAlbumDrop() {
        gtk_widget_set_visible(stopSharing, host.engine.availableCancellation != nil ? 1 : 0)
        reload()
    }

    func state() -> StateLine {
        var state = StateLine()
        let collections = (try? store.collections(in: .photos)) ?? []
        addCollections(collections, of: store, to: &state)
        let selected =
            library.map { grid in grid.selectedTitles } ?? []
        state.selected = [library?.collection.name ?? "Library": selected]
        state.selectionMode = library?.isSelectionMode ?? false
        state.stopSharing = stopSharing.map { gtk_widget_get_visible($0) != 0 } ?? false
        return state
    }

    func layout() -> PaneLayout? {
        guard let library, let frame = library.frame(), frame.height > 0, let tiles = library.elementFrames() else {
            return nil
        }
        var layout = PaneLayout()
        layout.lists.append((library.collection.name, frame))
        layout.rows.append((library.collection.name, tiles))
        layout.targets.append((library.collection.name, library.containerID))
        var rows: [(title: String, frame: Rect)] = []
        for album in albums {
            guard let f = host.frameInWindow(of: album.collection.targetID), f.height > 0 else { return nil }
            rows.append((album.collection.name, f))
            layout.targets.append((album.collection.name, album.collection.targetID))
        }
        layout.rows.append(("Albums", rows))
        let buttons: [(String, UnsafeMutablePointer<GtkWidget>)] = [
            ("Select", selectButton), ("Stop Sharing", stopSharing),
        ]
        for (name, button) in buttons where gtk_widget_get_visible(button) != 0 {
            guard let root = gtk_widget_get_root(button) else { continue }
            let window = UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self)
            if let b = UI.bounds(of: button, in: window), b.height > 0 {
                layout.lists.append((name, Rect(x: b.x, y: b.y, width: b.width, height: b.height)))
            }
        }
        return layout
    }

    // MARK: Photos as images

    /// Thumbnails made for the tiles on screen, by photo (at most a few hundred kept).
    private var thumbnails: [ItemID: DragCollectionView.Thumbnail] = [:]

    /// The tile picture of a photo, made once and kept while it is among the recent ones.
    private func thumbnail(for item: ShowcaseItem) -> DragCollectionView.Thumbnail? {
        guard let id = item.id else { return nil }
        if let kept = thumbnails[id] { return kept }
        guard let payload = item.payload(as: PhotoPayload.self) else { return nil }
        if thumbnails.count >= 400 { thumbnails = [:] }
        let made = Self.thumbnail(payload)
        thumbnails[id] = made
        return made
    }

    /// A landscape in the photo's colour and shape, at most 104 × 72 pixels: a sky lighter at
    /// the top, a sun, a hill in a darker shade (the showcase keeps no pixels; this is what a
    /// person recognises as a picture at tile size).
    nonisolated static func thumbnail(_ photo: PhotoPayload) -> DragCollectionView.Thumbnail? {
        let ratio = Double(max(1, photo.height)) / Double(max(1, photo.width))
        let width = ratio > 72.0 / 104.0 ? max(24, Int((72 / ratio).rounded())) : 104
        let height = ratio > 72.0 / 104.0 ? 72 : max(24, Int((104 * ratio).rounded()))
        let value = UInt32(photo.color.dropFirst(), radix: 16) ?? 0x8899AA
        let base = (Double(value >> 16 & 0xFF), Double(value >> 8 & 0xFF), Double(value & 0xFF))
        func byte(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value))) }
        // Worked out per column and per row, not per pixel: a tile binds while autoscroll runs.
        let horizon = (0..<width).map { x in
            Int(Double(height) * (0.68 + 0.1 * sin(Double(x) / Double(width) * 5.2 + 0.6)))
        }
        let hill = (byte(base.0 * 0.55), byte(base.1 * 0.6), byte(base.2 * 0.55))
        let sun = (x: Int(Double(width) * 0.72), y: Int(Double(height) * 0.3), r: Int(Double(height) * 0.14))
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        bytes.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                // The sky: from a light tint at the top to the colour at the horizon.
                let t = min(1, Double(y) / (Double(height) * 0.68))
                let sky = (
                    byte(base.0 * t + 235 * (1 - t)), byte(base.1 * t + 240 * (1 - t)), byte(base.2 * t + 245 * (1 - t))
                )
                let dy = y - sun.y
                for x in 0..<width {
                    let dx = x - sun.x
                    let colour = y > horizon[x] ? hill : dx * dx + dy * dy <= sun.r * sun.r ? (255, 244, 200) : sky
                    let i = (y * width + x) * 4
                    pixels[i] = colour.0
                    pixels[i + 1] = colour.1
                    pixels[i + 2] = colour.2
                }
            }
        }
        return DragCollectionView.Thumbnail(width: width, height: height, rgba: bytes)
    }

    /// What a stored photo is: its size and colour (the showcase keeps no pixels).
    struct PhotoPayload: Decodable, Sendable {
        var width: Int
        var height: Int
        var color: String
    }

    /// A photo's data for drags: its title, then a PNG rendition (made only when asked, P1)
    /// named after the photo for apps that take files.
    static func provider(for item: ShowcaseItem, app: AppID) -> ItemProvider {
        let payload = item.payload(as: PhotoPayload.self)
        let title = item.title
        let stem = (title as NSString).deletingPathExtension
        return ItemProvider(
            app: app,
            representations: [
                Representation(.png) { .data(try render(payload, title: stem)) }, .text(.utf8PlainText, title),
            ], suggestedName: stem.isEmpty ? title : stem)
    }

    /// A 240-pixel-wide rendition in the photo's colour and shape, its title in a corner.
    private nonisolated static func render(_ payload: PhotoPayload?, title: String) throws -> Data {
        let width: Int32 = 240
        let ratio = payload.map { Double($0.height) / Double(max(1, $0.width)) } ?? 0.75
        let height = Int32((Double(width) * ratio).rounded())
        let hex = payload?.color.dropFirst() ?? "8899aa"
        let value = UInt32(hex, radix: 16) ?? 0x8899AA
        let (r, g, b) = (Double(value >> 16 & 0xFF) / 255, Double(value >> 8 & 0xFF) / 255, Double(value & 0xFF) / 255)
        return try Artwork.png(width: width, height: height) { cr in
            cairo_set_source_rgb(cr, r, g, b)
            cairo_paint(cr)
            cairo_set_source_rgba(cr, 1, 1, 1, 0.85)
            cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
            cairo_set_font_size(cr, 14)
            cairo_move_to(cr, 10, Double(height) - 12)
            cairo_show_text(cr, title)
        }
    }
}
