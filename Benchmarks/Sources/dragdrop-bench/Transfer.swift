import BenchGeometry
import BenchmarkSupport
import DragDrop
import Foundation

/// Scenario 6: a file representation of 1 MB, 100 MB and 2 GB streamed to a destination file
/// through `DropDataAccess.load(..., options: LoadOptions(target: .file(path:)))`, beside
/// `/bin/cp` of the same file in the same run (alternating, each copy deleted right after, so
/// each starts with nothing waiting to be written back; the source is synced to disk first);
/// the resident set's high-water mark during our load beside the payload; and how long a
/// cancel takes: the `Progress` is cancelled from another task mid-transfer and the time until
/// the load throws is measured.
enum TransferScenario {
    static let megabyte = 1_000_000

    static func run(_ suite: Suite) async throws {
        suite.log("Transfer")
        let quick = suite.options.quick
        let base = suite.options.scratch ?? NSTemporaryDirectory()
        let dir = (base as NSString).appendingPathComponent("dragdrop-bench-\(getpid())")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        if let free = try? FileManager.default.attributesOfFileSystem(forPath: dir)[.systemFreeSize] as? NSNumber {
            suite.log("    scratch \(dir), \(Format.bytes(free.doubleValue)) free")
            if free.int64Value < 6 * 1_000_000_000 { throw BenchError.setup("Need 6 GB free in \(dir) for the transfer scenario") }
        }
        let spawn = spawnCost()
        let cases: [(bytes: Int, reps: Int)] =
            quick ? [(megabyte, 5), (100 * megabyte, 1), (400 * megabyte, 1)]
            : [(megabyte, 21), (100 * megabyte, 7), (2_000 * megabyte, 7)]
        for (bytes, reps) in cases {
            let source = dir + "/source.bin"
            try makeFile(source, bytes: bytes)
            var ours: [Double] = []
            var cp: [Double] = []
            var peakGrowth = 0
            var peakMeasured = true
            for rep in 0..<reps {
                // Alternate which goes first, so neither always inherits the other's aftermath.
                for side in rep % 2 == 0 ? ["cp", "ours"] : ["ours", "cp"] {
                    if side == "cp" {
                        let cpTarget = dir + "/cp-\(rep).bin"
                        let t0 = Ticks.now()
                        let status = try Subprocess.run("/bin/cp", [source, cpTarget]).status
                        let t1 = Ticks.now()
                        guard status == 0 else { throw BenchError.setup("cp failed with \(status)") }
                        cp.append(Double(t1 - t0))
                        try? FileManager.default.removeItem(atPath: cpTarget)
                    } else {
                        let target = dir + "/ours-\(rep).bin"
                        // VmHWM and VmRSS come from the same (batched) kernel counters: compare
                        // like with like.
                        peakMeasured = ProcessMemory.resetPeak() && peakMeasured
                        let before = ProcessMemory.status("VmRSS") ?? 0
                        let s0 = Ticks.now()
                        try await load(source, bytes: bytes, to: target)
                        let s1 = Ticks.now()
                        peakGrowth = max(peakGrowth, (ProcessMemory.peak ?? 0) - before)
                        ours.append(Double(s1 - s0))
                        let size = (try? FileManager.default.attributesOfItem(atPath: target)[.size] as? NSNumber)?.intValue
                        guard size == bytes else {
                            throw BenchError.mismatch("the loaded file has \(size ?? -1) bytes, not \(bytes)")
                        }
                        try? FileManager.default.removeItem(atPath: target)
                    }
                    settle()
                }
            }
            try? FileManager.default.removeItem(atPath: source)
            let oursTime = median(ours)
            let cpTime = median(cp)
            let oursRate = Double(bytes) / (oursTime / 1e9)
            let cpRate = Double(bytes) / (cpTime / 1e9)
            // On this machine the same 2 GB cp takes anywhere from 0.5 s to 5 s from one run to
            // the next (write-back, block freeing, other processes' I/O; whichever copy comes
            // second in a pair is often the slow one): far more than any difference between
            // the two. The verdict compares the best run of each (the least disturbed), as
            // timing tools do for noisy measurements; the medians are printed too.
            let bestOurs = Double(bytes) / ((ours.min() ?? .infinity) / 1e9)
            let bestCp = Double(bytes) / ((cp.min() ?? .infinity) / 1e9)

            let label = sizeName(bytes)
            let big = bytes >= 400 * megabyte
            suite.add(
                Row(
                    scenario: "Transfer \(label) to a file: throughput, median (best) of \(reps)",
                    ours: Format.throughput(oursRate), oursP99: "best \(Format.throughput(bestOurs))",
                    baseline: "/bin/cp, same file (time incl. process start)",
                    baselineMedian: Format.throughput(cpRate), baselineP99: "best \(Format.throughput(bestCp))",
                    ratio: Format.ratio(bestOurs / bestCp),
                    target: big ? Verdict.check(bestOurs >= 0.8 * bestCp, "best ≥ 0.8 × cp's best") : ""))
            suite.log(
                "    \(label): times ours \(ours.map { Format.duration($0) }), cp \(cp.map { Format.duration($0) }); ratio of the medians \(Format.ratio(oursRate / cpRate))")
            if big {
                suite.note(
                    "Transfer \(label): the ratio of the medians is \(Format.ratio(oursRate / cpRate)); runs took ours \(Format.duration(ours.min() ?? 0))–\(Format.duration(ours.max() ?? 0)), cp \(Format.duration(cp.min() ?? 0))–\(Format.duration(cp.max() ?? 0)).")
            }
            suite.add(
                Row(
                    scenario: "Transfer \(label): peak memory growth", ours: peakMeasured ? Format.bytes(Double(peakGrowth)) : "n/a",
                    oursP99: "", baseline: "payload size", baselineMedian: Format.bytes(Double(bytes)), baselineP99: "",
                    ratio: "", target: big ? Verdict.check(peakMeasured && peakGrowth <= 64 << 20, "≤ 64 MiB") : ""))
            if !peakMeasured { suite.note("The RSS high-water mark could not be reset (/proc/self/clear_refs).") }
        }
        suite.note(
            "Transfer: cp's times include starting it, \(Format.duration(spawn)) here (/bin/true, same run): that is most of the 1 MB copy.")

        // Cancel: a 2 GB load cancelled once 256 MB have been written.
        let bytes = quick ? 400 * megabyte : 2_000 * megabyte
        let source = dir + "/source.bin"
        try makeFile(source, bytes: bytes)
        var latencies: [Double] = []
        for rep in 0..<(quick ? 2 : 5) {
            latencies.append(try await cancelLatency(source, bytes: bytes, to: dir + "/cancel-\(rep).bin", after: 256 * megabyte))
        }
        try? FileManager.default.removeItem(atPath: source)
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        if !leftovers.isEmpty { suite.note("Transfer: files left after cancelled loads: \(leftovers)") }
        let sorted = latencies.sorted()
        suite.add(
            Row(
                scenario: "Transfer \(sizeName(bytes)): cancel mid-transfer until the load throws (\(latencies.count) runs)",
                ours: Format.duration(median(latencies)), oursP99: "max \(Format.duration(sorted.last ?? 0))", baseline: "",
                baselineMedian: "", baselineP99: "", ratio: "",
                target: Verdict.check((sorted.last ?? .infinity) <= 50_000_000, "≤ 50 ms (max)")))
    }

    /// "1 MB", "100 MB", "2 GB" (decimal).
    static func sizeName(_ bytes: Int) -> String {
        bytes >= 1_000 * megabyte && bytes % (1_000 * megabyte) == 0 ? "\(bytes / 1_000 / megabyte) GB" : "\(bytes / megabyte) MB"
    }

    static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        return s.isEmpty ? 0 : s[s.count / 2]
    }

    /// Commits the file system's journal after a copy was deleted, so the freeing (and, on
    /// mounts with `discard`, trimming) of its blocks happens now, untimed, and not during the
    /// next copy.
    static func settle() {
        sync()
    }

    /// The cost of starting and reaping a process (median of 11), reported beside cp's times.
    static func spawnCost() -> Double {
        var times: [Double] = []
        for _ in 0..<11 {
            let t0 = Ticks.now()
            _ = try? Subprocess.run("/bin/true", [])
            times.append(Double(Ticks.now() - t0))
        }
        return median(times)
    }

    /// Writes `bytes` of pseudo-random data (so nothing can be skipped as zeros).
    static func makeFile(_ path: String, bytes: Int) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else { throw BenchError.setup("cannot write \(path)") }
        defer { try? handle.close() }
        var rng = SplitMix64(seed: UInt64(bytes))
        var chunk = [UInt64](repeating: 0, count: 1 << 17)
        var left = bytes
        while left > 0 {
            for i in chunk.indices { chunk[i] = rng.next() }
            let n = min(left, chunk.count * 8)
            try chunk.withUnsafeBytes { try handle.write(contentsOf: Data($0.prefix(n))) }
            left -= n
        }
        // On disk before anything is timed: otherwise its write-back (and the kernel throttling
        // writers once too much is dirty) lands on whichever copy runs next.
        try handle.synchronize()
    }

    /// The destination's side of a drop of a video file offered as a file representation.
    static func access(_ source: String, bytes: Int) -> DropDataAccess {
        let provider = ItemProvider(
            app: "Camera", representations: [Representation("video/mp4", size: Int64(bytes)) { .file(path: source) }])
        let access = DropDataAccess(providers: [provider], requester: "Editor")
        access.open()
        return access
    }

    static func load(_ source: String, bytes: Int, to target: String, progress: Progress = Progress(totalUnitCount: -1))
        async throws
    {
        let access = access(source, bytes: bytes)
        defer { access.finish() }
        _ = try await access.load(
            item: 0, accepting: ["video/mp4"], options: LoadOptions(target: .file(path: target)), progress: progress)
    }

    /// Starts a load, cancels its `Progress` from another task once `after` bytes are done, and
    /// returns the nanoseconds from the cancel to the load throwing.
    static func cancelLatency(_ source: String, bytes: Int, to target: String, after: Int) async throws -> Double {
        let progress = Progress(totalUnitCount: -1)
        let loader = Task.detached { () -> UInt64? in
            do {
                try await load(source, bytes: bytes, to: target, progress: progress)
                return nil
            } catch {
                return Ticks.now()
            }
        }
        let canceller = Task.detached { () -> UInt64 in
            while progress.completedUnitCount < Int64(after) { try? await Task.sleep(for: .microseconds(200)) }
            let t = Ticks.now()
            progress.cancel()
            return t
        }
        let cancelledAt = await canceller.value
        guard let threwAt = await loader.value else { throw BenchError.setup("the load finished before it was cancelled") }
        return Double(threwAt &- cancelledAt)
    }
}
