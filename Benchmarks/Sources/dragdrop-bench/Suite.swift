import BenchmarkSupport
import Foundation

/// Options from the command line.
struct Options {
    /// Fewer samples and smaller transfers, for trying the suite out (not for the table).
    var quick = false
    /// Scenario groups to run (all when empty): lookup, drag, churn, lift, memory, transfer, lists.
    var only: Set<String> = []
    /// Skip the GTK baseline.
    var skipGTK = false
    /// Skip the Qt baseline.
    var skipQt = false
    /// Where to write the table (Markdown), besides standard output.
    var output: String?
    /// Where temporary transfer files go.
    var scratch: String?

    func runs(_ group: String) -> Bool { only.isEmpty || only.contains(group) }
}

/// Collects rows and notes while the scenarios run.
final class Suite {
    let options: Options
    private(set) var table = Table()
    private(set) var notes: [String] = []

    init(options: Options) { self.options = options }

    /// The scenario group rows are being added for (1 lookup ... 6 transfer).
    var group = 0

    func add(_ row: Row) {
        var row = row
        row.group = group
        table.append(row)
        log("  " + [row.scenario, row.ours, row.oursP99, row.baseline, row.baselineMedian, row.baselineP99, row.ratio, row.target]
            .joined(separator: " | "))
    }

    func note(_ text: String) {
        notes.append(text)
        log("  note: " + text)
    }

    /// Progress goes to standard error, so standard output holds only the table.
    func log(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// A sample plan scaled down in quick mode.
    func plan(warmup: Int, samples: Int, minimumSamples: Int = 50, budget: Double = 2) -> SamplePlan {
        if options.quick {
            return SamplePlan(
                warmup: max(1, warmup / 10), samples: max(minimumSamples, samples / 10), minimumSamples: minimumSamples,
                budget: budget / 4)
        }
        return SamplePlan(warmup: warmup, samples: samples, minimumSamples: minimumSamples, budget: budget)
    }
}

/// "1k", "10k", "100k".
func sizeLabel(_ n: Int) -> String {
    n >= 1000 && n % 1000 == 0 ? "\(n / 1000)k" : "\(n)"
}

/// "123 ns", with allocations when any.
func allocs(_ stats: Stats) -> String {
    guard let a = stats.allocationsPerOp else { return "n/a" }
    return a == 0 ? "0" : String(format: "%.2f", a)
}
