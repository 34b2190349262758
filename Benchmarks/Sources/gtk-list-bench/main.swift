// End-to-end figures for big lists (issue 12), one measurement per process, under the display in
// DISPLAY (dragdrop-bench starts Xvfb and runs this tool once per row and size):
//
//   gtk-list-bench first-frame ours|listview|listbox COUNT
//       time from building the list to the first frame painted with rows on screen, and the
//       resident memory then. Prints `ok MILLISECONDS RSS_BYTES CPU_MILLISECONDS` (the last: the
//       process's CPU time over the same span, steadier than the wall time on a busy machine).
//       The kind `ours` adds the empty window to its host and gives it the list with
//       GtkDragHost.setContent(_:of:); DRAGDROP_BENCH_WRAP=1 sets the window's content first.
//   gtk-list-bench drag ours|listview COUNT
//       a real drag driven by xdotool: pressed on the first row, held at the list's bottom edge
//       (the frames are timed for ours; GtkListView scrolls there too, by its own autoscroll,
//       untimed), then 200 small pointer moves over
//       the rows. Prints `ok P50_MS P99_MS FRAMES PX_PER_FRAME CPU_US_PER_MOVE MOVES`: the time
//       GDK's frame clock spent producing each frame while autoscrolling during the hold
//       (before-paint to after-paint), the scrolling speed (distance over those frames), and the
//       process's CPU time from the first to the last small move received, per move.
//       DRAGDROP_BENCH_EVENTS=1 prints the engine's events, the scroll offset and the CPU time
//       to standard error as it goes.
//   gtk-list-bench latency ours|listview|ours-grid|gridview|ours-text|textview COUNT
//       input-to-screen latency of the drag image: pressed on the first row (the first tile of
//       a grid; in a text view of COUNT lines, on its selected first 30 characters), then 200 small
//       pointer moves 30 ms apart, each timed from the fake input (XTest) to the X server's report
//       that the drag image's window moved. Prints `ok P50_MS P90_MS P99_MS MAX_MS LOST
//       CPU_MS_PER_MOVE` (the main thread's CPU time over the moves, per move), then each timed
//       move's latency in milliseconds, sorted (dragdrop-bench pools the runs of a kind).
//       DRAGDROP_BENCH_DAMAGE=TITLE (with GDK_BACKEND=wayland inside a nested weston whose X
//       window's name contains TITLE): each move is timed until the X server reports damage to
//       that window instead (the compositor draws a Wayland drag icon itself).
//       DRAGDROP_BENCH_FRAMES=1: also prints on standard error how many frames the window
//       painted during the moves (to compare what each app paints while a drag is held).
//       DRAGDROP_BENCH_TRACE=1: prints on standard error, in CLOCK_MONOTONIC milliseconds, each
//       move's start and delay (`move I START DELAY`), each drag motion GDK hands the window
//       (`motion T`) and then a drop target (`target T`), each frame's phases (`frame BEFORE
//       layout T paint T end T`) and each spell of the main loop over 1 ms between two polls
//       (`busy START DURATION`): which work a slow move waited for (none, most often: the
//       machine's own pauses).
//       DRAGDROP_BENCH_ICON=WxH (listview, gridview): GTK's drag source shows a drag image of
//       that size instead of its 32 x 32 icon (ours is as wide as the row: 800 x 36 here).
//   gtk-list-bench latency gtk4-demo|qt-draggableicons COUNT
//       the same, on another toolkit's app started here (GTK's dnd demo, Qt 5's draggableicons
//       example; COUNT is ignored), pressed on its first item; the CPU per move is the whole
//       process's, from /proc/PID/stat (External.swift).
//   gtk-list-bench scroll listview COUNT PX_PER_FRAME [--separators]
//       a plain GtkListView scrolled by PX_PER_FRAME every frame (the speed our autoscroll
//       reached) for 3 s; with --separators it shows row separators (show-separators), as
//       ours does. Prints `ok P50_MS P99_MS FRAMES PX_PER_FRAME`. (`scroll ours` works too:
//       the same without a drag.)
//
// `ours` is DragCollectionView over an array data source, registered with a GtkDragHost;
// `listview` a GtkListView over a GtkStringList with label rows; `listbox` a GtkListBox with one
// label row per item. Every list shows "File 0", "File 1", ... in an 800 x 600 window.
// `ours-grid` is DragCollectionView in its grid layout (6 columns of 96 x 64 tiles) and
// `gridview` a GtkGridView with the same columns and tile size; `ours-text` is DragTextView
// and `textview` a plain GtkTextView (GTK's own selection drag), both showing COUNT lines.
import CDragLatency
import CGtk4
import DragDrop
import DragDropGTK
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

func fail(_ reason: String) -> Never {
    print("n/a \(reason)")
    exit(0)
}

func nowSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// User plus system CPU time of this process, in seconds.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
        + Double(usage.ru_stime.tv_usec) / 1e6
}

/// Resident memory now (VmRSS), in bytes.
func residentBytes() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        let kb = line.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap { Int($0) } ?? 0
        return kb * 1024
    }
    return 0
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

func iterate(until deadline: Double, _ done: () -> Bool) {
    // Blocks in the main loop, woken every 5 ms by a timeout so that the deadline and `done` are
    // checked once the pointer rests. (It used to poll every 0.5 ms: 6 % of a core, which the
    // CPU per move counted on both sides.)
    let wake = g_timeout_add(5, { _ in gboolean(1) }, nil)
    defer { g_source_remove(wake) }
    while nowSeconds() < deadline, !done() {
        g_main_context_iteration(nil, 1)
    }
}

// MARK: The lists

/// An array of "File i" behind DragCollectionView: moves and drops change nothing (the bench
/// measures dragging, not editing).
@MainActor
final class Files: DragCollectionDataSource {
    let count: Int
    init(count: Int) { self.count = count }
    var numberOfItems: Int { count }
    func itemID(at index: Int) -> TargetID { TargetID("f\(index)") }
    func title(at index: Int) -> String { "File \(index)" }
    func collectionView(_ view: DragCollectionView, perform drop: DropRequest, at index: Int) -> DropResult {
        .failed(DropFailure(.forbidden, "The bench keeps its files."))
    }
}

@MainActor
struct Built {
    /// The widget whose frame clock and bounds are watched (the list or grid view).
    var list: UnsafeMutablePointer<GtkWidget>
    var root: UnsafeMutablePointer<GtkWidget>
    var adjustment: () -> UnsafeMutablePointer<GtkAdjustment>?
    var keep: [AnyObject] = []
    /// Registers our widget with the host in the window "window" (nil for GTK's own widgets).
    var register: (@MainActor () throws -> Void)?
    /// Whether the first frame shows content (by default: the list has children).
    var hasContent: (@MainActor () -> Bool)?
    /// Where the latency run presses, in window coordinates (by default: a third across the
    /// list, 20 px down, on the first row).
    var pressPoint: (@MainActor (_ window: UnsafeMutablePointer<GtkWidget>) -> (x: Int32, y: Int32)?)?
}

@MainActor
func buildOurs(count: Int, host: GtkDragHost) -> Built {
    var options = DragCollectionView.Options(itemType: "application/x-bench-file", kind: Noun("file"))
    options.showsHeading = false
    options.operationPolicy = .preferMove
    let view = DragCollectionView(id: "files", title: "Files", host: host, options: options)
    let files = Files(count: count)
    view.dataSource = files
    view.reloadData()
    let list = view.itemsWidget
    return Built(
        list: list, root: view.widget,
        adjustment: { gtk_scrollable_get_vadjustment(OpaquePointer(list)) }, keep: [view, files],
        register: { try view.register(in: "window") })
}

/// Prints the latency line, `ok P50 P90 P99 MAX LOST CPU_MS_PER_MOVE` (the CPU per move read
/// off `samples` at the first and the last move) followed by every move's latency (sorted, to
/// pool runs), and exits.
func reportLatency(_ result: DDLatencyResult, cpuSamples samples: [(time: Double, cpu: Double)]) -> Never {
    let latencies = Array(UnsafeBufferPointer(start: result.latencies, count: Int(result.count)))
    /// The CPU time at the sample nearest `time`.
    func cpu(at time: Double) -> Double {
        samples.min { abs($0.time - time) < abs($1.time - time) }?.cpu ?? .nan
    }
    let moves = Double(result.count + result.lost)
    let perMove = (cpu(at: result.last_move) - cpu(at: result.first_move)) / max(1, moves - 1)
    print(
        "ok \(percentile(latencies, 0.5)) \(percentile(latencies, 0.9)) \(percentile(latencies, 0.99)) \(latencies.last ?? .nan) \(result.lost) \(perMove) "
            + latencies.map { String(format: "%.3f", $0) }.joined(separator: " ")
    )
    exit(0)
}

@MainActor
func buildListView(count: Int) -> Built {
    let strings = gtk_string_list_new(nil)!
    // GtkStringList copies each string; append in one pass.
    for i in 0..<count { gtk_string_list_append(strings, "File \(i)") }
    let factory = gtk_signal_list_item_factory_new()!
    GSignal.connect(
        UnsafeMutableRawPointer(factory), "setup",
        pointer: { item in
            guard let item else { return }
            let label = gtk_label_new("")!
            gtk_label_set_xalign(dd_label(UnsafeMutableRawPointer(label)), 0)
            for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { margin(label, 12) }
            for margin in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { margin(label, 10) }
            gtk_list_item_set_child(OpaquePointer(item), label)
        })
    GSignal.connect(
        UnsafeMutableRawPointer(factory), "bind",
        pointer: { item in
            guard let item, let label = gtk_list_item_get_child(OpaquePointer(item)),
                let object = gtk_list_item_get_item(OpaquePointer(item))
            else { return }
            gtk_label_set_text(
                dd_label(UnsafeMutableRawPointer(label)), gtk_string_object_get_string(OpaquePointer(object)))
        })
    let selection = gtk_multi_selection_new(strings)
    let list = gtk_list_view_new(selection, factory)!
    // Row separators, as DragCollectionView draws (a 1 px border under each row): GTK 4.8's
    // cairo renderer pays several milliseconds a frame for them while scrolling.
    if arguments.contains("--separators") { gtk_list_view_set_show_separators(OpaquePointer(list), 1) }
    let scrolled = gtk_scrolled_window_new()!
    gtk_scrolled_window_set_child(dd_scrolled_window(UnsafeMutableRawPointer(scrolled)), list)
    gtk_widget_set_vexpand(scrolled, 1)
    return Built(list: list, root: scrolled, adjustment: { gtk_scrollable_get_vadjustment(OpaquePointer(list)) })
}

@MainActor
func buildListBox(count: Int) -> Built {
    let box = gtk_list_box_new()!
    gtk_list_box_set_selection_mode(dd_list_box(UnsafeMutableRawPointer(box)), GTK_SELECTION_MULTIPLE)
    for i in 0..<count {
        let label = gtk_label_new("File \(i)")!
        gtk_label_set_xalign(dd_label(UnsafeMutableRawPointer(label)), 0)
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { margin(label, 12) }
        for margin in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { margin(label, 10) }
        gtk_list_box_append(dd_list_box(UnsafeMutableRawPointer(box)), label)
    }
    let scrolled = gtk_scrolled_window_new()!
    gtk_scrolled_window_set_child(dd_scrolled_window(UnsafeMutableRawPointer(scrolled)), box)
    gtk_widget_set_vexpand(scrolled, 1)
    let list = box
    return Built(
        list: list, root: scrolled,
        adjustment: { gtk_scrolled_window_get_vadjustment(dd_scrolled_window(UnsafeMutableRawPointer(scrolled))) })
}

// MARK: Frames

/// Records how long the frame clock spends on each frame (before-paint to after-paint).
@MainActor
final class FrameTimes {
    var recording = false
    var durations: [Double] = []
    var painted = 0
    var onPainted: (() -> Void)?
    private var started: Double?

    /// DRAGDROP_BENCH_TRACE: each frame's phases (before-paint, layout, paint, after-paint) and
    /// each drag motion GDK hands a window, in CLOCK_MONOTONIC milliseconds on standard error,
    /// beside CDragLatency's trace of the moves (which frame a slow move waited for).
    static let tracing = !(ProcessInfo.processInfo.environment["DRAGDROP_BENCH_TRACE"] ?? "").isEmpty
    private var phases: [String] = []

    init(clock: OpaquePointer) {
        let raw = UnsafeMutableRawPointer(clock)
        GSignal.connect(raw, "before-paint") { [weak self] in
            self?.started = nowSeconds()
            if Self.tracing { self?.phases = [String(format: "%.3f", dd_latency_now())] }
        }
        if Self.tracing {
            for phase in ["layout", "paint"] {
                GSignal.connect(raw, phase) { [weak self] in
                    self?.phases.append(String(format: "%@ %.3f", phase, dd_latency_now()))
                }
            }
            traceMainLoop()
        }
        GSignal.connect(raw, "after-paint") { [weak self] in
            guard let self else { return }
            if Self.tracing {
                FileHandle.standardError.write(
                    Data(
                        "frame \(self.phases.joined(separator: " ")) end \(String(format: "%.3f", dd_latency_now()))\n"
                            .utf8))
            }
            self.painted += 1
            if self.recording, let started = self.started { self.durations.append((nowSeconds() - started) * 1000) }
            self.started = nil
            self.onPainted?()
        }
    }
}

/// Prints the time of each drag motion GDK delivers to a surface (an emission hook on
/// GdkSurface::event runs before GTK handles the event), and each spell of the main loop's work
/// over 1 ms (a poll function around GLib's).
func traceMainLoop() {
    let signal = g_signal_lookup("event", gdk_surface_get_type())
    let hook: GSignalEmissionHook = { _, count, values, _ in
        guard count >= 2, let values, let event = g_value_peek_pointer(values.advanced(by: 1)) else { return 1 }
        if gdk_event_get_event_type(OpaquePointer(event)) == GDK_DRAG_MOTION {
            FileHandle.standardError.write(Data(String(format: "motion %.3f\n", dd_latency_now()).utf8))
        }
        return 1
    }
    g_signal_add_emission_hook(signal, 0, hook, nil, nil)
    // When a drop target's motion handler is called (GTK's list's GtkDropTarget, our host's
    // GtkDropTargetAsync).
    let targetMotion: GSignalEmissionHook = { _, _, _, _ in
        FileHandle.standardError.write(Data(String(format: "target %.3f\n", dd_latency_now()).utf8))
        return 1
    }
    for (type, name) in [(gtk_drop_target_get_type(), "motion"), (gtk_drop_target_async_get_type(), "drag-motion")] {
        g_type_class_ref(type)  // (its signals exist once its class does)
        g_signal_add_emission_hook(g_signal_lookup(name, type), 0, targetMotion, nil, nil)
    }
    // The main loop's busy spells: from each return of poll to its next call, those over 1 ms.
    let poll: GPollFunc = { fds, count, timeout in
        let now = dd_latency_now()
        if traceAwoke > 0, now - traceAwoke > 1 {
            FileHandle.standardError.write(Data(String(format: "busy %.3f %.3f\n", traceAwoke, now - traceAwoke).utf8))
        }
        let result = g_poll(fds, count, timeout)
        traceAwoke = dd_latency_now()
        return result
    }
    g_main_context_set_poll_func(nil, poll)
}

/// When the main loop's poll last returned (DRAGDROP_BENCH_TRACE).
nonisolated(unsafe) var traceAwoke = 0.0

// MARK: Running

let arguments = CommandLine.arguments
// Another toolkit's app, measured from outside (External.swift): no GTK here.
if arguments.count >= 3, arguments[1] == "latency", let peer = ExternalPeer.named(arguments[2]) {
    runExternalLatency(peer)
}
guard arguments.count >= 4, let count = Int(arguments[3]) else {
    FileHandle.standardError.write(
        Data("usage: gtk-list-bench first-frame|drag|scroll ours|listview|listbox COUNT [PX_PER_FRAME]\n".utf8))
    exit(2)
}
let mode = arguments[1]
let kind = arguments[2]

guard gtk_init_check() != 0 else { fail("GTK could not open a display") }
GLibMainActorBridge.install()

// DRAGDROP_BENCH_CSS: extra CSS (at user priority, above the app's and the host's; at
// application priority with DRAGDROP_BENCH_CSS_PRIORITY=app), added before the list is built,
// to try styles without rebuilding (e.g. other ways to draw the row separators).
if let extra = ProcessInfo.processInfo.environment["DRAGDROP_BENCH_CSS"], let provider = gtk_css_provider_new(),
    let display = gdk_display_get_default()
{
    let priority =
        ProcessInfo.processInfo.environment["DRAGDROP_BENCH_CSS_PRIORITY"] == "app"
        ? GTK_STYLE_PROVIDER_PRIORITY_APPLICATION : GTK_STYLE_PROVIDER_PRIORITY_USER
    gtk_css_provider_load_from_data(provider, extra, -1)
    gtk_style_context_add_provider_for_display(
        display, dd_style_provider(UnsafeMutableRawPointer(provider)), guint(priority))
}
let started = nowSeconds()
let startedCPU = cpuSeconds()
let window = gtk_window_new()!
gtk_window_set_default_size(dd_window(UnsafeMutableRawPointer(window)), 800, 600)
let host = GtkDragHost(app: "gtk-list-bench")
let built: Built
switch kind {
case "ours": built = buildOurs(count: count, host: host)
case "listview": built = buildListView(count: count)
case "listbox": built = buildListBox(count: count)
case "ours-grid": built = buildOursGrid(count: count, host: host)
case "gridview": built = buildGridView(count: count)
case "ours-text": built = buildOursText(lines: count, host: host)
case "textview": built = buildTextView(lines: count)
default: fail("unknown list kind \(kind)")
}
if let register = built.register {
    // As an app does (GtkApp.run, GtkAppWindow.setContent): the window is added while empty
    // and its content goes into the host's feedback layer before GTK roots it.
    // DRAGDROP_BENCH_WRAP=1 sets the content first and lets addWindow move it into the
    // layer instead (how apps did it before GtkDragHost.setContent(_:of:)).
    let wrap = ProcessInfo.processInfo.environment["DRAGDROP_BENCH_WRAP"] == "1"
    do {
        if wrap { gtk_window_set_child(dd_window(UnsafeMutableRawPointer(window)), built.root) }
        try host.addWindow(window, id: "window", name: "Bench")
        if !wrap { try host.setContent(built.root, of: "window") }
        try register()
    } catch { fail("registering: \(error)") }
} else {
    gtk_window_set_child(dd_window(UnsafeMutableRawPointer(window)), built.root)
}
gtk_window_present(dd_window(UnsafeMutableRawPointer(window)))

// The first frame with rows on screen.
var frames: FrameTimes?
var firstFrame: Double?
iterate(until: started + 600) {
    if frames == nil, gtk_widget_get_realized(window) != 0, let clock = gtk_widget_get_frame_clock(window) {
        let recorder = FrameTimes(clock: clock)
        recorder.onPainted = {
            let shown =
                built.hasContent?()
                ?? (gtk_widget_get_height(built.list) > 0 && gtk_widget_get_first_child(built.list) != nil)
            if firstFrame == nil, shown {
                firstFrame = nowSeconds()
            }
        }
        frames = recorder
    }
    return firstFrame != nil
}
guard let firstFrame, let frames else { fail("no frame within 600 s") }

/// Whether a drag began (GTK's drag source's drag-begin, our host's lift): the latency run
/// checks it (on Wayland in a nested compositor it cannot see the drag image's window).
var dragBegan = false

/// GTK's own drag and drop without the engine: a drag source on the list offering text, a drop
/// target on it taking text.
@MainActor func addPlainDragAndDrop(to list: UnsafeMutablePointer<GtkWidget>) {
    let source = gtk_drag_source_new()!
    GSignal.connect(UnsafeMutableRawPointer(source), "drag-begin", pointer: { _ in dragBegan = true })
    GSignal.connect(
        UnsafeMutableRawPointer(source), "prepare",
        pointReturningPointer: { _, _ in
            let bytes = g_bytes_new("File 0", 6)
            defer { g_bytes_unref(bytes) }
            return UnsafeMutableRawPointer(gdk_content_provider_new_for_bytes("text/plain;charset=utf-8", bytes))
        })
    // DRAGDROP_BENCH_ICON=WxH: a drag image of that size (GTK's own is a 32 x 32 icon), to see
    // what the image's size costs the X server's moves.
    if let size = ProcessInfo.processInfo.environment["DRAGDROP_BENCH_ICON"]?.split(separator: "x").compactMap({
        Int($0)
    }), size.count == 2, size[0] > 0, size[1] > 0 {
        var pixels = [UInt8](repeating: 0, count: size[0] * size[1] * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) = (200, 120, 60, 200)
        }
        let bytes = g_bytes_new(pixels, gsize(pixels.count))
        let texture = gdk_memory_texture_new(
            Int32(size[0]), Int32(size[1]), GDK_MEMORY_B8G8R8A8_PREMULTIPLIED, bytes, gsize(size[0] * 4))
        g_bytes_unref(bytes)
        gtk_drag_source_set_icon(source, texture, 10, 10)
    }
    gtk_widget_add_controller(list, source)
    let target = gtk_drop_target_new(dd_type_string(), GDK_ACTION_COPY)!
    gtk_widget_add_controller(list, target)
}

switch mode {
case "latency":
    // Input-to-screen latency (issue 22): pressed on the first row, the drag image follows 200
    // small moves 30 ms apart; each is timed from XTest to the X server's report that the
    // image's window moved (CDragLatency, on a thread of its own with its own connection),
    // while this thread runs GTK's main loop and samples its own CPU time.
    if kind == "listview" || kind == "gridview" { addPlainDragAndDrop(to: built.list) }
    host.onEvent = { event in
        if case .lifted = event { dragBegan = true }
    }
    // DRAGDROP_BENCH_DAMAGE=TITLE (this app on Wayland in a nested compositor whose X window's
    // name contains TITLE): each move is timed until that window is damaged instead.
    let damaged = ProcessInfo.processInfo.environment["DRAGDROP_BENCH_DAMAGE"]
    iterate(until: nowSeconds() + 0.5) { false }
    let x: Int32
    let y: Int32
    if let pressPoint = built.pressPoint {
        guard let point = pressPoint(window) else { fail("no place to press") }
        (x, y) = point
        // Selecting may have queued a frame: let it paint before the press.
        iterate(until: nowSeconds() + 0.3) { false }
    } else {
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(built.list, window, &bounds) != 0 else { fail("no bounds") }
        x = Int32(bounds.origin.x + bounds.size.width / 3)
        y = Int32(bounds.origin.y) + 20
    }
    let moveCount: Int32 = 200
    final class Outcome: @unchecked Sendable {
        var result = DDLatencyResult()
        var done = false
        let lock = NSLock()
    }
    let outcome = Outcome()
    let thread = Thread {
        let result =
            damaged.map { dd_latency_run_damage($0, x, y, moveCount, 30, 790, 5) }
            ?? dd_latency_run(x, y, moveCount, 30, 790, 5)
        outcome.lock.withLock {
            outcome.result = result
            outcome.done = true
        }
    }
    thread.start()
    var samples: [(time: Double, cpu: Double)] = []
    let paintedAtStart = frames.painted
    iterate(until: nowSeconds() + 120) {
        samples.append((dd_latency_now(), dd_latency_thread_cpu()))
        return outcome.lock.withLock { outcome.done }
    }
    let paintedAtEnd = frames.painted
    iterate(until: nowSeconds() + 0.3) { false }
    var result = outcome.lock.withLock { outcome.result }
    if ProcessInfo.processInfo.environment["DRAGDROP_BENCH_FRAMES"] == "1" {
        FileHandle.standardError.write(Data("frames painted: \(paintedAtEnd - paintedAtStart)\n".utf8))
    }
    defer { dd_latency_free(&result) }
    guard result.error == 0, result.count > 0 else {
        fail(
            "error \(result.error) count \(result.count) lost \(result.lost): "
                + [
                    "", "no display", "libXtst.so.6 is missing", "no drag image appeared",
                    "no XDamage or no window \"\(damaged ?? "")\"",
                ][Int(min(max(result.error, 0), 4))])
    }
    // (GtkTextView's own drag has no signal to watch: its image window is the evidence.)
    if kind != "textview", !dragBegan { fail("no drag began (\(result.count) moves timed)") }
    reportLatency(result, cpuSamples: samples)

case "first-frame":
    print("ok \((firstFrame - started) * 1000) \(residentBytes()) \((cpuSeconds() - startedCPU) * 1000)")
    exit(0)

case "scroll":
    guard arguments.count >= 5, let speed = Double(arguments[4]), let adjustment = built.adjustment() else {
        fail("scroll needs a speed")
    }
    iterate(until: nowSeconds() + 0.5) { false }
    frames.recording = true
    let end = nowSeconds() + 3
    var before = gtk_adjustment_get_value(adjustment)
    let startValue = before
    frames.onPainted = {
        // One step per frame, as autoscroll does.
        before = gtk_adjustment_get_value(adjustment)
        gtk_adjustment_set_value(adjustment, before + speed)
    }
    gtk_adjustment_set_value(adjustment, before + speed)
    iterate(until: end) { false }
    frames.recording = false
    let moved = gtk_adjustment_get_value(adjustment) - startValue
    let n = frames.durations.count
    print(
        "ok \(percentile(frames.durations, 0.5)) \(percentile(frames.durations, 0.99)) \(n) \(moved / Double(max(1, n)))"
    )
    exit(0)

case "drag":
    guard
        let xdotool = ["/usr/bin/xdotool", "/usr/local/bin/xdotool"].first(where: FileManager.default.isExecutableFile)
    else { fail("xdotool is not installed") }
    iterate(until: nowSeconds() + 0.5) { false }
    // Where the list is on screen (the window sits at 0,0 without a window manager).
    var bounds = graphene_rect_t()
    guard gtk_widget_compute_bounds(built.list, window, &bounds) != 0 else { fail("no bounds") }
    let x = Int(bounds.origin.x + bounds.size.width / 2)
    let top = Int(bounds.origin.y) + 20
    let bottom = Int(bounds.origin.y + bounds.size.height) - 5
    let middle = Int(bounds.origin.y + bounds.size.height / 2)
    if kind == "listview" { addPlainDragAndDrop(to: built.list) }
    // Motion over the list during the drag, counted by a drop controller on the window.
    // CPU time is read at each counted move: the figure spans the first to the last move
    // received (not the time-out that ends the counting when GTK coalesced a few moves).
    var moves = 0
    var counting = false
    var cpuFirst = 0.0
    var cpuLast = 0.0
    var timeFirst = 0.0
    var timeLast = 0.0
    let motion = gtk_drop_controller_motion_new()!
    // "motion" returns nothing: the pointer returned here is ignored.
    GSignal.connect(
        UnsafeMutableRawPointer(motion), "motion",
        pointReturningPointer: { px, py in
            // Only the small moves over the middle rows (not the final move out of the list).
            if counting, abs(px - Double(x)) <= 4, abs(py - Double(middle)) <= 4 {
                moves += 1
                cpuLast = cpuSeconds()
                timeLast = nowSeconds()
                if moves == 1 {
                    cpuFirst = cpuLast
                    timeFirst = timeLast
                }
            }
            return nil
        })
    gtk_widget_add_controller(window, motion)
    var autoscrolling = false
    let adjustment = built.adjustment()
    let traceEvents = ProcessInfo.processInfo.environment["DRAGDROP_BENCH_EVENTS"] != nil
    host.onEvent = { event in
        if traceEvents {
            let value = adjustment.map(gtk_adjustment_get_value) ?? .nan
            FileHandle.standardError.write(
                Data(String(format: "%.3f scroll %.0f: \(event)\n", nowSeconds(), value).utf8))
        }
        switch event {
        case .autoscrollStarted: autoscrolling = true
        case .autoscrollStopped: autoscrolling = false
        default: break
        }
    }
    let hold = 3.0
    var script = ["mousemove", "\(x)", "\(top)", "sleep", "0.2", "mousedown", "1", "sleep", "0.05"]
    script += ["mousemove", "\(x + 4)", "\(top + 4)", "sleep", "0.1"]
    for step in 1...10 { script += ["mousemove", "\(x)", "\(top + (bottom - top) * step / 10)", "sleep", "0.03"] }
    script += ["sleep", "\(hold)", "mousemove", "\(x)", "\(middle)", "sleep", "0.5"]
    let moveCount = 200
    for i in 0..<moveCount {
        script += ["mousemove", "\(x + (i % 2 == 0 ? 3 : -3))", "\(middle + (i % 7) - 3)", "sleep", "0.01"]
    }
    // Released outside the window: nothing changes.
    script += ["sleep", "0.2", "mousemove", "790", "5", "sleep", "0.2", "mouseup", "1"]
    let process = Process()
    process.executableURL = URL(fileURLWithPath: xdotool)
    process.arguments = script
    do { try process.run() } catch { fail("xdotool: \(error)") }
    // Autoscroll episodes during the hold at the bottom edge (not the short one at the top edge
    // as the drag leaves): distance scrolled and frames painted, summed over episodes.
    var scrollStart: Double?
    var scrolled = 0.0
    var framesWhileScrolling = 0
    var framesAtEpisodeStart = 0
    var countingSince = 0.0
    var movesAtEnd = 0
    // Phases by time from the script: lift 0.35 s, to the edge 0.3 s, hold, to the middle 0.5 s.
    let scriptStart = nowSeconds()
    let movesFrom = scriptStart + 0.35 + 0.3 + hold + 0.6
    func endEpisode() {
        frames.recording = false
        if let start = scrollStart, let end = adjustment.map(gtk_adjustment_get_value) { scrolled += abs(end - start) }
        framesWhileScrolling += frames.durations.count - framesAtEpisodeStart
        scrollStart = nil
    }
    frames.onPainted = {
        let recording = kind == "ours" ? autoscrolling && nowSeconds() < movesFrom : false
        if recording, !frames.recording {
            scrollStart = adjustment.map(gtk_adjustment_get_value)
            framesAtEpisodeStart = frames.durations.count
            frames.recording = true
        } else if !recording, frames.recording {
            endEpisode()
        }
    }
    var lastTrace = 0.0
    iterate(until: scriptStart + 60) {
        let now = nowSeconds()
        if traceEvents, now - lastTrace >= 0.5 {
            lastTrace = now
            let value = adjustment.map(gtk_adjustment_get_value) ?? .nan
            FileHandle.standardError.write(
                Data(String(format: "%.3f scroll %.0f, CPU %.3f s\n", now, value, cpuSeconds()).utf8))
        }
        if !counting, now >= movesFrom, countingSince == 0 {
            counting = true
            countingSince = now
        }
        if counting, moves >= moveCount || now > countingSince + Double(moveCount) * 0.05 {
            counting = false
            movesAtEnd = moves
            // For profilers (`perf record -k mono`, then `perf report --time START,END`): the
            // window the CPU time per move was measured over, on CLOCK_MONOTONIC.
            FileHandle.standardError.write(
                Data(String(format: "gtk-list-bench: %d moves from %.6f to %.6f\n", moves, timeFirst, timeLast).utf8))
        }
        return !process.isRunning && !counting && countingSince > 0
    }
    process.waitUntilExit()
    if frames.recording { endEpisode() }
    let speed = framesWhileScrolling > 0 ? scrolled / Double(framesWhileScrolling) : 0
    // Between the first and the last move there are (moves - 1) intervals of work.
    let perMove = movesAtEnd > 1 ? (cpuLast - cpuFirst) / Double(movesAtEnd - 1) * 1e6 : .nan
    print(
        "ok \(percentile(frames.durations, 0.5)) \(percentile(frames.durations, 0.99)) \(frames.durations.count) \(speed) \(perMove) \(movesAtEnd)"
    )
    exit(0)

default:
    fail("unknown mode \(mode)")
}
