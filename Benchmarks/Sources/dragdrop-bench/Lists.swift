import BenchmarkSupport
import Foundation

/// Issue 12, end to end: the virtualized list (DragCollectionView) beside plain GtkListView and
/// GtkListBox, each measurement in a fresh `gtk-list-bench` process under Xvfb: time to first
/// frame and resident memory for 1k, 10k and 100k items; frame times while a real drag (xdotool)
/// autoscrolls across 100,000 rows beside a plain GtkListView scrolled at the same speed; CPU
/// time per pointer move during that drag beside GTK's own drag and drop over a GtkListView.
enum ListsScenario {
    static func run(_ suite: Suite, gtk: GTKBaseline) {
        suite.log("Lists: first frame and memory, drag frames, CPU per pointer move (gtk-list-bench)")
        let runs = suite.options.quick ? 1 : 3
        /// The median of `runs` runs of each figure (first frame, memory) for each kind of list,
        /// the kinds taking turns run by run, so that a change in the machine's load in the
        /// middle of a size touches all three alike.
        func firstFrames(_ kinds: [String], _ count: Int) -> [String: (ms: Double, bytes: Double)] {
            var times: [String: [Double]] = [:]
            var sizes: [String: [Double]] = [:]
            var failed: Set<String> = []
            for _ in 0..<runs {
                for kind in kinds where !failed.contains(kind) {
                    switch gtk.runTool("gtk-list-bench", ["first-frame", kind, String(count)]) {
                    case .success(let words):
                        guard words.count >= 2, let ms = Double(words[0]), let bytes = Double(words[1]) else {
                            failed.insert(kind)
                            continue
                        }
                        times[kind, default: []].append(ms)
                        sizes[kind, default: []].append(bytes)
                    case .failure(let reason):
                        suite.note("first frame, \(kind) \(count): n/a (\(reason))")
                        failed.insert(kind)
                    }
                }
            }
            var result: [String: (ms: Double, bytes: Double)] = [:]
            for kind in kinds where !failed.contains(kind) {
                guard let t = times[kind], let b = sizes[kind], !t.isEmpty else { continue }
                result[kind] = (t.sorted()[t.count / 2], b.sorted()[b.count / 2])
            }
            return result
        }
        // The first GTK process on a fresh X server may pay for setting the server up (keymap,
        // fonts): one untimed run first, so that no kind of list is charged for it.
        _ = gtk.runTool("gtk-list-bench", ["first-frame", "listview", "1000"])
        for count in [1_000, 10_000, 100_000] {
            let figures = firstFrames(["ours", "listview", "listbox"], count)
            let ours = figures["ours"]
            let listView = figures["listview"]
            let listBox = figures["listbox"]
            func ms(_ v: Double?) -> String { v.map { String(format: "%.0f ms", $0) } ?? "n/a" }
            func mb(_ v: Double?) -> String { v.map { Format.bytes($0) } ?? "n/a" }
            func ratio(_ a: Double?, _ b: Double?) -> String {
                guard let a, let b, a > 0 else { return "n/a" }
                return Format.ratio(b / a)
            }
            func target(_ a: Double?, _ b: Double?) -> String {
                guard let a, let b else { return "" }
                return (a <= 1.5 * b ? "PASS" : "MISS") + " ≤ 1.5× GtkListView"
            }
            suite.add(
                Row(
                    scenario: "List, first frame, \(sizeLabel(count)) rows", ours: ms(ours?.ms), oursP99: "",
                    baseline: "GtkListView (GtkListBox: \(ms(listBox?.ms)))", baselineMedian: ms(listView?.ms),
                    baselineP99: "", ratio: ratio(ours?.ms, listView?.ms), target: target(ours?.ms, listView?.ms)))
            suite.add(
                Row(
                    scenario: "List, resident memory, \(sizeLabel(count)) rows", ours: mb(ours?.bytes), oursP99: "",
                    baseline: "GtkListView (GtkListBox: \(mb(listBox?.bytes)))", baselineMedian: mb(listView?.bytes),
                    baselineP99: "", ratio: ratio(ours?.bytes, listView?.bytes),
                    target: target(ours?.bytes, listView?.bytes)))
        }

        // A real drag over 100,000 rows: autoscroll frames, then CPU per pointer move.
        let count = 100_000
        guard case .success(let drag) = gtk.runTool("gtk-list-bench", ["drag", "ours", String(count)]), drag.count >= 6,
            let p50 = Double(drag[0]), let p99 = Double(drag[1]), let frames = Int(drag[2]), let speed = Double(drag[3]),
            let cpu = Double(drag[4]), let moves = Int(drag[5])
        else {
            suite.note("drag over 100k rows: n/a (gtk-list-bench drag did not finish)")
            return
        }
        let pace = max(1, speed.rounded())
        /// A GtkListView scrolled at our speed: with row separators (as ours draws them; the fair
        /// baseline) and without (the plainest list).
        func scrolled(separators: Bool) -> (p50: Double, p99: Double, frames: Int)? {
            var arguments = ["scroll", "listview", String(count), String(pace)]
            if separators { arguments.append("--separators") }
            guard case .success(let words) = gtk.runTool("gtk-list-bench", arguments), words.count >= 3,
                let a = Double(words[0]), let b = Double(words[1]), let n = Int(words[2])
            else { return nil }
            return (a, b, n)
        }
        let scroll = scrolled(separators: true)
        let plain = scrolled(separators: false)
        var gtkCPU: (perMove: Double, moves: Int)?
        if case .success(let words) = gtk.runTool("gtk-list-bench", ["drag", "listview", String(count)]), words.count >= 6,
            let perMove = Double(words[4]), let n = Int(words[5])
        {
            gtkCPU = (perMove, n)
        }
        func ms(_ v: Double) -> String { String(format: "%.2f ms", v) }
        suite.add(
            Row(
                scenario: "Drag autoscrolling 100k rows, frame time (\(frames) frames, \(Int(pace)) px/frame)",
                ours: ms(p50), oursP99: ms(p99),
                baseline:
                    "GtkListView with separators at the same speed (\(scroll.map { "\($0.frames)" } ?? "n/a") frames; without: \(plain.map { "\(ms($0.p50)) / \(ms($0.p99))" } ?? "n/a"))",
                baselineMedian: scroll.map { ms($0.p50) } ?? "n/a", baselineP99: scroll.map { ms($0.p99) } ?? "n/a",
                ratio: scroll.map { Format.ratio($0.p99 / p99) } ?? "n/a",
                target: (p99 <= 16.7 ? "PASS" : "MISS") + " p99 ≤ 16.7 ms"))
        suite.add(
            Row(
                scenario: "Drag over 100k rows, CPU per pointer move (\(moves) moves)",
                ours: String(format: "%.0f µs", cpu), oursP99: "",
                baseline: "GTK drag and drop over a GtkListView (\(gtkCPU.map { "\($0.moves)" } ?? "n/a") moves)",
                baselineMedian: gtkCPU.map { String(format: "%.0f µs", $0.perMove) } ?? "n/a", baselineP99: "",
                ratio: gtkCPU.map { Format.ratio($0.perMove / cpu) } ?? "n/a"))
    }
}
