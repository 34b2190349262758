// `make bench`: every scenario of the benchmarks issue, each beside a baseline measured in the
// same run, printed as one Markdown table on standard output (progress goes to standard error).
//
// Usage: dragdrop-bench [--quick] [--only lookup,drag,churn,lift,memory,transfer,lists,latency,outline] [--no-gtk] [--no-qt]
//                       [--output FILE] [--scratch DIR]
import BenchmarkSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Allocation counts need the malloc interposer preloaded. When it was not, run again with it
/// (it is built next to this executable), unless told not to.
func reexecWithInterposerIfNeeded() {
    let env = ProcessInfo.processInfo.environment
    guard env["DRAGDROP_BENCH_REEXEC"] == nil, !Allocations.available else { return }
    let exe = Subprocess.executablePath
    let library = URL(fileURLWithPath: exe).deletingLastPathComponent().path + "/libMallocInterposerSwift.so"
    guard FileManager.default.fileExists(atPath: library) else { return }
    setenv("LD_PRELOAD", library, 1)
    setenv("DRAGDROP_BENCH_REEXEC", "1", 1)
    let argv = CommandLine.arguments.map { strdup($0) } + [nil]
    execv(exe, argv)
    // execv returns only on failure: carry on without allocation counts.
}

func parseOptions() -> Options {
    var options = Options()
    var args = CommandLine.arguments.dropFirst().makeIterator()
    while let arg = args.next() {
        switch arg {
        case "--quick": options.quick = true
        case "--no-gtk": options.skipGTK = true
        case "--no-qt": options.skipQt = true
        case "--only": options.only = Set((args.next() ?? "").split(separator: ",").map(String.init))
        case "--output": options.output = args.next()
        case "--scratch": options.scratch = args.next()
        default:
            FileHandle.standardError.write(Data("unknown argument \(arg)\n".utf8))
            exit(2)
        }
    }
    return options
}

// Probes run in a fresh process of their own (see MemoryScenario).
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "--probe-memory", let n = Int(CommandLine.arguments[3]) {
    do { try MemoryScenario.probeMain(side: CommandLine.arguments[2], count: n) } catch {
        print("error \(error)")
        exit(1)
    }
    exit(0)
}

reexecWithInterposerIfNeeded()
let options = parseOptions()
let suite = Suite(options: options)
suite.log("Clock overhead subtracted from every sample: \(Bench.clockOverhead) ns")
suite.log("Allocation counting: \(Allocations.available ? "on (malloc interposer preloaded)" : "off (interposer not loaded)")")
if !Allocations.available { suite.note("The malloc interposer was not loaded: allocation counts are n/a.") }

let started = Date()
let initialLoad =
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "").split(separator: " ").prefix(3).joined(separator: " ")
do {
    // Memory first, while this process is small (its probes run in fresh processes anyway);
    // the table lists the scenarios in the issue's order.
    suite.group = 5
    if options.runs("memory") { try MemoryScenario.run(suite) }
    suite.group = 1
    if options.runs("lookup") {
        let gtk = options.skipGTK ? nil : GTKBaseline(suite: suite)
        try LookupScenario.run(suite, gtk: gtk, qt: options.skipQt ? nil : QtBaseline(suite: suite))
        gtk?.stop()
    }
    suite.group = 2
    if options.runs("drag") { try DragPathScenario.run(suite) }
    suite.group = 3
    if options.runs("churn") { try LayoutChurnScenario.run(suite) }
    suite.group = 4
    if options.runs("lift") { try LiftScenario.run(suite) }
    suite.group = 6
    if options.runs("transfer") { try await TransferScenario.run(suite) }
    suite.group = 7
    if options.runs("lists"), !options.skipGTK {
        let gtk = GTKBaseline(suite: suite)
        ListsScenario.run(suite, gtk: gtk)
        gtk.stop()
    }
    suite.group = 9
    if options.runs("outline") { try OutlineScenario.run(suite) }
    suite.group = 8
    if options.runs("latency"), !options.skipGTK {
        let gtk = GTKBaseline(suite: suite)
        LatencyScenario.run(suite, gtk: gtk)
        gtk.stop()
    }
} catch {
    suite.log("error: \(error)")
    exit(1)
}
suite.log(String(format: "All scenarios ran in %.0f s.", Date().timeIntervalSince(started)))

var output = suite.table.markdown() + "\n"
if !suite.notes.isEmpty { output += "\n" + suite.notes.map { "- " + $0 }.joined(separator: "\n") + "\n" }
print(output, terminator: "")
if let path = options.output {
    try? (machineDescription() + "\n\n" + output).write(toFile: path, atomically: true, encoding: .utf8)
}

/// The machine, for the saved results: cores, CPU model, memory, Swift, kernel, date, load.
func machineDescription() -> String {
    func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    let cpuinfo = read("/proc/cpuinfo").split(separator: "\n")
    let model = cpuinfo.first { $0.hasPrefix("model name") }.map { String($0.split(separator: ":", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces) } ?? "unknown"
    let memory = ProcessMemory.status("MemTotal", file: "/proc/meminfo").map { Format.bytes(Double($0)) } ?? "unknown"
    let swift = (try? Subprocess.run(Subprocess.which("swift") ?? "/usr/bin/swift", ["--version"]).output)?
        .split(separator: "\n").first.map(String.init) ?? "unknown"
    let kernel = read("/proc/sys/kernel/osrelease").trimmingCharacters(in: .whitespacesAndNewlines)
    let load = read("/proc/loadavg").split(separator: " ").prefix(3).joined(separator: " ")
    let date = ISO8601DateFormatter().string(from: Date())
    return """
        Machine: \(ProcessInfo.processInfo.activeProcessorCount) cores (nproc), \(model), \(memory) memory, \(swift), Linux \(kernel).
        Run: \(date), load average before the run \(initialLoad), after \(load).
        """
}
