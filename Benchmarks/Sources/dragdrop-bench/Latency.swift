import BenchmarkSupport
import Foundation

/// Issue 22, what a person feels: the delay from a pointer move to the drag image moving on
/// screen, and the app's CPU per move, for our list (DragCollectionView) and GTK's own drag and
/// drop over a plain GtkListView (a drag source and a drop target), at 100, 10,000 and 100,000
/// rows, each in a fresh `gtk-list-bench latency` process under Xvfb (no compositor: a window
/// is on screen where the X server says it is), the two kinds taking turns.
enum LatencyScenario {
    struct Figures {
        var p50: Double
        var p90: Double
        var p99: Double
        var max: Double
        var lost: Int
        var cpu: Double
    }

    static func run(_ suite: Suite, gtk: GTKBaseline) {
        suite.log("Latency: pointer move to drag image on screen, CPU per move (gtk-list-bench latency)")
        // One untimed run first: the first GTK process on a fresh X server pays for its setup.
        _ = gtk.runTool("gtk-list-bench", ["latency", "listview", "100"])
        for count in [100, 10_000, 100_000] {
            var figures: [String: Figures] = [:]
            for kind in ["listview", "ours"] {
                switch gtk.runTool("gtk-list-bench", ["latency", kind, String(count)]) {
                case .success(let words):
                    guard words.count >= 6, let p50 = Double(words[0]), let p90 = Double(words[1]),
                        let p99 = Double(words[2]), let max = Double(words[3]), let lost = Int(words[4]),
                        let cpu = Double(words[5])
                    else {
                        suite.note("latency, \(kind) \(count): n/a (\(words.joined(separator: " ")))")
                        continue
                    }
                    figures[kind] = Figures(p50: p50, p90: p90, p99: p99, max: max, lost: lost, cpu: cpu)
                case .failure(let reason):
                    suite.note("latency, \(kind) \(count): n/a (\(reason))")
                }
            }
            let ours = figures["ours"]
            let plain = figures["listview"]
            func ms(_ v: Double?) -> String { v.map { String(format: "%.2f ms", $0) } ?? "n/a" }
            func ratio(_ a: Double?, _ b: Double?) -> String {
                guard let a, let b, a > 0 else { return "n/a" }
                return Format.ratio(b / a)
            }
            func lost(_ f: Figures?) -> String { f.map { "\($0.lost) lost, max \(ms($0.max))" } ?? "n/a" }
            suite.add(
                Row(
                    scenario: "Drag image latency, \(sizeLabel(count)) rows (p50 / p99; p90 \(ms(ours?.p90)); \(lost(ours)))",
                    ours: ms(ours?.p50), oursP99: ms(ours?.p99),
                    baseline: "GTK drag and drop over a GtkListView (p90 \(ms(plain?.p90)); \(lost(plain)))",
                    baselineMedian: ms(plain?.p50), baselineP99: ms(plain?.p99), ratio: ratio(ours?.p99, plain?.p99),
                    target: ours.flatMap { o in plain.map { ((o.p99 <= $0.p99) ? "PASS" : "MISS") + " p99 ≤ GTK's" } } ?? ""))
            suite.add(
                Row(
                    scenario: "Drag image latency, \(sizeLabel(count)) rows, CPU per move",
                    ours: ms(ours?.cpu), oursP99: "", baseline: "GTK drag and drop over a GtkListView",
                    baselineMedian: ms(plain?.cpu), baselineP99: "", ratio: ratio(ours?.cpu, plain?.cpu),
                    target: ours.flatMap { o in plain.map { ((o.cpu <= 1.2 * $0.cpu) ? "PASS" : "MISS") + " ≤ 1.2× GTK's" } }
                        ?? ""))
        }
    }
}
