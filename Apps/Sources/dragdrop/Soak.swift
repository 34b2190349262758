import ArgumentParser
import DragDrop
import DragDropTesting
import Foundation
import Synchronization

/// `dragdrop soak`: many random drag sessions through the model-based random tester
/// (`RandomSessions`), each checked by the timeline auditor and the session oracle. A failing
/// session is shrunk to a minimal scenario file, printed, and written to `--out` if given.
struct Soak: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play random drag sessions and check every rule and invariant.",
        discussion: """
            Each session is a random scene (2 to 4 lists that move, copy, decide or refuse, some \
            loading slowly and failing, asking for confirmation, spring-loaded, scrolling, nested \
            folders, another app) and random input (pointer, touch and pen drags, modifiers, keys, \
            taps, selections, keyboard drags, confirmations, undo, redo, cancelling after a drop or \
            while loading, drags from another app). A failure is shrunk to a minimal scenario file. \
            Prints "sessions: N, failures: F, time: T s" last; exits 1 if a session failed.
            """)

    @Option(help: "How many sessions to play.")
    var sessions = 100_000

    @Option(help: "The run's seed; session i plays from a seed derived from it and i.")
    var seed: UInt64 = 1

    @Option(help: "Worker threads (default: the number of processors).")
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "A directory to write each shrunk failing scenario to (seed-N.json).")
    var out: String?

    @Option(help: "Shrink and print at most this many failing sessions, one per kind of failure.")
    var maxReported = 5

    @Flag(help: "Print a progress line every 10,000 sessions.")
    var progress = false

    @Flag(
        help:
            "Count what the sessions did (inputs and feedback by kind, and a few situations), printed before the summary."
    )
    var stats = false

    func validate() throws {
        guard sessions >= 0 else { throw ValidationError("--sessions cannot be negative.") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1.") }
    }

    func run() throws {
        let start = ContinuousClock.now
        let failing = Mutex<[(index: Int, report: RandomSessionReport)]>([])
        let counts = Mutex<[String: Int]>([:])
        let countStats = stats
        let done = Atomic<Int>(0)
        let total = sessions
        let runSeed = seed
        let showProgress = progress
        let workers = min(jobs, max(1, total))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var index = worker
            while index < total {
                let report = RandomSessions.run(seed: RandomSessions.sessionSeed(run: runSeed, index: index))
                if !report.failures.isEmpty { failing.withLock { $0.append((index, report)) } }
                if countStats, let run = try? report.scenario.run() {
                    let found = Self.situations(run.timeline)
                    counts.withLock { c in for (k, v) in found { c[k, default: 0] += v } }
                }
                let n = done.add(1, ordering: .relaxed).newValue
                if showProgress, n % 10_000 == 0 {
                    printError("\(n) sessions, \(failing.withLock { $0.count }) failing")
                }
                index += workers
            }
        }
        let elapsed = ContinuousClock.now - start
        let failures = failing.withLock { $0 }.sorted { $0.index < $1.index }
        // One shrunk scenario per kind of failure (the signature of a session's first failure).
        var seen = Set<String>()
        var distinct: [(index: Int, report: RandomSessionReport)] = []
        for f in failures where seen.insert(f.report.failures[0].signature).inserted { distinct.append(f) }
        if !failures.isEmpty { print("\(failures.count) failing session(s), \(distinct.count) kind(s) of failure") }
        for (index, report) in distinct.prefix(maxReported) {
            let first = report.failures[0]
            print("session \(index) (seed \(report.seed)) failed:")
            for f in report.failures.prefix(5) { print("  \(f)") }
            let minimal = RandomSessions.shrink(report.scenario, keeping: first.signature)
            let text = RandomSessions.json(minimal)
            print("  shrunk from \(report.scenario.events.count) to \(minimal.events.count) events:")
            print(text)
            if let out {
                try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
                try text.write(toFile: "\(out)/seed-\(report.seed).json", atomically: true, encoding: .utf8)
            }
        }
        if stats {
            for (k, v) in counts.withLock({ $0 }).sorted(by: { $0.key < $1.key }) { print("\(k): \(v)") }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("sessions: \(total), failures: \(failures.count), time: \(String(format: "%.1f", seconds)) s")
        if !failures.isEmpty { throw ExitCode(1) }
    }

    /// What one session did: each input and feedback event by name, and situations the issue
    /// names (undo while a drop loads, a load ending during another drag...).
    static func situations(_ timeline: [TimelineEntry]) -> [String: Int] {
        var c: [String: Int] = [:]
        var loading = 0
        var dragging = false
        for entry in timeline {
            let fields = entry.json
            guard case .object(let pairs) = fields, let kind = pairs.first(where: { $0.0 == "kind" })?.1,
                case .string(let name)? = pairs.first(where: { $0.0 == "event" })?.1
            else { continue }
            c["\(kind == .string("input") ? "input" : "feedback") \(name)", default: 0] += 1
            switch entry.event {
            case .input(.undo) where loading > 0: c["situation: undo while a drop loads", default: 0] += 1
            case .input(.redo) where loading > 0: c["situation: redo while a drop loads", default: 0] += 1
            case .input(.undo) where dragging: c["situation: undo during a drag", default: 0] += 1
            case .feedback(.lifted): dragging = true
            case .feedback(.outcome(let o)):
                dragging = false
                if case .placeholder = o { loading += 1 }
            case .input(.externalDragExit): dragging = false
            case .feedback(.placeholderResolved):
                loading -= 1
                if dragging { c["situation: a load arrives during another drag", default: 0] += 1 }
            case .feedback(.placeholderFailed(_, let f)):
                loading -= 1
                if dragging { c["situation: a load fails during another drag", default: 0] += 1 }
                if f.code == .cancelled { c["situation: a load cancelled", default: 0] += 1 }
            default: break
            }
        }
        return c
    }
}

/// `dragdrop check FILE...`: replays scenario files with both the timeline auditor and the
/// session oracle of the random tester (conservation of items, undo and redo exactness, loads,
/// the registry), the strictest check a scenario can get.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay scenarios with the auditor and the random tester's invariants.",
        discussion: """
            Prints each failure as "RULE at Ts (checker): message", prefixed with the file name when \
            several files are given, then "ok" or the count. Exits 1 if anything failed, 2 if a file is \
            invalid.
            """)

    @Argument(help: "One or more scenario files (JSON).")
    var files: [String]

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Give at least one scenario file.") }
    }

    func run() throws {
        var failed = 0
        var invalid = 0
        for file in files {
            guard let scenario = loadScenario(file) else {
                invalid += 1
                continue
            }
            let prefix = files.count > 1 ? "\(file): " : ""
            let failures = RandomSessions.check(scenario)
            for f in failures { print(prefix + f.description) }
            failed += failures.count
        }
        print(
            failed == 0 && invalid == 0
                ? "ok"
                : "\(failed) failure\(failed == 1 ? "" : "s")\(invalid > 0 ? ", \(invalid) invalid file\(invalid == 1 ? "" : "s")" : "")"
        )
        if invalid > 0 { throw ExitCode(badInputExitCode) }
        if failed > 0 { throw ExitCode(1) }
    }
}
