import DragDrop
import DragDropTesting
import Testing

private typealias F = EngineFixtures

/// Spring loading: activation after a pause with a flash first (SP1), never the only way (SP2),
/// and at once with an explicit gesture (SP3).
@Suite("Engine: spring loading")
struct SpringLoadingTests {
    /// Calendar (scenario 7): segments `day` (0, 0, 100×40) and `week` (100, 0, 100×40) above two
    /// views sharing one frame (0, 50, 800×550). `dayView` (shown) holds standup and lunch
    /// (row midpoints y 70, 110); `weekView` (hidden) holds review. Each segment is spring-loaded
    /// and shows its view while hiding the other. Events move between views (preferMove).
    private func calendar() throws -> DragHarness {
        func segment(_ id: TargetID, _ name: String, x: Double, shows: TargetID, hides: TargetID) -> SceneNode {
            var s = SceneNode(id: id, name: name, role: .control, frame: Rect(x: x, y: 0, width: 100, height: 40))
            s.springLoading = SpringLoadingConfiguration()
            s.showsOnActivate = [shows]
            s.hidesOnActivate = [hides]
            return s
        }
        func events(_ list: [(TargetID, String)]) -> [SceneNode] {
            list.map { F.item($0.0, $0.1, offers: [F.eventType], kind: F.event) }
        }
        let frame = Rect(x: 0, y: 50, width: 800, height: 550)
        let dayView = F.list(
            "dayView", "Day", frame: frame, accepts: [F.eventType],
            items: events([("standup", "Standup"), ("lunch", "Lunch")]), policy: .preferMove)
        var weekView = F.list(
            "weekView", "Week", frame: frame, accepts: [F.eventType], items: events([("review", "Review")]),
            policy: .preferMove)
        weekView.isHidden = true
        return try DragHarness(
            scene: Scene([
                F.window(
                    "calendar", "Calendar", frame: Rect(x: 0, y: 0, width: 800, height: 600),
                    [
                        segment("day", "Day", x: 0, shows: "dayView", hides: "weekView"),
                        segment("week", "Week", x: 100, shows: "weekView", hides: "dayView"),
                        dayView, weekView,
                    ])
            ]))
    }

    private let overWeek = Point(x: 150, y: 20)

    @Test(
        "SP1, C4: resting on a control that only opens says what holding still does, not \"Not over a drop point.\"; then that it opened"
    )
    func restingOnAControlIsAnnounced() throws {
        let h = try calendar()
        h.engineLift(at: Point(x: 100, y: 70))
        h.advance(by: .seconds(1))
        var mark = h.engineMark
        h.move(to: Point(x: 400, y: 45))  // between the segments and the views: nothing there
        #expect(h.engineAnnouncements(since: mark) == ["Not over a drop point."])
        mark = h.engineMark
        h.move(to: overWeek)
        #expect(h.engineAnnouncements(since: mark) == ["Over Week: hold still to open it."])
        h.advance(by: .milliseconds(700))
        #expect(h.engineAnnouncements(since: mark) == ["Over Week: hold still to open it.", "Opened Week."])
        // Over a list that takes the drop, the usual sentence, once.
        mark = h.engineMark
        h.move(to: Point(x: 100, y: 200))
        #expect(h.engineAnnouncements(since: mark) == ["Over Week, will move."])
    }

    @Test("SP1: a hovered control arms at once, flashes 0.2 s before activating, and activates after 0.7 s")
    func exactInstants() throws {
        let h = try calendar()
        h.engineLift(at: Point(x: 100, y: 70))
        h.advance(by: .seconds(1))
        let armedAt = engineInstant(.seconds(1))

        var mark = h.engineMark
        let entry = h.timeline.count
        h.move(to: overWeek)
        #expect(
            h.engineFeedback(since: mark) == [
                .insertion("dayView", index: nil),
                .proposal(destination: nil, operation: .cancel),
                .springArmed("week"),
            ])

        mark = h.engineMark
        h.advance(by: .milliseconds(499))
        #expect(h.engineFeedback(since: mark) == [])
        h.advance(by: .milliseconds(1))
        #expect(h.engineFeedback(since: mark) == [.springFlash("week")])
        h.advance(by: .milliseconds(199))
        #expect(h.engineFeedback(since: mark) == [.springFlash("week")])
        h.advance(by: .milliseconds(1))
        #expect(h.engineFeedback(since: mark) == [.springFlash("week"), .springActivated("week", explicit: false)])
        #expect(h.engineAnnouncements(since: mark) == ["Opened Week."])

        let timed = h.engineTimedFeedback(sinceEntry: entry)
        #expect(
            timed.map(\.0) == [armedAt, armedAt, armedAt, armedAt + .milliseconds(500), armedAt + .milliseconds(700)])
        #expect(h.scene.isShown("weekView") && !h.scene.isShown("dayView"))

        mark = h.engineMark
        h.advance(by: .seconds(2))
        #expect(h.engineFeedback(since: mark) == [], "an activated control stays quiet while hovered")

        mark = h.engineMark
        h.move(to: Point(x: 400, y: 110))
        #expect(
            h.engineFeedback(since: mark) == [
                .highlight("weekView", on: true),
                .proposal(destination: "weekView", operation: .move),
                .insertion("weekView", index: 1),
            ], "dragging on into the view the control opened")
        h.release()
        #expect(h.scene.snapshot() == ["dayView": ["lunch"], "weekView": ["review", "standup"]])
        try h.finish()
    }

    @Test("SP1: small moves over the control do not restart its timer")
    func movesWithinKeepTimer() throws {
        let h = try calendar()
        h.engineLift(at: Point(x: 100, y: 70))
        let entry = h.timeline.count
        h.move(to: overWeek)
        h.advance(by: .milliseconds(300))
        h.move(to: Point(x: 180, y: 30))
        h.advance(by: .milliseconds(400))
        let springs = h.engineTimedFeedback(sinceEntry: entry).filter {
            switch $0.1 {
            case .springArmed, .springFlash, .springActivated, .springDisarmed: true
            default: false
            }
        }
        #expect(
            springs.map(\.1) == [.springArmed("week"), .springFlash("week"), .springActivated("week", explicit: false)])
        #expect(springs.map(\.0) == [.origin, engineInstant(.milliseconds(500)), engineInstant(.milliseconds(700))])
        h.key(.cancel)
        h.release()
        try h.finish()
    }

    @Test("SP1: leaving the control before the delay disarms it and nothing activates")
    func leavingDisarms() throws {
        let h = try calendar()
        h.engineLift(at: Point(x: 100, y: 70))
        h.move(to: overWeek)
        h.advance(by: .milliseconds(600))
        #expect(h.engineFeedback(since: 0).last == .springFlash("week"))

        var mark = h.engineMark
        h.move(to: Point(x: 400, y: 110))
        #expect(
            h.engineFeedback(since: mark) == [
                .highlight("dayView", on: true),
                .proposal(destination: "dayView", operation: .move),
                .insertion("dayView", index: 2),
                .springDisarmed("week"),
            ])
        mark = h.engineMark
        h.advance(by: .seconds(2))
        #expect(h.engineFeedback(since: mark) == [])
        #expect(!h.feedback.contains { if case .springActivated = $0 { true } else { false } })
        #expect(h.scene.isShown("dayView") && !h.scene.isShown("weekView"))
        h.key(.cancel)
        h.release()
        try h.finish()
    }

    @Test("SP1: a control that activated stays quiet while hovered, and arms again when left and re-entered")
    func rearmsAfterLeaving() throws {
        let h = try calendar()
        h.engineLift(at: Point(x: 100, y: 70))
        h.move(to: overWeek)
        h.advance(by: .seconds(1))
        h.move(to: Point(x: 400, y: 300))
        let entry = h.timeline.count
        h.move(to: overWeek)
        h.advance(by: .seconds(1))
        let springs = h.engineTimedFeedback(sinceEntry: entry).filter {
            switch $0.1 {
            case .springArmed, .springFlash, .springActivated, .springDisarmed: true
            default: false
            }
        }
        let back = engineInstant(.seconds(1))
        #expect(
            springs.map(\.1) == [.springArmed("week"), .springFlash("week"), .springActivated("week", explicit: false)])
        #expect(springs.map(\.0) == [back, back + .milliseconds(500), back + .milliseconds(700)])
        h.key(.cancel)
        h.release()
        try h.finish()
    }

    @Test("SP1: a drop before the delay disarms the control")
    func dropDisarms() throws {
        let h = try calendar()
        h.engineLift(at: Point(x: 100, y: 70))
        h.move(to: overWeek)
        h.advance(by: .milliseconds(300))
        let mark = h.engineMark
        h.release()
        #expect(
            h.engineFeedback(since: mark) == [
                .dropped(destination: nil, operation: .cancel, index: nil),
                .springDisarmed("week"),
                .outcome(.returnToSource(DropFailure(.noDestination, "Nothing here can take 'Standup'."))),
            ])
        #expect(h.scene.isShown("dayView") && !h.scene.isShown("weekView"))
        try h.finish()
    }

    @Test("SP2: a click on a spring-loaded control activates it without any drag")
    func clickActivates() throws {
        let h = try calendar()
        h.press(at: overWeek)
        h.release()
        #expect(h.feedback == [.clicked("week")])
        #expect(h.scene.isShown("weekView") && !h.scene.isShown("dayView"))
        h.press(at: Point(x: 50, y: 20))
        h.release()
        #expect(h.feedback == [.clicked("week"), .clicked("day")])
        #expect(h.scene.isShown("dayView") && !h.scene.isShown("weekView"))
        try h.finish()
    }

    @Test("SP2: a slow tap on a spring-loaded control, held past the lift delay, still activates it")
    func slowTapActivates() throws {
        let h = try calendar()
        h.press(at: overWeek, kind: .touch)
        h.advance(by: .milliseconds(800))
        #expect(h.feedback == [])
        h.release()
        #expect(h.feedback == [.clicked("week")])
        #expect(h.scene.isShown("weekView") && !h.scene.isShown("dayView"))
        try h.finish()
    }

    @Test("SP2: a click that wobbles a few points on a control still activates it; releasing off the control does not")
    func wobblyClick() throws {
        let h = try calendar()
        h.press(at: overWeek)
        h.move(to: Point(x: 155, y: 22))
        h.release()
        #expect(h.feedback == [.clicked("week")])
        #expect(h.scene.isShown("weekView"))

        h.press(at: Point(x: 50, y: 20))
        h.move(to: Point(x: 400, y: 300))
        h.release()
        #expect(h.feedback == [.clicked("week")], "released away from the Day segment: no click")
        #expect(h.scene.isShown("weekView") && !h.scene.isShown("dayView"))
        try h.finish()
    }

    @Test("SP2: Mail's Back button works by click as well as by hovering a dragged message")
    func backButtonBothWays() throws {
        let clicked = try DragHarness(scene: F.mailScene())
        clicked.press(at: Point(x: 50, y: 20))
        clicked.release()
        #expect(clicked.feedback == [.clicked("back")])
        #expect(clicked.scene.isShown("mailboxes") && !clicked.scene.isShown("inbox"))
        try clicked.finish()

        let dragged = try DragHarness(scene: F.mailScene())
        dragged.engineLift(at: Point(x: 100, y: 110))
        dragged.move(to: Point(x: 50, y: 20))
        dragged.advance(by: .milliseconds(700))
        #expect(dragged.scene.isShown("mailboxes") && !dragged.scene.isShown("inbox"))
        let mark = dragged.engineMark
        dragged.move(to: Point(x: 200, y: 70))
        #expect(
            dragged.engineFeedback(since: mark) == [
                .highlight("archiveBox", on: true),
                .proposal(destination: "archiveBox", operation: .copy),
                .preview(PreviewState(count: 1, badge: .copy)),
            ])
        dragged.release()
        #expect(dragged.scene.snapshot()["archiveBox"] == ["invoice-copy1"])
        try dragged.finish()
    }

    @Test("SP3: Space activates the hovered control at once, without a flash")
    func spaceActivatesAtOnce() throws {
        let h = try calendar()
        h.engineLift(at: Point(x: 100, y: 70))
        h.move(to: overWeek)
        h.advance(by: .milliseconds(100))
        let entry = h.timeline.count
        h.key(.activate)
        let timed = h.engineTimedFeedback(sinceEntry: entry)
        #expect(timed.map(\.1) == [.springActivated("week", explicit: true)])
        #expect(timed.map(\.0) == [engineInstant(.milliseconds(100))])
        #expect(h.scene.isShown("weekView"))
        let mark = h.engineMark
        h.advance(by: .seconds(1))
        #expect(h.engineFeedback(since: mark) == [])
        h.key(.cancel)
        h.release()
        try h.finish()
    }

    @Test("SP3: Space opens a hovered folder at once, and the opened folder is the destination under the still pointer")
    func spaceOpensFolder() throws {
        let h = try DragHarness(scene: F.homeScene())
        h.engineLift(at: Point(x: 50, y: 550))
        h.move(to: Point(x: 250, y: 50))
        let mark = h.engineMark
        h.key(.activate)
        #expect(
            h.engineFeedback(since: mark) == [
                .springActivated("utilities", explicit: true),
                .highlight("utilities", on: false),
                .highlight("utilitiesView", on: true),
                .proposal(destination: "utilitiesView", operation: .move),
                .insertion("utilitiesView", index: 0),
            ])
        h.release()
        #expect(h.scene.snapshot()["utilitiesView"] == ["phone"])
        try h.finish()
    }

    @Test("SP3: Space over nothing spring-loaded activates nothing")
    func spaceElsewhere() throws {
        let h = try calendar()
        h.engineLift(at: Point(x: 100, y: 70))
        let mark = h.engineMark
        h.key(.activate)
        #expect(h.feedback[mark...] == [])
        h.key(.cancel)
        h.release()
        try h.finish()
    }
}
