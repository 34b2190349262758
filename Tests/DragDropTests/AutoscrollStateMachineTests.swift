@testable import DragDrop
import Testing

/// Virtual time: `n` milliseconds after the clock's origin.
private func ms(_ n: Int) -> MonotonicInstant { MonotonicInstant(.milliseconds(n)) }

private typealias Autoscroll = AutoscrollStateMachine<String>

/// Numbers chosen so every step is exact in binary floating point: 50-point zones, 1000 pt/s at
/// the edge, nothing at the inner boundary, ramp from 0.5 to 1 over 1 s, a step every 250 ms.
private let exact = AutoscrollConfiguration(
    edgeZone: 50, maximumSpeed: 1000, rampDuration: .milliseconds(1000), initialRampFactor: 0.5,
    stepInterval: .milliseconds(250), axes: .vertical, minimumSpeed: 0)

/// A 200 x 400 list at the origin.
private let frame = Rect(x: 0, y: 0, width: 200, height: 400)

private func list(_ configuration: AutoscrollConfiguration = exact)
    -> (target: String, frame: Rect, configuration: AutoscrollConfiguration)
{
    ("list", frame, configuration)
}

@Suite("Autoscroll state machine")
struct AutoscrollStateMachineTests {
    @Test("A1: faster nearer the edge")
    func fasterNearerTheEdge() {
        // The pure speed function, with the default configuration.
        let standard = AutoscrollConfiguration()
        for time in [Duration.zero, .milliseconds(300), .milliseconds(600), .milliseconds(2000)] {
            var previous = -1.0
            for step in 0...20 {
                let speed = Autoscroll.speed(
                    depthFraction: Double(step) / 20, timeInZone: time, configuration: standard)
                #expect(speed > previous)
                previous = speed
            }
        }
        #expect(Autoscroll.speed(depthFraction: 1, timeInZone: .milliseconds(600), configuration: standard) == 1500)
        #expect(Autoscroll.speed(depthFraction: 0, timeInZone: .zero, configuration: standard) == 4)  // a few pt/s

        // The machine: the edge itself vs. halfway through the zone, first step at 250 ms.
        var atEdge = Autoscroll()
        var halfway = Autoscroll()
        #expect(atEdge.pointerMoved(to: Point(x: 100, y: 0), container: list(), now: ms(0)) == .started("list"))
        #expect(halfway.pointerMoved(to: Point(x: 100, y: 25), container: list(), now: ms(0)) == .started("list"))
        #expect(atEdge.deadline == ms(250))
        // speed = 1000 * depth² * ramp(0.25 s) = 1000 * depth² * 0.625; step = speed * 0.25 s, upwards.
        #expect(atEdge.tick(now: ms(250)) == .scroll("list", by: Vector(dx: 0, dy: -156.25)))
        #expect(halfway.tick(now: ms(250)) == .scroll("list", by: Vector(dx: 0, dy: -39.0625)))
    }

    @Test("A1: ramps up over time")
    func rampsUp() {
        let standard = AutoscrollConfiguration()
        var previous = 0.0
        for time in stride(from: 0, through: 600, by: 50) {
            let speed = Autoscroll.speed(depthFraction: 0.5, timeInZone: .milliseconds(time), configuration: standard)
            #expect(speed > previous)
            previous = speed
        }
        #expect(
            Autoscroll.speed(depthFraction: 0.5, timeInZone: .milliseconds(900), configuration: standard) == previous)

        var autoscroll = Autoscroll()
        #expect(
            autoscroll.pointerMoved(to: Point(x: 100, y: 399), container: list(exact), now: ms(0)) == .started("list"))
        #expect(autoscroll.pointerMoved(to: Point(x: 100, y: 400 - 1e-9), container: list(), now: ms(100)) == .none)
        #expect(autoscroll.pointerMoved(to: Point(x: 100, y: 375), container: list(), now: ms(200)) == .none)
        // depth 0.5 at the bottom: speed = 250 * ramp, ramp = 0.5 + 0.5 * t / 1 s; steps every 0.25 s, downwards.
        let expected: [(Int, Double)] = [(250, 39.0625), (500, 46.875), (750, 54.6875), (1000, 62.5), (1250, 62.5)]
        for (time, dy) in expected {
            #expect(autoscroll.deadline == ms(time))
            #expect(autoscroll.tick(now: ms(time - 1)) == .none)
            #expect(autoscroll.tick(now: ms(time)) == .scroll("list", by: Vector(dx: 0, dy: dy)))
        }
    }

    @Test("A1: stops at once when the pointer leaves the container")
    func stopsWhenLeaving() {
        var autoscroll = Autoscroll()
        _ = autoscroll.pointerMoved(to: Point(x: 100, y: 10), container: list(), now: ms(0))
        #expect(autoscroll.isScrolling)
        #expect(autoscroll.pointerMoved(to: Point(x: 100, y: -5), container: nil, now: ms(100)) == .stopped("list"))
        #expect(!autoscroll.isScrolling)
        #expect(autoscroll.deadline == nil)
        #expect(autoscroll.tick(now: ms(250)) == .none)
        #expect(autoscroll.pointerMoved(to: Point(x: 100, y: -5), container: nil, now: ms(300)) == .none)

        // Outside the frame, even if the owner still names the container.
        _ = autoscroll.pointerMoved(to: Point(x: 100, y: 10), container: list(), now: ms(400))
        #expect(autoscroll.pointerMoved(to: Point(x: 100, y: -1), container: list(), now: ms(450)) == .stopped("list"))
    }

    @Test("A1: stops at once when the pointer moves straight into another container's zone")
    func switchesContainers() {
        var autoscroll = Autoscroll()
        _ = autoscroll.pointerMoved(to: Point(x: 100, y: 10), container: list(), now: ms(0))
        let sidebar = ("sidebar", Rect(x: 0, y: 400, width: 200, height: 400), exact)
        #expect(
            autoscroll.pointerMoved(to: Point(x: 100, y: 400), container: sidebar, now: ms(100)) == .stopped("list"))
        #expect(!autoscroll.isScrolling)
        #expect(autoscroll.deadline == ms(100))
        #expect(autoscroll.tick(now: ms(100)) == .started("sidebar"))
        #expect(autoscroll.scrollingTarget == "sidebar")
        #expect(autoscroll.deadline == ms(350))
        #expect(autoscroll.tick(now: ms(350)) == .scroll("sidebar", by: Vector(dx: 0, dy: -156.25)))
    }

    @Test("A1: no scrolling outside the edge zone")
    func noScrollingOutsideZone() {
        var autoscroll = Autoscroll()
        for y in [50.0, 200, 350] {  // 50 points from an edge is outside the 50-point zone
            #expect(autoscroll.pointerMoved(to: Point(x: 100, y: y), container: list(), now: ms(0)) == .none)
            #expect(autoscroll.deadline == nil)
        }
        // Vertical only: the left and right edges do nothing.
        #expect(autoscroll.pointerMoved(to: Point(x: 0, y: 200), container: list(), now: ms(0)) == .none)
        #expect(autoscroll.pointerMoved(to: Point(x: 199, y: 200), container: list(), now: ms(0)) == .none)
        #expect(autoscroll.tick(now: ms(1000)) == .none)

        #expect(
            autoscroll.pointerMoved(to: Point(x: 100, y: 350.5), container: list(), now: ms(1000)) == .started("list"))
        #expect(
            autoscroll.pointerMoved(to: Point(x: 100, y: 300), container: list(), now: ms(1100)) == .stopped("list"))
        #expect(autoscroll.deadline == nil)
        #expect(autoscroll.tick(now: ms(1250)) == .none)
    }

    @Test("A1: re-entering the zone restarts the ramp")
    func reentryRestartsRamp() {
        var autoscroll = Autoscroll()
        _ = autoscroll.pointerMoved(to: Point(x: 100, y: 0), container: list(), now: ms(0))
        _ = autoscroll.tick(now: ms(250))
        _ = autoscroll.tick(now: ms(500))
        _ = autoscroll.pointerMoved(to: Point(x: 100, y: 200), container: list(), now: ms(600))
        #expect(autoscroll.pointerMoved(to: Point(x: 100, y: 0), container: list(), now: ms(700)) == .started("list"))
        #expect(autoscroll.tick(now: ms(950)) == .scroll("list", by: Vector(dx: 0, dy: -156.25)))
    }

    @Test("A1: bottom and right edges scroll forwards, corners diagonally")
    func directions() {
        let both = AutoscrollConfiguration(
            edgeZone: 50, maximumSpeed: 1000, rampDuration: .milliseconds(1000), initialRampFactor: 0.5,
            stepInterval: .milliseconds(250), axes: .both, minimumSpeed: 0)
        var autoscroll = Autoscroll()
        #expect(
            autoscroll.pointerMoved(to: Point(x: 175, y: 375), container: list(both), now: ms(0)) == .started("list"))
        #expect(autoscroll.tick(now: ms(250)) == .scroll("list", by: Vector(dx: 39.0625, dy: 39.0625)))
        #expect(autoscroll.pointerMoved(to: Point(x: 0, y: 200), container: list(both), now: ms(300)) == .none)
        #expect(autoscroll.tick(now: ms(500)) == .scroll("list", by: Vector(dx: -187.5, dy: 0)))
    }

    @Test("A1: a late tick scrolls by the elapsed time in one step")
    func lateTick() {
        var autoscroll = Autoscroll()
        _ = autoscroll.pointerMoved(to: Point(x: 100, y: 0), container: list(), now: ms(0))
        // 1 s late: full ramp, 1000 pt/s for 1 s.
        #expect(autoscroll.tick(now: ms(1000)) == .scroll("list", by: Vector(dx: 0, dy: -1000)))
        #expect(autoscroll.deadline == ms(1250))
    }

    @Test("A1: small containers keep a neutral middle third")
    func smallContainer() {
        var autoscroll = Autoscroll()
        let small = ("small", Rect(x: 0, y: 0, width: 200, height: 60), exact)
        #expect(autoscroll.pointerMoved(to: Point(x: 100, y: 25), container: small, now: ms(0)) == .none)
        #expect(autoscroll.pointerMoved(to: Point(x: 100, y: 19), container: small, now: ms(0)) == .started("small"))
    }

    @Test("A1: reset stops an active autoscroll")
    func reset() {
        var autoscroll = Autoscroll()
        #expect(autoscroll.reset() == .none)
        _ = autoscroll.pointerMoved(to: Point(x: 100, y: 0), container: list(), now: ms(0))
        #expect(autoscroll.reset() == .stopped("list"))
        #expect(autoscroll.deadline == nil)
        #expect(autoscroll.reset() == .none)
        #expect(AutoscrollConfiguration().stepInterval == .milliseconds(1000) / 60)
    }

    @Test("A1: steps that scroll nothing come less often; a step that scrolls or another edge restores the pace")
    func idleBackoff() {
        var autoscroll = Autoscroll()
        // At the top edge of a list already at its top: every step scrolls nothing.
        _ = autoscroll.pointerMoved(to: Point(x: 100, y: 0), container: list(), now: ms(0))
        var instants: [Int] = []
        for _ in 0..<7 {
            guard let deadline = autoscroll.deadline, case .scroll = autoscroll.tick(now: deadline) else { break }
            instants.append(Int((deadline.sinceOrigin / .milliseconds(1)).rounded()))
            autoscroll.stepApplied(.zero)
        }
        // One interval (250 ms) apart, then 2, 4, 8 and at most 16 intervals (4 s).
        #expect(instants == [250, 750, 1750, 3750, 7750, 11750, 15750])
        #expect(autoscroll.deadline == ms(19750))
        // The content grew meanwhile: the step covers one interval, not the 4 s waited.
        #expect(autoscroll.tick(now: ms(19750)) == .scroll("list", by: Vector(dx: 0, dy: -250)))
        autoscroll.stepApplied(Vector(dx: 0, dy: -250))
        #expect(autoscroll.deadline == ms(20000))

        // Idle again, then the pointer heads for the other edge: the normal pace at once.
        #expect(autoscroll.tick(now: ms(20000)) != .none)
        autoscroll.stepApplied(.zero)
        #expect(autoscroll.deadline == ms(20500))
        #expect(autoscroll.pointerMoved(to: Point(x: 100, y: 399), container: list(), now: ms(20100)) == .none)
        #expect(autoscroll.deadline == ms(20250))
        // A move within the same edge keeps the slower pace.
        #expect(autoscroll.tick(now: ms(20250)) != .none)
        autoscroll.stepApplied(.zero)
        #expect(autoscroll.deadline == ms(20750))
        #expect(autoscroll.pointerMoved(to: Point(x: 100, y: 390), container: list(), now: ms(20300)) == .none)
        #expect(autoscroll.deadline == ms(20750))
        // Out of the zone and back to the same edge: still the slow pace; to the other edge: normal.
        #expect(
            autoscroll.pointerMoved(to: Point(x: 100, y: 200), container: list(), now: ms(20350)) == .stopped("list"))
        #expect(
            autoscroll.pointerMoved(to: Point(x: 100, y: 390), container: list(), now: ms(20400)) == .started("list"))
        #expect(autoscroll.deadline == ms(20900))
        #expect(
            autoscroll.pointerMoved(to: Point(x: 100, y: 200), container: list(), now: ms(20450)) == .stopped("list"))
        #expect(
            autoscroll.pointerMoved(to: Point(x: 100, y: 10), container: list(), now: ms(20500)) == .started("list"))
        #expect(autoscroll.deadline == ms(20750))
    }
}
