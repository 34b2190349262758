import BenchGeometry
import BenchmarkSupport
import Foundation

/// Runs `qt-pick-bench` (a C++ tool built by `make bench` next to this executable, from
/// `Benchmarks/qt-pick-bench/`) for the Qt rows of scenario 1: the same scene as items of a
/// `QGraphicsScene` indexed by Qt's BSP tree, timed at the same positions. The scene, the points
/// and the engine's answers at the first points go to the tool in a text file, so both sides
/// see exactly the same doubles; the tool counts where Qt's answer differs from ours.
final class QtBaseline {
    struct Result {
        var median: Double
        var p99: Double
        var samples: Int
        var items: Int
        var setupSeconds: Double
        var mismatches: Int
    }

    private let tool: String?
    private let quick: Bool
    private let suite: Suite

    init(suite: Suite) {
        self.suite = suite
        quick = suite.options.quick
        let dir = URL(fileURLWithPath: Subprocess.executablePath).deletingLastPathComponent().path
        let candidate = dir + "/qt-pick-bench"
        tool = FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    /// Times Qt's lookup over `scene` at `points`; `expected[i]` is the node the engine resolved
    /// at `points[i]` (-1 for none).
    func pick(scene: BenchScene, points: [(x: Double, y: Double)], expected: [Int]) -> Swift.Result<Result, GTKUnavailable> {
        guard let tool else { return .failure(GTKUnavailable("qt-pick-bench was not built (is qt6-base-dev installed?)")) }
        var text = "nodes \(scene.nodes.count)\n"
        text.reserveCapacity(64 * (scene.nodes.count + points.count))
        for node in scene.nodes {
            let f = node.frame
            // Swift prints the shortest decimal that reads back as the same double.
            text += "\(node.parent) \(f.x) \(f.y) \(f.width) \(f.height) \(node.kind.rawValue)\n"
        }
        text += "points \(points.count)\n"
        for p in points { text += "\(p.x) \(p.y)\n" }
        text += "expect \(expected.count)\n"
        for e in expected { text += "\(e)\n" }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("dragdrop-bench-scene-\(getpid()).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        do { try text.write(toFile: path, atomically: false, encoding: .utf8) } catch {
            return .failure(GTKUnavailable("the scene file could not be written: \(error)"))
        }
        var arguments = [path]
        if quick { arguments.append("--quick") }
        do {
            let run = try Subprocess.run(tool, arguments, environment: Subprocess.cleanEnvironment(["QT_QPA_PLATFORM": "offscreen"]))
            let words = run.output.split(whereSeparator: \.isWhitespace)
            guard run.status == 0, words.first == "ok", words.count >= 7, let median = Double(words[1]),
                let p99 = Double(words[2]), let samples = Int(words[3]), let items = Int(words[4]),
                let setup = Double(words[5]), let mismatches = Int(words[6])
            else {
                let reason = run.output.trimmingCharacters(in: .whitespacesAndNewlines)
                return .failure(GTKUnavailable(reason.isEmpty ? "qt-pick-bench exited with \(run.status)" : reason))
            }
            suite.log(String(format: "    Qt: %d items built and indexed in %.2f s; %d samples", items, setup, samples))
            return .success(
                Result(median: median, p99: p99, samples: samples, items: items, setupSeconds: setup, mismatches: mismatches))
        } catch {
            return .failure(GTKUnavailable("qt-pick-bench could not run: \(error)"))
        }
    }
}
