import CGtk4
import DriverProtocol
import Foundation
import Glibc

/// Measures how long GTK's main loop goes without running (tour mode): a GLib timeout ticks
/// every 10 ms and records the gap since the previous tick. The app is blocked for the part of
/// a gap its main thread spent working or waiting in the kernel; the part it spent runnable but
/// not running (other processes had the CPU, read from `/proc/thread-self/schedstat`) is not the
/// app's doing and is reported apart, so a busy machine does not pass for a slow app.
///
/// Prints, in `--tour` mode:
/// - `{"kind":"loop","longest":ms,"wall":ms,"ticks":n}` once a second (or every
///   `reportMilliseconds`): the longest gap of that time, blocked (`longest`) and as the clock
///   saw it (`wall`);
/// - `{"kind":"stall","ms":ms,"cpu":ms,"wall":ms}` at once after a gap in which the app was
///   blocked for more than ``stallMilliseconds`` (`cpu`: how much of it the main thread ran).
@MainActor
final class LoopWatch {
    static let tickMilliseconds: UInt32 = 10
    static let stallMilliseconds = 50.0

    private let output: TourOutput
    /// How often the longest gap is reported (`--loop-report`).
    private let reportMilliseconds: Double
    private var last: (wall: Double, ran: Double, waited: Double) = (0, 0, 0)
    private var windowStart = 0.0
    private var longest = 0.0
    private var longestWall = 0.0
    private var ticks = 0
    /// The main thread's `/proc/thread-self/schedstat`, opened on that thread.
    private var schedstat: Int32 = -1

    init(output: TourOutput, reportMilliseconds: Double = 1000) {
        self.output = output
        self.reportMilliseconds = reportMilliseconds
    }

    /// Starts ticking (call once, on the main thread).
    func start() {
        schedstat = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC)
        let times = schedTimes()
        last = (Self.now(), times.ran, times.waited)
        windowStart = last.wall
        let tick: GSourceFunc = { data in
            guard let data else { return 0 }
            let watch = Unmanaged<LoopWatch>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { watch.tick() }
            return 1  // G_SOURCE_CONTINUE
        }
        g_timeout_add_full(0, Self.tickMilliseconds, tick, Unmanaged.passRetained(self).toOpaque()) { data in
            if let data { Unmanaged<LoopWatch>.fromOpaque(data).release() }
        }
    }

    private func tick() {
        let now = Self.now()
        let times = schedTimes()
        let wall = now - last.wall
        let blocked = max(0, wall - (times.waited - last.waited))
        let ran = max(0, times.ran - last.ran)
        last = (now, times.ran, times.waited)
        ticks += 1
        longest = max(longest, blocked)
        longestWall = max(longestWall, wall)
        if blocked > Self.stallMilliseconds {
            output.write(StallLine(ms: Self.rounded(blocked), cpu: Self.rounded(ran), wall: Self.rounded(wall)))
        }
        if now - windowStart >= reportMilliseconds {
            output.write(LoopLine(longest: Self.rounded(longest), wall: Self.rounded(longestWall), ticks: ticks))
            windowStart = now
            longest = 0
            longestWall = 0
            ticks = 0
        }
    }

    /// Milliseconds on the monotonic clock.
    private static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1_000_000
    }

    /// Milliseconds this thread has run on a CPU and spent runnable but waiting for one (0 when
    /// unknown).
    private func schedTimes() -> (ran: Double, waited: Double) {
        guard schedstat >= 0 else { return (0, 0) }
        var buffer = [UInt8](repeating: 0, count: 96)
        let count = pread(schedstat, &buffer, buffer.count - 1, 0)
        guard count > 0 else { return (0, 0) }
        let fields = String(decoding: buffer[0..<count], as: UTF8.self).split(separator: " ")
        guard fields.count >= 2, let ran = Double(fields[0]), let waited = Double(fields[1]) else { return (0, 0) }
        return (ran / 1_000_000, waited / 1_000_000)
    }

    private static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
