import Histogram
import MallocInterposerSwift

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The monotonic clock the harness reads: `clock_gettime(CLOCK_MONOTONIC)`, a vDSO call
/// (no system call) on Linux with a TSC clock source.
public enum Ticks {
    /// Nanoseconds since an arbitrary origin.
    @inline(__always) public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}

extension Ticks {
    /// CPU time this thread has used, in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`): unlike the
    /// wall clock, it does not count time the thread spent preempted by other processes.
    @inline(__always) public static func threadCPU() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}

/// Keeps a value alive so the optimizer cannot delete the work that produced it.
@inline(never) public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// The summary of one measurement, in nanoseconds per operation, with the clock's own cost
/// already subtracted from every sample.
public struct Stats: Sendable {
    /// Samples recorded.
    public var count: Int
    /// 50th percentile.
    public var median: Double
    /// 99th percentile.
    public var p99: Double
    /// The largest sample (exact, not rounded to a histogram bucket).
    public var max: Double
    /// The smallest sample.
    public var min: Double
    /// Mean of the samples.
    public var mean: Double
    /// Heap allocations per operation, when the malloc interposer is loaded.
    public var allocationsPerOp: Double?

    public init(count: Int, median: Double, p99: Double, max: Double, min: Double, mean: Double, allocationsPerOp: Double?) {
        self.count = count
        self.median = median
        self.p99 = p99
        self.max = max
        self.min = min
        self.mean = mean
        self.allocationsPerOp = allocationsPerOp
    }
}

/// Records per-operation durations into an HdrHistogram (1 ns to 100 s, 3 significant digits).
public struct Recorder {
    private var histogram = Histogram<UInt64>(
        lowestDiscernibleValue: 1, highestTrackableValue: 100_000_000_000, numberOfSignificantValueDigits: .three)
    private var exactMax: UInt64 = 0
    private var exactMin: UInt64 = .max
    private var sum: Double = 0
    public private(set) var count = 0

    public init() {}

    /// Records one duration in nanoseconds.
    @inline(__always) public mutating func record(_ nanoseconds: UInt64) {
        _ = histogram.record(nanoseconds)
        if nanoseconds > exactMax { exactMax = nanoseconds }
        if nanoseconds < exactMin { exactMin = nanoseconds }
        sum += Double(nanoseconds)
        count += 1
    }

    /// The value at `percentile` (0...100), in nanoseconds.
    public func value(atPercentile percentile: Double) -> Double {
        Double(histogram.valueAtPercentile(percentile))
    }

    /// Percentiles and extremes so far.
    public func stats(allocationsPerOp: Double? = nil) -> Stats {
        guard count > 0 else { return Stats(count: 0, median: 0, p99: 0, max: 0, min: 0, mean: 0, allocationsPerOp: nil) }
        return Stats(
            count: count, median: Double(histogram.valueAtPercentile(50)), p99: Double(histogram.valueAtPercentile(99)),
            max: Double(exactMax), min: Double(exactMin), mean: sum / Double(count), allocationsPerOp: allocationsPerOp)
    }
}

/// How many samples a measurement takes.
public struct SamplePlan: Sendable {
    /// Untimed calls first (caches, branch predictors, lazy allocations).
    public var warmup: Int
    /// Samples wanted.
    public var samples: Int
    /// Fewest samples taken even past the time budget.
    public var minimumSamples: Int
    /// Stop sampling after this many seconds (once `minimumSamples` are in).
    public var budget: Double

    public init(warmup: Int, samples: Int, minimumSamples: Int = 50, budget: Double = 2) {
        self.warmup = warmup
        self.samples = samples
        self.minimumSamples = minimumSamples
        self.budget = budget
    }
}

/// The malloc interposer, when it was preloaded (`LD_PRELOAD`); nil otherwise.
public enum Allocations {
    /// Whether allocations are being counted (the interposer is loaded and sees `malloc`).
    public static let available: Bool = {
        MallocInterposerSwift.initialize()
        MallocInterposerSwift.hook()
        // An array whose size the optimizer cannot know, so its allocation cannot be elided.
        blackHole([UInt8](repeating: 0, count: 64 + Int(Ticks.now() & 1)))
        MallocInterposerSwift.unhook()
        return MallocInterposerSwift.getStatistics().mallocCount > 0
    }()

    /// Starts counting from zero.
    @inline(__always) public static func start() {
        MallocInterposerSwift.reset()
        MallocInterposerSwift.hook()
    }

    /// Stops counting and returns the allocations since ``start()``.
    @inline(__always) public static func stop() -> Int {
        MallocInterposerSwift.unhook()
        return MallocInterposerSwift.getStatistics().mallocCount
    }

    /// The allocations `body` makes (nil without the interposer).
    public static func count(_ body: () throws -> Void) rethrows -> Int? {
        guard available else {
            try body()
            return nil
        }
        start()
        try body()
        return stop()
    }
}

/// The per-operation measuring loop.
public enum Bench {
    /// The cost of an empty measured operation: two clock reads and an indirect call, the median
    /// of 200,000 back-to-back samples. Subtracted from every sample.
    public static let clockOverhead: UInt64 = {
        var recorder = Recorder()
        let body: (Int) -> Void = { blackHole($0) }
        for i in 0..<10_000 { body(i) }
        for i in 0..<200_000 {
            let t0 = Ticks.now()
            body(i)
            let t1 = Ticks.now()
            recorder.record(t1 &- t0)
        }
        return UInt64(recorder.stats().median)
    }()

    /// Times `body(i)` one call at a time, for `i` in `0..<plan.samples` (warm-up calls get
    /// indices too, from the same range), subtracts ``clockOverhead`` from each sample, and
    /// counts the allocations made by the timed calls when the interposer is loaded.
    public static func measure(_ plan: SamplePlan, _ body: (Int) -> Void) -> Stats {
        let overhead = clockOverhead
        for i in 0..<plan.warmup { body(i % max(1, plan.samples)) }
        var recorder = Recorder()
        let started = Ticks.now()
        let budget = UInt64(plan.budget * 1e9)
        let counting = Allocations.available
        if counting { Allocations.start() }
        var i = 0
        while i < plan.samples {
            let t0 = Ticks.now()
            body(i)
            let t1 = Ticks.now()
            let elapsed = t1 &- t0
            recorder.record(elapsed > overhead ? elapsed - overhead : 0)
            i += 1
            if i >= plan.minimumSamples, t1 &- started > budget { break }
        }
        let allocations = counting ? Allocations.stop() : 0
        return recorder.stats(allocationsPerOp: counting ? Double(allocations) / Double(i) : nil)
    }
}
