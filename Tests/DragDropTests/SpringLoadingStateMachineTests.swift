@testable import DragDrop
import Testing

/// Virtual time: `n` milliseconds after the clock's origin.
private func ms(_ n: Int) -> MonotonicInstant { MonotonicInstant(.milliseconds(n)) }

private typealias Spring = SpringLoadingStateMachine<String>

@Suite("Spring-loading state machine")
struct SpringLoadingStateMachineTests {
    let standard = SpringLoadingConfiguration()

    /// Drains every due deadline the way an owner does, returning the actions in order.
    private func drain(_ spring: inout Spring, now: MonotonicInstant) -> [Spring.Action] {
        var actions: [Spring.Action] = []
        while let deadline = spring.deadline, deadline <= now { actions.append(spring.tick(now: now)) }
        return actions
    }

    @Test("SP1: flash then activation after the delay")
    func flashThenActivate() {
        var spring = Spring()
        #expect(spring.deadline == nil)
        #expect(spring.hover(over: "Folder", configuration: standard, now: ms(1000))
            == Spring.Transition(ended: .none, started: .armed("Folder")))
        #expect(spring.hoveredTarget == "Folder")
        #expect(spring.deadline == ms(1500))
        #expect(spring.tick(now: ms(1499)) == .none)
        #expect(spring.tick(now: ms(1500)) == .flash("Folder"))
        #expect(spring.deadline == ms(1700))
        #expect(spring.tick(now: ms(1600)) == .none)
        #expect(spring.tick(now: ms(1700)) == .activate("Folder", explicit: false))
        #expect(spring.deadline == nil)
        #expect(spring.hasActivated)
        #expect(spring.hoveredTarget == "Folder")
        #expect(spring.tick(now: ms(5000)) == .none)
    }

    @Test("SP1: leaving before the delay cancels")
    func leavingCancels() {
        var spring = Spring()
        _ = spring.hover(over: "A", configuration: standard, now: ms(0))
        #expect(spring.tick(now: ms(500)) == .flash("A"))
        #expect(spring.hover(over: "B", configuration: standard, now: ms(600))
            == Spring.Transition(ended: .disarmed("A"), started: .armed("B")))
        #expect(spring.deadline == ms(1100))
        #expect(spring.hover(over: nil, configuration: standard, now: ms(700))
            == Spring.Transition(ended: .disarmed("B"), started: .none))
        #expect(spring.deadline == nil)
        #expect(spring.hoveredTarget == nil)
        #expect(spring.tick(now: ms(2000)) == .none)
        #expect(spring.hover(over: nil, configuration: standard, now: ms(2100)) == .unchanged)
    }

    @Test("SP1: small moves over the same target do not restart the timer")
    func sameTargetContinues() {
        var spring = Spring()
        _ = spring.hover(over: "A", configuration: standard, now: ms(0))
        #expect(spring.hover(over: "A", configuration: standard, now: ms(300)) == .unchanged)
        #expect(spring.hover(over: "A", configuration: SpringLoadingConfiguration(delay: .milliseconds(5000)), now: ms(400))
            == .unchanged)
        #expect(spring.deadline == ms(500))
    }

    @Test("SP3: Space activates at once")
    func spaceActivates() {
        var spring = Spring()
        #expect(spring.activateNow(now: ms(0)) == .none)  // nothing hovered
        _ = spring.hover(over: "Tab", configuration: standard, now: ms(0))
        #expect(spring.activateNow(now: ms(100)) == .activate("Tab", explicit: true))
        #expect(spring.deadline == nil)
        #expect(spring.tick(now: ms(1000)) == .none)
        #expect(spring.activateNow(now: ms(1100)) == .none)
        #expect(spring.reset() == .none)
    }

    @Test("SP3: Space after the flash still activates at once")
    func spaceAfterFlash() {
        var spring = Spring()
        _ = spring.hover(over: "Tab", configuration: standard, now: ms(0))
        #expect(spring.tick(now: ms(500)) == .flash("Tab"))
        #expect(spring.activateNow(now: ms(550)) == .activate("Tab", explicit: true))
        #expect(spring.tick(now: ms(700)) == .none)
    }

    @Test("SP1: no second activation until the target is left")
    func noSecondActivation() {
        var spring = Spring()
        _ = spring.hover(over: "A", configuration: standard, now: ms(0))
        #expect(drain(&spring, now: ms(700)) == [.flash("A"), .activate("A", explicit: false)])
        #expect(spring.hover(over: "A", configuration: standard, now: ms(2000)) == .unchanged)
        #expect(spring.deadline == nil)
        #expect(spring.activateNow(now: ms(2050)) == .none)
        #expect(spring.hover(over: nil, configuration: standard, now: ms(2100)) == .unchanged)  // already activated: no disarm
        #expect(spring.hover(over: "A", configuration: standard, now: ms(2200))
            == Spring.Transition(ended: .none, started: .armed("A")))
        #expect(spring.deadline == ms(2700))
        #expect(drain(&spring, now: ms(2900)) == [.flash("A"), .activate("A", explicit: false)])
    }

    @Test("SP1: moving from an activated target to another arms it without a disarm")
    func activatedToOther() {
        var spring = Spring()
        _ = spring.hover(over: "A", configuration: standard, now: ms(0))
        _ = spring.activateNow(now: ms(10))
        #expect(spring.hover(over: "B", configuration: standard, now: ms(20))
            == Spring.Transition(ended: .none, started: .armed("B")))
    }

    @Test("SP1: a late tick flashes first, then activates on the next tick")
    func lateTick() {
        var spring = Spring()
        _ = spring.hover(over: "A", configuration: standard, now: ms(0))
        #expect(spring.tick(now: ms(5000)) == .flash("A"))
        #expect(spring.deadline == ms(700))
        #expect(spring.tick(now: ms(5000)) == .activate("A", explicit: false))
        #expect(spring.deadline == nil)
    }

    @Test("SP1: reset disarms an armed target only")
    func reset() {
        var spring = Spring()
        _ = spring.hover(over: "A", configuration: standard, now: ms(0))
        #expect(spring.reset() == .disarmed("A"))
        #expect(spring.hoveredTarget == nil)
        #expect(spring.deadline == nil)
        #expect(spring.reset() == .none)
        _ = spring.hover(over: "A", configuration: standard, now: ms(0))
        _ = spring.activateNow(now: ms(0))
        #expect(spring.reset() == .none)
        #expect(spring.hover(over: "A", configuration: standard, now: ms(10))
            == Spring.Transition(ended: .none, started: .armed("A")))
    }

    @Test("SP1: each target's configuration sets its timing; a lead longer than the delay flashes at once")
    func configuration() {
        var spring = Spring()
        let quick = SpringLoadingConfiguration(delay: .milliseconds(100), flashLead: .milliseconds(300))
        _ = spring.hover(over: "A", configuration: quick, now: ms(1000))
        #expect(spring.deadline == ms(1000))
        #expect(spring.tick(now: ms(1000)) == .flash("A"))
        #expect(spring.deadline == ms(1100))
        #expect(spring.tick(now: ms(1100)) == .activate("A", explicit: false))

        let immediate = SpringLoadingConfiguration(delay: .zero, flashLead: .zero)
        _ = spring.hover(over: "B", configuration: immediate, now: ms(2000))
        #expect(drain(&spring, now: ms(2000)) == [.flash("B"), .activate("B", explicit: false)])
    }
}
