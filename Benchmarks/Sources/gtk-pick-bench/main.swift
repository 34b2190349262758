// The GTK baseline for scenario 1: builds the same scene as the engine benchmark out of real
// GTK 4 widgets (GtkFixed containers, one widget per node, nested as the scene nests), shows
// the window (under Xvfb when run by `make bench`), waits until every widget is allocated, then
// times `gtk_widget_pick` at the same random pointer positions the engine is timed at.
//
// Usage: gtk-pick-bench grid|board COUNT [--quick]
// Prints one line: `ok MEDIAN_NS P99_NS SAMPLES WIDGETS SETUP_SECONDS MISMATCHES`, or `n/a REASON`.
import BenchGeometry
import BenchmarkSupport
import CGtk4Bench
import Foundation

func fail(_ reason: String) -> Never {
    print("n/a \(reason)")
    exit(0)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, let layout = BenchScene.Layout(rawValue: arguments[1]), let count = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: gtk-pick-bench grid|board COUNT [--quick]\n".utf8))
    exit(2)
}
let quick = arguments.contains("--quick")

guard gtk_init_check() != 0 else { fail("GTK could not open a display (DISPLAY=\(ProcessInfo.processInfo.environment["DISPLAY"] ?? "unset"))") }

let setupStart = Ticks.now()
let scene = BenchScene.make(layout, count: count)
var hasChildren = [Bool](repeating: false, count: scene.nodes.count)
for node in scene.nodes where node.parent >= 0 { hasChildren[Int(node.parent)] = true }

// Node 0 (the window node) becomes the root GtkFixed, the content of a scrolled window.
var widgets: [UnsafeMutablePointer<GtkWidget>] = []
widgets.reserveCapacity(scene.nodes.count)
var nodeOfWidget: [UnsafeMutableRawPointer: Int] = [:]
for (i, node) in scene.nodes.enumerated() {
    let widget: UnsafeMutablePointer<GtkWidget> = hasChildren[i] ? gtk_fixed_new() : gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)
    gtk_widget_set_size_request(widget, Int32(node.frame.width), Int32(node.frame.height))
    if hasChildren[i] {
        // Containers clip: the most favourable setting for GTK, since picking then skips every
        // subtree that does not contain the point (nothing in these scenes sticks out of its
        // parent, so the answers are the same either way).
        gtk_widget_set_overflow(widget, GTK_OVERFLOW_HIDDEN)
    }
    if node.parent >= 0 {
        let parent = scene.nodes[Int(node.parent)]
        gtk_fixed_put(bb_fixed(widgets[Int(node.parent)]), widget, node.frame.x - parent.frame.x, node.frame.y - parent.frame.y)
    }
    widgets.append(widget)
    nodeOfWidget[UnsafeMutableRawPointer(widget)] = i
}
let root = widgets[0]

let window = gtk_window_new()!
gtk_window_set_default_size(bb_window(window), 1280, 800)
let scrolled = gtk_scrolled_window_new()!
gtk_scrolled_window_set_child(bb_scrolled_window(scrolled), root)
gtk_window_set_child(bb_window(window), scrolled)
gtk_window_present(bb_window(window))

// Run the main loop until the window is mapped and the deepest, last widget is allocated.
let deadline = Date().addingTimeInterval(300)
let last = widgets[widgets.count - 1]
var frames = 0
while Date() < deadline {
    g_main_context_iteration(nil, 0)
    if gtk_widget_get_mapped(window) != 0, gtk_widget_get_width(root) >= Int32(scene.width),
        gtk_widget_get_width(last) > 0
    {
        frames += 1
        if frames > 20 { break }  // a few more iterations so the first frame is drawn
    }
}
guard gtk_widget_get_width(last) > 0 else { fail("the widgets were not allocated within 300 s") }
while g_main_context_iteration(nil, 0) != 0 {}
let setupSeconds = Double(Ticks.now() - setupStart) / 1e9

// The same positions as the engine benchmark.
let points = scene.randomPoints(65_536)

// Check GTK's answers against the scene: the deepest node containing the point.
func deepestNode(_ x: Double, _ y: Double) -> Int? {
    var best: Int?
    var bestDepth = -1
    for (i, node) in scene.nodes.enumerated() where node.frame.contains(x, y) {
        let d = scene.depth(of: i)
        if d >= bestDepth {
            best = i
            bestDepth = d
        }
    }
    return best
}
var mismatches = 0
for p in points.prefix(100) {
    let picked = gtk_widget_pick(root, p.x, p.y, GTK_PICK_DEFAULT)
    let node = picked.flatMap { nodeOfWidget[UnsafeMutableRawPointer($0)] }
    if node != deepestNode(p.x, p.y) { mismatches += 1 }
}

let plan =
    quick
    ? SamplePlan(warmup: 3, samples: 200, minimumSamples: 20, budget: 0.5)
    : SamplePlan(warmup: 10, samples: 20_000, minimumSamples: 100, budget: 3)
let stats = Bench.measure(plan) { i in
    let p = points[i & 65_535]
    blackHole(gtk_widget_pick(root, p.x, p.y, GTK_PICK_DEFAULT))
}
print("ok \(stats.median) \(stats.p99) \(stats.count) \(widgets.count) \(setupSeconds) \(mismatches)")
exit(0)
