import BenchGeometry
import BenchmarkSupport
@_spi(Benchmarks) import DragDrop
import Foundation

/// Scenario 5: memory per registered target with 100k targets (the board: cards with their
/// columns, lists and sections), as the registry estimates it (`approximateMemoryFootprint`)
/// and as the process's resident set grows, beside a plain array of identifier and frame.
///
/// Each side is measured in a fresh process (this executable run as a probe, without the
/// malloc interposer), so neither inherits memory the other freed.
enum MemoryScenario {
    static let count = 100_000

    static func run(_ suite: Suite) throws {
        suite.log("Memory")
        let ours = try probe("ours")
        let baseline = try probe("baseline")
        let perTarget = Double(ours.rss) / Double(ours.count)
        let basePerTarget = Double(baseline.rss) / Double(baseline.count)
        suite.add(
            Row(
                scenario: "Memory: bytes per target at \(sizeLabel(count)) (RSS growth)", ours: Format.bytes(perTarget),
                oursP99: "footprint estimate \(Format.bytes(Double(ours.footprint) / Double(ours.count)))",
                baseline: "array of (id, frame)", baselineMedian: Format.bytes(basePerTarget),
                baselineP99: "footprint \(Format.bytes(Double(baseline.footprint) / Double(baseline.count)))",
                ratio: Format.ratio(basePerTarget / perTarget), target: Verdict.check(perTarget <= 256, "≤ 256 B")))
        suite.log("    ours: \(Format.bytes(Double(ours.rss))) for \(ours.count) targets; baseline \(Format.bytes(Double(baseline.rss)))")
    }

    struct ProbeResult {
        var rss: Int
        var footprint: Int
        var count: Int
    }

    static func probe(_ side: String) throws -> ProbeResult {
        let run = try Subprocess.run(
            Subprocess.executablePath, ["--probe-memory", side, String(count)],
            environment: Subprocess.cleanEnvironment(["DRAGDROP_BENCH_REEXEC": "1"]))
        let words = run.output.split(whereSeparator: \.isWhitespace)
        guard run.status == 0, words.count == 4, words[0] == "ok", let rss = Int(words[1]), let footprint = Int(words[2]),
            let n = Int(words[3])
        else { throw BenchError.setup("the memory probe failed: \(run.output)") }
        return ProbeResult(rss: rss, footprint: footprint, count: n)
    }

    /// Runs in the probe process: builds one side and prints `ok RSS_GROWTH FOOTPRINT COUNT`.
    static func probeMain(side: String, count: Int) throws {
        let scene = BenchScene.board(cards: count)
        // Everything the measurement does not cover is made before the first reading.
        let ids = scene.nodes.indices.map { SceneTargets.id($0) }
        blackHole(SceneTargets.target(scene, 0))
        let before = ProcessMemory.rss ?? 0
        var footprint = 0
        switch side {
        case "ours":
            var registry = TargetRegistry(localApp: "Bench")
            for i in scene.nodes.indices { try registry.register(SceneTargets.target(scene, i)) }
            let after = ProcessMemory.rss ?? 0
            footprint = registry.approximateMemoryFootprint
            print("ok \(after - before) \(footprint) \(registry.count)")
            blackHole(registry)
        default:
            var plain: [(id: TargetID, frame: Rect)] = []
            for (i, node) in scene.nodes.enumerated() {
                let f = node.frame
                plain.append((ids[i], Rect(x: f.x, y: f.y, width: f.width, height: f.height)))
            }
            let after = ProcessMemory.rss ?? 0
            footprint = plain.capacity * MemoryLayout<(id: TargetID, frame: Rect)>.stride
            print("ok \(after - before) \(footprint) \(plain.count)")
            blackHole(plain)
        }
        // The inputs stay alive past the second reading: Swift would otherwise free them after
        // their last use, inside the measured span, and hide the growth.
        blackHole(scene)
        blackHole(ids)
    }
}
