import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol

// `--scene grid`: a grid of tiles with folders, a selection-mode toggle, a segmented control
// and a list.
//
//   {"kind":"grid","id":…,"tiles":[…],"folders":{title:[…]},"selected":[…],"selectionMode":…}
//   {"kind":"list","id":…,"items":[…],"selected":[…]}
//   {"kind":"segment","id":…,"selected":…,"by":"click"|"springLoading"}
//   {"kind":"folderOpened","folder":…,"duringDrag":…}
//   {"kind":"layout","frames":{"home":…,"home/Mail":…,"views/Week":…,"inbox/Lunch":…,"select":…}}
//   {"kind":"loading","token":…,"fraction":…}   with --slow-grid: the grid's slow loading
//   {"kind":"notice","message":…}               a failure reason shown (A6)
//
// With `--slow-grid` the grid defers drops between its tiles (placeholders, A4) and loads them
// over about 3 s in 10 steps of GLib timeouts; with `--failing-grid` as well, every such load
// breaks halfway and the drop fails with a reason (A6).
@MainActor
final class GridScene: FixtureScene {
    let arguments: [String]
    var scene: SceneWindow?
    var grid: DragGridView?
    var segments: SegmentedControl?
    var list: DragListView?
    var selectToggle: UnsafeMutablePointer<GtkWidget>?
    let printer = ChangedLineWriter()
    var announcedReady = false

    init(arguments: [String]) { self.arguments = arguments }

    func activate(_ app: UnsafeMutablePointer<GtkApplication>) {
        guard let scene = SceneWindow(app: app, arguments: arguments) else { return }
        self.scene = scene
        let host = scene.host
        let row = SceneWindow.paddedBox(GTK_ORIENTATION_HORIZONTAL, spacing: 24)
        let grid = DragGridView(
            id: "home", title: "Home",
            tiles: [
                .item("Mail"), .item("Notes"), .item("Photos"), .item("Music"), .item("Maps"), .item("Clock"),
                .folder("Work", ["Slides"]), .folder("Games"),
            ], host: host)
        self.grid = grid
        let side = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        gtk_widget_set_size_request(side, 220, -1)
        let toggle = gtk_toggle_button_new_with_label("Select")!
        selectToggle = toggle
        gtk_widget_set_halign(toggle, GTK_ALIGN_START)
        GSignal.connect(UnsafeMutableRawPointer(toggle), "toggled") { [weak self] in
            guard let self, let toggle = self.selectToggle else { return }
            self.grid?.isSelectionMode =
                gtk_toggle_button_get_active(
                    UnsafeMutableRawPointer(toggle).assumingMemoryBound(to: GtkToggleButton.self)) != 0
        }
        let segments = SegmentedControl(
            id: "views", name: "View", segments: ["Day", "Week", "Month", "Year"], host: host)
        self.segments = segments
        let list = DragListView(id: "inbox", title: "Inbox", items: ["Lunch", "Report"], host: host)
        self.list = list
        for child in [toggle, segments.widget, list.widget] {
            gtk_box_append(dd_box(UnsafeMutableRawPointer(side)), child)
        }
        gtk_box_append(dd_box(UnsafeMutableRawPointer(row)), grid.widget)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(row)), side)
        gtk_window_set_child(dd_window(scene.window), row)

        grid.onChange = { [weak self] in self?.printState() }
        list.onChange = { [weak self] in self?.printState() }
        grid.onOpenFolder = { folder, duringDrag in
            LineWriter.write(FolderOpenedLine(folder: folder.title, duringDrag: duringDrag))
        }
        segments.onSelect = { [weak segments] index, how in
            guard let segments else { return }
            LineWriter.write(
                SegmentLine(id: segments.id.rawValue, selected: segments.segments[index], by: how.rawValue))
        }
        if arguments.contains("--slow-grid") {
            let fails = arguments.contains("--failing-grid")
            grid.defersDrop = { [weak self, weak grid] drop in
                guard let self, let grid else { return false }
                self.loadSlowly(drop, into: grid, failingHalfway: fails)
                return true
            }
        }
        host.onNotice = { message in LineWriter.write(NoticeLine(message: message)) }
        host.onFramesChanged = { [weak self] in self?.printLayout() }
        scene.present(app) { () throws(GtkDragHostError) in
            try grid.register(in: scene.windowID)
            try segments.register(in: scene.windowID)
            try list.register(in: scene.windowID)
        }
        printState()
    }

    /// Loads a deferred grid drop over 3 s in 10 steps, reporting progress, then lets it arrive;
    /// `failingHalfway`: the transfer breaks at step 5 and the drop fails with a reason (A6).
    func loadSlowly(_ drop: DropRequest, into grid: DragGridView, failingHalfway: Bool) {
        let token = drop.token
        var step = 0
        func next() {
            GLibSource.once(afterMilliseconds: 300) { [weak self, weak grid] in
                guard let self, let grid, let host = self.scene?.host else { return }
                step += 1
                let fraction = Double(step) / 10
                LineWriter.write(LoadingLine(token: token.rawValue, fraction: fraction))
                if failingHalfway, step == 5 {
                    let names = drop.items.map { "\u{201C}\($0.name)\u{201D}" }.joined(separator: ", ")
                    grid.finishDeferredDrop(
                        token,
                        failure: DropFailure(
                            .failed, "\(names) could not be loaded: the transfer was interrupted. Nothing was lost."))
                    return
                }
                host.updateDeferredDrop(token, progress: fraction)
                if step < 10 { next() } else { grid.finishDeferredDrop(token) }
            }
        }
        next()
    }

    func printState() {
        guard let grid, let list else { return }
        let folders = grid.tiles.compactMap { tile in tile.folderContents.map { (tile.title, $0) } }
        printer.write(
            GridLine(
                id: grid.id.rawValue, tiles: grid.tiles.map(\.title),
                folders: Dictionary(folders) { first, _ in first },
                selected: grid.tiles.filter { grid.selection.contains($0.id) }.map(\.title),
                selectionMode: grid.isSelectionMode))
        printer.write(
            ListLine(
                id: list.id.rawValue, items: list.items.map(\.title),
                selected: list.items.filter { list.selection.contains($0.id) }.map(\.title)))
    }

    func printLayout() {
        guard let host = scene?.host, let grid, let segments, let list else { return }
        var frames: [(String, Frame)] = []
        var laidOut = true
        func add(_ name: String, _ id: TargetID) {
            guard let frame = host.frameInWindow(of: id), frame.height > 0 else {
                laidOut = false
                return
            }
            frames.append((name, Frame(frame)))
        }
        add("home", grid.id)
        for tile in grid.tiles { add("home/\(tile.title)", tile.id) }
        for index in segments.segments.indices { add("views/\(segments.segments[index])", segments.segmentID(index)) }
        add("inbox", list.id)
        for item in list.items { add("inbox/\(item.title)", item.id) }
        if let toggle = selectToggle, let window = scene?.window, let frame = widgetFrame(toggle, in: window) {
            frames.append(("select", frame))
        }
        printer.write(LayoutLine(frames: frames))
        if laidOut, !announcedReady {
            announcedReady = true
            LineWriter.write(ReadyLine())
        }
    }
}
