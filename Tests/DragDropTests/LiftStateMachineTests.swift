@testable import DragDrop
import Testing

/// Virtual time: `n` milliseconds after the clock's origin.
private func ms(_ n: Int) -> MonotonicInstant { MonotonicInstant(.milliseconds(n)) }

@Suite("Lift state machine")
struct LiftStateMachineTests {
    @Test("F1: no lift below the 3-point threshold")
    func pointerThreshold() {
        for kind in [PointerKind.mouse, .pen] {
            var lift = LiftStateMachine()
            #expect(lift.press(at: .zero, kind: kind, now: ms(0)) == .none)
            #expect(lift.deadline == nil)
            #expect(lift.move(to: Point(x: 2.99, y: 0), now: ms(10)) == .none)
            #expect(lift.move(to: Point(x: 0, y: -2.99), now: ms(20)) == .none)
            #expect(lift.move(to: Point(x: 2, y: 2), now: ms(30)) == .none)  // 2.83 points away
            #expect(!lift.isLifted)
            #expect(lift.move(to: Point(x: 3, y: 0), now: ms(40)) == .lift(origin: .zero, at: Point(x: 3, y: 0)))
            #expect(lift.isLifted)
            #expect(lift.isPressed)
        }
    }

    @Test("F1: after a lift the machine ignores moves until release")
    func liftedIgnoresMoves() {
        var lift = LiftStateMachine()
        _ = lift.press(at: Point(x: 10, y: 10), kind: .mouse, now: ms(0))
        #expect(lift.move(to: Point(x: 20, y: 10), now: ms(10)) == .lift(origin: Point(x: 10, y: 10), at: Point(x: 20, y: 10)))
        #expect(lift.move(to: Point(x: 40, y: 10), now: ms(20)) == .none)
        #expect(lift.tick(now: ms(5000)) == .none)
        #expect(lift.release(at: Point(x: 40, y: 10), now: ms(30)) == .none)
        #expect(!lift.isPressed)
        #expect(!lift.isLifted)
    }

    @Test("F1: a press released below the threshold is a click")
    func click() {
        var lift = LiftStateMachine()
        _ = lift.press(at: Point(x: 5, y: 5), kind: .mouse, now: ms(0))
        #expect(lift.move(to: Point(x: 6, y: 6), now: ms(50)) == .none)
        #expect(lift.release(at: Point(x: 6, y: 6), now: ms(80)) == .click(at: Point(x: 6, y: 6)))
        #expect(!lift.isPressed)
        #expect(lift.release(at: Point(x: 6, y: 6), now: ms(90)) == .none)
    }

    @Test("F1: touch press-and-hold lifts after the hold")
    func touchHold() {
        var lift = LiftStateMachine()
        #expect(lift.press(at: Point(x: 50, y: 50), kind: .touch, now: ms(100)) == .none)
        #expect(lift.deadline == ms(600))
        #expect(lift.move(to: Point(x: 55, y: 50), now: ms(300)) == .none)  // within the slop
        #expect(lift.deadline == ms(600))
        #expect(lift.tick(now: ms(599)) == .none)
        #expect(lift.tick(now: ms(600)) == .lift(origin: Point(x: 50, y: 50), at: Point(x: 55, y: 50)))
        #expect(lift.deadline == nil)
        #expect(lift.isLifted)
        #expect(lift.move(to: Point(x: 200, y: 50), now: ms(700)) == .none)
        #expect(lift.tick(now: ms(800)) == .none)
        #expect(lift.release(at: Point(x: 200, y: 50), now: ms(900)) == .none)
        #expect(!lift.isPressed)
    }

    @Test("F1: touch that moves before the hold is a scroll")
    func touchScroll() {
        var lift = LiftStateMachine()
        _ = lift.press(at: .zero, kind: .touch, now: ms(0))
        #expect(lift.move(to: Point(x: 10, y: 0), now: ms(100)) == .none)  // exactly the slop
        #expect(lift.move(to: Point(x: 10.5, y: 0), now: ms(200)) == .abandon)
        #expect(lift.deadline == nil)
        #expect(lift.isPressed)
        #expect(lift.move(to: .zero, now: ms(300)) == .none)
        #expect(lift.tick(now: ms(1000)) == .none)
        #expect(lift.release(at: .zero, now: ms(1100)) == .none)  // a scroll, not a tap
        #expect(!lift.isPressed)
    }

    @Test("F1: a touch released before the hold is a tap")
    func tap() {
        var lift = LiftStateMachine()
        _ = lift.press(at: Point(x: 1, y: 2), kind: .touch, now: ms(0))
        #expect(lift.release(at: Point(x: 1, y: 2), now: ms(200)) == .click(at: Point(x: 1, y: 2)))
        #expect(lift.deadline == nil)
        #expect(lift.tick(now: ms(500)) == .none)
    }

    @Test("F1: touch ignores the pointer threshold, pointers ignore the hold")
    func kindsDoNotMix() {
        var lift = LiftStateMachine()
        _ = lift.press(at: .zero, kind: .touch, now: ms(0))
        #expect(lift.move(to: Point(x: 5, y: 0), now: ms(10)) == .none)
        _ = lift.press(at: .zero, kind: .mouse, now: ms(20))  // a new press starts over
        #expect(lift.deadline == nil)
        #expect(lift.tick(now: ms(5000)) == .none)
        #expect(!lift.isLifted)
    }

    @Test("F1: only tick acts on the hold deadline")
    func lateEventsDoNotLift() {
        var lift = LiftStateMachine()
        _ = lift.press(at: .zero, kind: .touch, now: ms(0))
        #expect(lift.move(to: Point(x: 1, y: 0), now: ms(800)) == .none)
        #expect(lift.tick(now: ms(800)) == .lift(origin: .zero, at: Point(x: 1, y: 0)))
    }

    @Test("F1: configuration and reset")
    func configurationAndReset() {
        var lift = LiftStateMachine(
            configuration: LiftConfiguration(pointerThreshold: 5, touchHoldDuration: .milliseconds(300), touchSlop: 2))
        _ = lift.press(at: .zero, kind: .pen, now: ms(0))
        #expect(lift.move(to: Point(x: 4, y: 0), now: ms(10)) == .none)
        lift.reset()
        #expect(!lift.isPressed)
        #expect(lift.move(to: Point(x: 9, y: 0), now: ms(20)) == .none)
        _ = lift.press(at: .zero, kind: .touch, now: ms(100))
        #expect(lift.deadline == ms(400))
        #expect(lift.move(to: Point(x: 0, y: 2.5), now: ms(200)) == .abandon)
        #expect(LiftConfiguration() == LiftConfiguration(pointerThreshold: 3, touchHoldDuration: .milliseconds(500), touchSlop: 10))
    }
}
