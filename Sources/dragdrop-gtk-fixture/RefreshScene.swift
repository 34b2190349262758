import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol

// `--scene refresh`: an Inbox of messages (6, or `--messages N`) in an autoscrolling scroll view
// with a refresh control (K8), beside an Archive list. `--refresh-every SECONDS` sets the
// refresh schedule.
// A refresh runs 0.8 s, reporting progress.
//
//   {"kind":"refresh","event":"began"|"ended","trigger":…,"count":…}
//   {"kind":"pull","distance":…}          the indicator pulled out (0: hidden)
//   {"kind":"scroll","offset":…}          the Inbox's scroll offset
//   {"kind":"layout","frames":{"inbox":…,"inbox/Message 3":…,"archive":…,"indicator":…}}
@MainActor
final class RefreshScene: FixtureScene {
    let arguments: [String]
    var scene: SceneWindow?
    var inbox: DragListView?
    var archive: DragListView?
    var scroll: DragScrollView?
    var refresh: RefreshControl?
    var refreshes = 0
    let printer = ChangedLineWriter()
    var announcedReady = false

    init(arguments: [String]) { self.arguments = arguments }

    func activate(_ app: UnsafeMutablePointer<GtkApplication>) {
        guard let scene = SceneWindow(app: app, arguments: arguments) else { return }
        self.scene = scene
        let host = scene.host
        let row = SceneWindow.paddedBox(GTK_ORIENTATION_HORIZONTAL, spacing: 24)
        gtk_box_set_homogeneous(dd_box(UnsafeMutableRawPointer(row)), 1)
        gtk_window_set_child(dd_window(scene.window), row)
        var count = 6
        if let i = arguments.firstIndex(of: "--messages"), i + 1 < arguments.count, let n = Int(arguments[i + 1]) {
            count = max(1, n)
        }
        let inbox = DragListView(
            id: "inbox", title: "Inbox", items: (1...count).map { "Message \($0)" }, host: host,
            operationPolicy: .preferMove)
        let archive = DragListView(
            id: "archive", title: "Archive", items: ["Old"], host: host, operationPolicy: .preferMove)
        self.inbox = inbox
        self.archive = archive
        let scroll = DragScrollView(id: "inbox-scroll", name: "Inbox", child: inbox.widget, host: host)
        scroll.onScroll = { offset in LineWriter.write(ScrollLine(offset: offset)) }
        self.scroll = scroll
        let refresh = RefreshControl(wrapping: scroll.widget, name: "Inbox", host: host)
        refresh.refreshingText = "Checking for Mail\u{2026}"
        refresh.onPull = { distance in LineWriter.write(PullLine(distance: distance)) }
        refresh.onRefresh = { [weak self] trigger in self?.run(trigger) }
        self.refresh = refresh
        if let i = arguments.firstIndex(of: "--refresh-every"), i + 1 < arguments.count,
            let seconds = Double(arguments[i + 1])
        {
            refresh.setSchedule(every: .milliseconds(Int64(seconds * 1000)))
        }
        gtk_box_append(dd_box(UnsafeMutableRawPointer(row)), refresh.widget)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(row)), archive.widget)
        for list in [inbox, archive] { list.onChange = { [weak self] in self?.printLayout() } }
        host.onFramesChanged = { [weak self] in self?.printLayout() }
        scene.present(app) { () throws(GtkDragHostError) in
            try scroll.register(in: scene.windowID)
            try inbox.register(in: scroll.id)
            try archive.register(in: scene.windowID)
        }
    }

    /// A refresh: 0.8 s in four steps of progress.
    private func run(_ trigger: RefreshControl.Trigger) {
        refreshes += 1
        let count = refreshes
        LineWriter.write(RefreshLine(event: "began", trigger: trigger.rawValue, count: count))
        for step in 1...4 {
            GLibSource.once(afterMilliseconds: UInt32(step * 200)) { [weak self] in
                guard let self, let refresh = self.refresh else { return }
                refresh.updateProgress(Double(step) / 4)
                guard step == 4 else { return }
                refresh.endRefreshing()
                LineWriter.write(RefreshLine(event: "ended", trigger: trigger.rawValue, count: count))
            }
        }
    }

    func printLayout() {
        guard let host = scene?.host, let window = scene?.window, let inbox, let archive, let refresh,
            !host.engine.isDragging
        else { return }
        var frames: [(String, Frame)] = []
        func add(_ name: String, _ id: TargetID) {
            guard let frame = host.frameInWindow(of: id), frame.height > 0 else { return }
            frames.append((name, Frame(frame)))
        }
        add("inbox", "inbox-scroll")
        add("inbox/list", inbox.id)
        for item in inbox.items.prefix(6) { add("inbox/\(item.title)", item.id) }
        add("archive", archive.id)
        var bounds = graphene_rect_t()
        if gtk_widget_get_mapped(refresh.indicatorWidget) != 0,
            gtk_widget_compute_bounds(refresh.indicatorWidget, window, &bounds) != 0, bounds.size.height > 0
        {
            frames.append(
                (
                    "indicator",
                    Frame(
                        Rect(
                            x: Double(bounds.origin.x), y: Double(bounds.origin.y), width: Double(bounds.size.width),
                            height: Double(bounds.size.height)))
                ))
        }
        printer.write(LayoutLine(frames: frames))
        if !announcedReady, frames.count >= 8 {
            announcedReady = true
            LineWriter.write(ReadyLine())
        }
    }
}
