import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol

// `--scene pages`: a paged view of three grids of icons with its page control (K7), whose
// edges spring to the neighbouring page under a drag (SP1).
//
//   {"kind":"pages","current":…,"count":…,"how":…}            after every page change
//   {"kind":"grid","id":…,"tiles":[…]}                        each grid after every change
//   {"kind":"refused","message":…}                            the 11th page, refused (K7)
//   {"kind":"layout","frames":{"pages":…,"dots":…,"dot/0":…,"edge/next":…,"page-2/Books":…}}
//   {"kind":"hig","findings":[…]}                             the HIG check, once laid out
@MainActor
final class PagesScene: FixtureScene {
    let arguments: [String]
    var scene: SceneWindow?
    var paged: PagedView?
    var grids: [DragGridView] = []
    let printer = ChangedLineWriter()
    var announcedReady = false

    static let pages: [(String, [String])] = [
        ("Home", ["Mail", "Notes", "Photos", "Music", "Maps", "Clock"]),
        ("Page 2", ["Books", "Translate", "Stocks", "Fitness"]),
        ("Page 3", ["Measure", "Compass"]),
    ]

    init(arguments: [String]) { self.arguments = arguments }

    func activate(_ app: UnsafeMutablePointer<GtkApplication>) {
        guard let scene = SceneWindow(app: app, arguments: arguments) else { return }
        self.scene = scene
        let host = scene.host
        let column = SceneWindow.paddedBox(GTK_ORIENTATION_VERTICAL, spacing: 8)
        gtk_window_set_child(dd_window(scene.window), column)
        let paged: PagedView
        do {
            paged = try PagedView(id: "home", name: "Home Screen", host: host)
            for (index, (title, icons)) in Self.pages.enumerated() {
                let grid = DragGridView(
                    id: TargetID("page-\(index + 1)"), title: title, tiles: icons.map { .item($0) }, columns: 4,
                    host: host)
                grid.onChange = { [weak self] in self?.printState() }
                grids.append(grid)
                try paged.addPage(grid.widget, title: title)
            }
        } catch {
            LineWriter.write(ErrorLine(message: error.description))
            return
        }
        self.paged = paged
        gtk_box_append(dd_box(UnsafeMutableRawPointer(column)), paged.widget)
        paged.onPageChange = { [weak self] page, how in
            guard let self, let paged = self.paged else { return }
            LineWriter.write(PagesLine(current: page, count: paged.pageCount, how: how.rawValue))
        }
        // K7: an eleventh page is refused with a reason pointing to a grid.
        do {
            let many = try PagedView(id: "many", name: "Many", host: host)
            for index in 0..<11 { try many.addPage(gtk_label_new("\(index)")!, title: "Page \(index + 1)") }
        } catch {
            LineWriter.write(RefusedLine(message: error.description))
        }
        host.onFramesChanged = { [weak self] in self?.printLayout() }
        scene.present(app) { () throws(GtkDragHostError) in
            try paged.register(in: scene.windowID)
            for grid in grids { try grid.register(in: paged.id) }
        }
        printState()
    }

    func printState() {
        for grid in grids {
            printer.write(GridLine(id: grid.id.rawValue, tiles: grid.tiles.map(\.title)), key: "grid.\(grid.id)")
        }
    }

    func printLayout() {
        guard let host = scene?.host, let paged, let window = scene?.window, !host.engine.isDragging else { return }
        var frames: [(String, Frame)] = []
        var laidOut = true
        func add(_ name: String, _ id: TargetID) {
            guard let frame = host.frameInWindow(of: id), frame.height > 0 else { return }
            frames.append((name, Frame(frame)))
        }
        add("pages", paged.id)
        add("edge/previous", paged.edgeID(.previous))
        add("edge/next", paged.edgeID(.next))
        for grid in grids {
            add(grid.id.rawValue, grid.id)
            for tile in grid.tiles { add("\(grid.id)/\(tile.title)", tile.id) }
        }
        var bounds = graphene_rect_t()
        if gtk_widget_compute_bounds(paged.pageControl.widget, window, &bounds) != 0, bounds.size.width > 0 {
            let dots = Rect(
                x: Double(bounds.origin.x), y: Double(bounds.origin.y), width: Double(bounds.size.width),
                height: Double(bounds.size.height))
            frames.append(("dots", Frame(dots)))
            for (index, x) in paged.pageControl.dotCenters().enumerated() {
                frames.append(
                    ("dot/\(index)", Frame(Rect(x: dots.minX + x, y: dots.midY, width: 0, height: 0))))
            }
        } else {
            laidOut = false
        }
        printer.write(LayoutLine(frames: frames))
        if laidOut, host.frameInWindow(of: grids[0].id)?.height ?? 0 > 0, !announcedReady {
            announcedReady = true
            let findings = HIGCheck.findings(in: window, options: HIGCheck.Options(titleContainersOf: host))
            LineWriter.write(HIGLine(findings: findings.map(Finding.init)))
            LineWriter.write(ReadyLine())
        }
    }
}
