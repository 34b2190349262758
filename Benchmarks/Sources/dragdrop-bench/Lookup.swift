import BenchGeometry
import BenchmarkSupport
@_spi(Benchmarks) import DragDrop

/// Scenario 1: the destination under a random pointer position, among 1k, 10k and 100k
/// destinations, in a flat grid and on a nested board; beside a linear scan and GTK's
/// `gtk_widget_pick` and Qt's `QGraphicsScene` BSP index over the same rectangles.
enum LookupScenario {
    static let sizes = [1_000, 10_000, 100_000]
    static let pointCount = 65_536

    static func run(_ suite: Suite, gtk: GTKBaseline?, qt: QtBaseline?) throws {
        suite.log("Lookup")
        for layout in BenchScene.Layout.allCases {
            for n in sizes {
                let scene = BenchScene.make(layout, count: n)
                var registry = try SceneTargets.registry(scene)
                let card = SceneTargets.id(SceneTargets.firstCard(scene))
                let masks = registry.sessionMasks(for: [card])
                let scan = LinearScan(scene)
                let rawPoints = scene.randomPoints(pointCount)
                let points = rawPoints.map { Point(x: $0.x, y: $0.y) }

                // Both must give the same answer before either is timed.
                var hits = 0
                // The engine's answers as node indexes, for the Qt tool to check its own against.
                var engineNodes: [Int] = []
                engineNodes.reserveCapacity(4_000)
                for p in points.prefix(4_000) {
                    let ours = registry.resolve(at: p, session: masks).destination
                    let theirs = scan.destination(p.x, p.y)
                    let expected = theirs >= 0 ? SceneTargets.id(Int(theirs)) : nil
                    guard ours == expected else {
                        throw BenchError.mismatch("lookup \(layout) \(n) at \(p): engine \(String(describing: ours)), scan \(String(describing: expected))")
                    }
                    if ours != nil { hits += 1 }
                    engineNodes.append(Int(theirs))
                }

                let ourStats = Bench.measure(suite.plan(warmup: 20_000, samples: 300_000, budget: 1.5)) { i in
                    blackHole(registry.resolve(at: points[i & (pointCount - 1)], session: masks).destination)
                }
                let scanStats = Bench.measure(suite.plan(warmup: 50, samples: 20_000, minimumSamples: 200, budget: 1.5)) { i in
                    let p = points[i & (pointCount - 1)]
                    blackHole(scan.destination(p.x, p.y))
                }
                let label = "Lookup, \(layout == .grid ? "grid" : "board"), \(sizeLabel(n))"
                var target = ""
                if n == 100_000 {
                    target = Verdict.check(ourStats.median <= 2_000 && ourStats.p99 <= 10_000, "median ≤ 2 µs, p99 ≤ 10 µs")
                }
                suite.add(
                    Row(
                        scenario: label, ours: Format.duration(ourStats.median), oursP99: Format.duration(ourStats.p99),
                        baseline: "linear scan (\(Format.count(scan.count)) rects)", baselineMedian: Format.duration(scanStats.median),
                        baselineP99: Format.duration(scanStats.p99), ratio: Format.ratio(scanStats.median / ourStats.median),
                        target: target))
                if ourStats.allocationsPerOp ?? 0 > 0 {
                    suite.note("\(label): the lookup allocated \(allocs(ourStats)) times per call.")
                }
                suite.log("    \(hits) of 4000 check points hit a destination; \(ourStats.count) / \(scanStats.count) samples")
                if let gtk {
                    let row: Row
                    switch gtk.pick(layout: layout, count: n) {
                    case .success(let result):
                        row = Row(
                            scenario: label, ours: Format.duration(ourStats.median), oursP99: Format.duration(ourStats.p99),
                            baseline: "GTK gtk_widget_pick (\(Format.count(result.widgets)) widgets)",
                            baselineMedian: Format.duration(result.median), baselineP99: Format.duration(result.p99),
                            ratio: Format.ratio(result.median / ourStats.median))
                    case .failure(let reason):
                        suite.note("GTK baseline for \(label): \(reason)")
                        row = Row(
                            scenario: label, ours: Format.duration(ourStats.median), oursP99: Format.duration(ourStats.p99),
                            baseline: "GTK gtk_widget_pick", baselineMedian: "n/a", baselineP99: "n/a", ratio: "n/a")
                    }
                    suite.add(row)
                }
                if let qt {
                    switch qt.pick(scene: scene, points: rawPoints, expected: engineNodes) {
                    case .success(let result):
                        if result.mismatches > 0 {
                            suite.note("Qt \(layout.rawValue) \(n): \(result.mismatches) of 4000 lookups differed from the engine's.")
                        }
                        suite.add(
                            Row(
                                scenario: label, ours: Format.duration(ourStats.median), oursP99: Format.duration(ourStats.p99),
                                baseline: "Qt QGraphicsScene BSP itemAt (\(Format.count(result.items)) items)",
                                baselineMedian: Format.duration(result.median), baselineP99: Format.duration(result.p99),
                                ratio: Format.ratio(result.median / ourStats.median)))
                    case .failure(let reason):
                        suite.note("Qt baseline for \(label): \(reason)")
                        suite.add(
                            Row(
                                scenario: label, ours: Format.duration(ourStats.median), oursP99: Format.duration(ourStats.p99),
                                baseline: "Qt QGraphicsScene BSP itemAt", baselineMedian: "n/a", baselineP99: "n/a", ratio: "n/a"))
                    }
                }
            }
        }
    }
}

enum BenchError: Error, CustomStringConvertible {
    case mismatch(String)
    case setup(String)

    var description: String {
        switch self {
        case .mismatch(let s): "The engine and its baseline disagree: \(s)"
        case .setup(let s): s
        }
    }
}
