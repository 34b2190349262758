import BenchmarkSupport
import Foundation

/// Issue 22, what a person feels: the delay from a pointer move to the drag image moving on
/// screen, and the app's CPU per move, each widget beside GTK's own in a fresh
/// `gtk-list-bench latency` process under Xvfb (no compositor: a window is on screen where the
/// X server says it is), the two kinds taking turns, three runs each (the medians):
///
/// - our list (DragCollectionView) and GTK's own drag and drop over a plain GtkListView (a drag
///   source and a drop target), at 100, 10,000 and 100,000 rows;
/// - our grid (DragCollectionView in its grid layout) and a plain GtkGridView with a drag source
///   and a drop target, at 20,000 tiles;
/// - our text view (DragTextView) and a plain GtkTextView, a selection of a long text dragged
///   (GTK's text view drags its selection itself);
/// - other toolkits' apps, measured from outside: GTK's dnd demo (`gtk4-demo --run=dnd`) and
///   Qt 5's draggableicons example, each beside our list of 100 rows (their CPU per move is the
///   whole process's, from /proc/PID/stat);
/// - our list at 10,000 rows in a debug build, beside the release build (target: within 3×);
/// - on Wayland: our list and a plain GtkListView at 10,000 rows inside a weston nested in the
///   Xvfb, each move timed until weston's window is damaged (LatencyWayland.swift).
enum LatencyScenario {
    struct Figures {
        var p50: Double
        var p90: Double
        var p99: Double
        var max: Double
        var lost: Int
        var cpu: Double
    }

    /// Lines of the text both text views show.
    static let textLines = 2_000

    static func run(_ suite: Suite, gtk: GTKBaseline) {
        suite.log("Latency: pointer move to drag image on screen, CPU per move (gtk-list-bench latency)")
        // One untimed run first: the first GTK process on a fresh X server pays for its setup.
        _ = gtk.runTool("gtk-list-bench", ["latency", "listview", "100"])
        var oursList: [Int: Figures] = [:]
        for count in [100, 10_000, 100_000] {
            let (plain, ours) = measurePair(suite, gtk, plain: "listview", ours: "ours", count: count)
            oursList[count] = ours
            addRows(
                suite, scenario: "Drag image latency, \(sizeLabel(count)) rows", ours: ours,
                baseline: "GTK drag and drop over a GtkListView", plain: plain)
        }
        let tiles = 20_000
        let (plainGrid, oursGrid) = measurePair(suite, gtk, plain: "gridview", ours: "ours-grid", count: tiles)
        addRows(
            suite, scenario: "Drag image latency, grid of \(sizeLabel(tiles)) tiles", ours: oursGrid,
            baseline: "GTK drag and drop over a GtkGridView", plain: plainGrid)
        let (plainText, oursText) = measurePair(suite, gtk, plain: "textview", ours: "ours-text", count: textLines)
        addRows(
            suite, scenario: "Drag image latency, text view, selection of a \(textLines.formatted())-line text",
            ours: oursText, baseline: "GtkTextView's own selection drag", plain: plainText)
        // Other toolkits' apps, measured from outside in the same run, beside our list of 100
        // rows (the nearest of ours to a small demo window).
        for (kind, name, who) in [
            ("gtk4-demo", "gtk4-demo dnd demo", "gtk4-demo's"),
            ("qt-draggableicons", "Qt draggableicons", "Qt's"),
        ] {
            let peer = measure(suite, gtk, kind: kind, count: 1)
            addRows(
                suite, scenario: "Drag image latency, our 100 rows vs \(name)", ours: oursList[100],
                baseline: name, plain: peer, who: who, cpuNote: " (ours: main thread; theirs: whole process)")
        }
        debugRows(suite, gtk, release: oursList[10_000])
        waylandRows(suite, gtk)
    }

    /// Issue 22's "a debug build within 3× of release": our list at 10,000 rows in a debug build
    /// of gtk-list-bench (`swift build --product gtk-list-bench` in Benchmarks, next to the
    /// release build's directory), beside the release build's run above.
    static func debugRows(_ suite: Suite, _ gtk: GTKBaseline, release: Figures?) {
        let tool = "../debug/gtk-list-bench"
        let dir = URL(fileURLWithPath: Subprocess.executablePath).deletingLastPathComponent().path
        var debug: Figures?
        if FileManager.default.isExecutableFile(atPath: dir + "/" + tool) {
            debug = measure(suite, gtk, kind: "ours", count: 10_000, tool: tool)
        } else {
            suite.note(
                "latency, debug build: n/a (no debug build of gtk-list-bench: `swift build --product gtk-list-bench` in Benchmarks)"
            )
        }
        /// debug / release, and whether it is at most 3.
        func compare(_ d: Double?, _ r: Double?) -> (ratio: String, target: String) {
            guard let d, let r, r > 0 else { return ("n/a", "") }
            return (Format.ratio(d / r), (d <= 3 * r ? "PASS" : "MISS") + " ≤ 3× release")
        }
        let latency = compare(debug?.p50, release?.p50)
        suite.add(
            Row(
                scenario:
                    "Drag image latency, 10k rows, debug build (p50 / p99; p90 \(ms(debug?.p90)); \(lost(debug)); ratio debug / release p50)",
                ours: ms(debug?.p50), oursP99: ms(debug?.p99),
                baseline: "Our release build, same run (p90 \(ms(release?.p90)); \(lost(release)))",
                baselineMedian: ms(release?.p50), baselineP99: ms(release?.p99), ratio: latency.ratio,
                target: latency.target))
        let cpu = compare(debug?.cpu, release?.cpu)
        suite.add(
            Row(
                scenario: "Drag image latency, 10k rows, debug build, CPU per move (ratio debug / release)",
                ours: ms(debug?.cpu), oursP99: "", baseline: "Our release build, same run",
                baselineMedian: ms(release?.cpu), baselineP99: "", ratio: cpu.ratio, target: cpu.target))
    }

    /// How many runs of each kind a pair of our widget and GTK's takes.
    static let rounds = 3

    /// Our widget and GTK's, ``rounds`` runs each taking turns (a busy moment of the machine
    /// falls on both), each figure the median of its runs: one run's p99 and CPU move by a
    /// fifth from run to run on this machine.
    static func measurePair(_ suite: Suite, _ gtk: GTKBaseline, plain: String, ours: String, count: Int)
        -> (plain: Figures?, ours: Figures?)
    {
        var plainRuns: [Figures] = []
        var oursRuns: [Figures] = []
        for _ in 0..<rounds {
            if let figures = measure(suite, gtk, kind: plain, count: count) { plainRuns.append(figures) }
            if let figures = measure(suite, gtk, kind: ours, count: count) { oursRuns.append(figures) }
        }
        return (median(plainRuns), median(oursRuns))
    }

    /// Each figure's median over `runs` (nil for none; the lower middle of an even count).
    static func median(_ runs: [Figures]) -> Figures? {
        guard !runs.isEmpty else { return nil }
        func mid(_ values: [Double]) -> Double { values.sorted()[(values.count - 1) / 2] }
        return Figures(
            p50: mid(runs.map(\.p50)), p90: mid(runs.map(\.p90)), p99: mid(runs.map(\.p99)),
            max: mid(runs.map(\.max)), lost: runs.map(\.lost).max() ?? 0, cpu: mid(runs.map(\.cpu)))
    }

    /// One `gtk-list-bench latency KIND COUNT` run, or nil (with a note) when it could not.
    static func measure(_ suite: Suite, _ gtk: GTKBaseline, kind: String, count: Int, tool: String = "gtk-list-bench")
        -> Figures?
    {
        switch gtk.runTool(tool, ["latency", kind, String(count)]) {
        case .success(let words):
            guard let figures = figures(words) else {
                suite.note("latency, \(kind) \(count): n/a (\(words.joined(separator: " ")))")
                return nil
            }
            return figures
        case .failure(let reason):
            suite.note("latency, \(kind) \(count): n/a (\(reason))")
            return nil
        }
    }

    /// The figures of an `ok P50 P90 P99 MAX LOST CPU` line (after `ok`).
    static func figures(_ words: [String]) -> Figures? {
        guard words.count >= 6, let p50 = Double(words[0]), let p90 = Double(words[1]), let p99 = Double(words[2]),
            let max = Double(words[3]), let lost = Int(words[4]), let cpu = Double(words[5])
        else { return nil }
        return Figures(p50: p50, p90: p90, p99: p99, max: max, lost: lost, cpu: cpu)
    }

    static func ms(_ v: Double?) -> String { v.map { String(format: "%.2f ms", $0) } ?? "n/a" }

    /// baseline / ours, as the table's ratios are (above 1: ours is faster).
    static func ratio(_ ours: Double?, _ baseline: Double?) -> String {
        guard let ours, let baseline, ours > 0 else { return "n/a" }
        return Format.ratio(baseline / ours)
    }

    static func lost(_ f: Figures?) -> String { f.map { "\($0.lost) lost, max \(ms($0.max))" } ?? "n/a" }

    /// The two rows of one comparison: the latency (target: our p99 at most the baseline's) and
    /// the CPU per move (target: at most 1.2 times the baseline's).
    static func addRows(
        _ suite: Suite, scenario: String, ours: Figures?, baseline: String, plain: Figures?, who: String = "GTK's",
        cpuNote: String = ""
    ) {
        suite.add(
            Row(
                scenario: "\(scenario) (p50 / p99; p90 \(ms(ours?.p90)); \(lost(ours)))",
                ours: ms(ours?.p50), oursP99: ms(ours?.p99),
                baseline: "\(baseline) (p90 \(ms(plain?.p90)); \(lost(plain)))",
                baselineMedian: ms(plain?.p50), baselineP99: ms(plain?.p99), ratio: ratio(ours?.p99, plain?.p99),
                target: ours.flatMap { o in plain.map { ((o.p99 <= $0.p99) ? "PASS" : "MISS") + " p99 ≤ \(who)" } }
                    ?? ""
            ))
        suite.add(
            Row(
                scenario: "\(scenario), CPU per move\(cpuNote)",
                ours: ms(ours?.cpu), oursP99: "", baseline: baseline,
                baselineMedian: ms(plain?.cpu), baselineP99: "", ratio: ratio(ours?.cpu, plain?.cpu),
                target: ours.flatMap { o in plain.map { ((o.cpu <= 1.2 * $0.cpu) ? "PASS" : "MISS") + " ≤ 1.2× \(who)" }
                }
                    ?? ""))
    }
}
