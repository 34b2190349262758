import DragDrop
import DragDropTesting
import Testing

private typealias F = EngineFixtures

/// Edge autoscroll of a scrolling destination (A1).
@Suite("Engine: autoscroll")
struct AutoscrollTests {
    /// Mail (scenario 6): a long `draft` (0, 0, 400×400 visible, 2000 points of content) holding
    /// 50 paragraphs p0...p49 of 40 points, scrolling with the default configuration (48-point
    /// edge zones, a step every 1/60 s); right of it, `clippings` (500, 0, 300×600) holding `clip`.
    private func longDraft() throws -> DragHarness {
        var draft = F.list(
            "draft", "Draft", frame: Rect(x: 0, y: 0, width: 400, height: 400), accepts: [.plainText],
            items: (0..<50).map {
                F.item(TargetID("p\($0)"), "Paragraph \($0)", offers: [.plainText], kind: F.paragraph)
            })
        draft.contentHeight = 2000
        draft.autoscroll = AutoscrollConfiguration()
        let clippings = F.list(
            "clippings", "Clippings", frame: Rect(x: 500, y: 0, width: 300, height: 600), accepts: [.plainText],
            items: [F.item("clip", "Clip", offers: [.plainText], kind: F.paragraph)])
        return try DragHarness(
            scene: Scene([
                F.window("mail", "Mail", frame: Rect(x: 0, y: 0, width: 800, height: 600), [draft, clippings])
            ]))
    }

    private let configuration = AutoscrollConfiguration()
    private var interval: Duration { configuration.stepInterval }

    /// The autoscroll steps recorded since timeline entry `entry`, with their instants.
    private func steps(_ h: DragHarness, sinceEntry entry: Int = 0) -> [(MonotonicInstant, Double)] {
        h.engineTimedFeedback(sinceEntry: entry).compactMap { time, event in
            if case .autoscrolled(let t, let by) = event, t == "draft" {
                #expect(by.dx == 0)
                return (time, by.dy)
            }
            return nil
        }
    }

    /// The step the documented speed formula gives `k` steps after entering, `distance` points
    /// from the edge.
    private func expectedStep(_ k: Int, distanceFromEdge distance: Double) -> Double {
        let fraction = 1 - distance / configuration.edgeZone
        return configuration.speed(depthFraction: fraction, timeInZone: interval * k) * interval.seconds
    }

    @Test("A1: near the bottom edge the draft scrolls down every 1/60 s, ramping up with time")
    func stepsRampUp() throws {
        let h = try longDraft()
        h.engineLift(at: Point(x: 650, y: 20))
        var mark = h.engineMark
        h.move(to: Point(x: 200, y: 390))
        #expect(
            h.engineFeedback(since: mark) == [
                .insertion("clippings", index: nil),
                .highlight("draft", on: true),
                .proposal(destination: "draft", operation: .copy),
                .preview(PreviewState(count: 1, badge: .copy)),
                .insertion("draft", index: 10),
                .autoscrollStarted("draft"),
            ])
        #expect(h.engine.nextDeadline == .origin + interval)

        let entry = h.timeline.count
        mark = h.engineMark
        h.advance(by: .milliseconds(500))
        let recorded = steps(h, sinceEntry: entry)
        #expect(recorded.count == 30)
        for (k, step) in recorded.enumerated() {
            #expect(step.0 == .origin + interval * (k + 1), "step \(k + 1) at its instant")
            #expect(abs(step.1 - expectedStep(k + 1, distanceFromEdge: 10)) < 1e-9, "step \(k + 1) size")
        }
        #expect(
            zip(recorded, recorded.dropFirst()).allSatisfy { $0.1 < $1.1 }, "the speed ramps up while the drag stays")
        let scrolled = recorded.map(\.1).reduce(0, +)
        #expect(abs((h.scene.scrollOffsets["draft"] ?? 0) - scrolled) < 1e-9)
        // Rows pass under the still pointer: the insertion index follows them.
        let expectedIndex = Int(((390 + scrolled - 20) / 40).rounded(.down)) + 1
        #expect(h.engine.currentSession?.insertionIndex == expectedIndex)
        #expect(
            h.engineFeedback(since: mark).allSatisfy {
                switch $0 {
                case .autoscrolled, .insertion: true
                default: false
                }
            })
        h.key(.cancel)
        h.release()
        try h.finish()
    }

    @Test("A1: it scrolls faster nearer the edge")
    func fasterNearerTheEdge() throws {
        func firstSteps(atDistance distance: Double) throws -> [Double] {
            let h = try longDraft()
            h.engineLift(at: Point(x: 650, y: 20))
            h.move(to: Point(x: 200, y: 400 - distance))
            h.advance(by: .milliseconds(100))
            let result = steps(h).map(\.1)
            h.key(.cancel)
            h.release()
            try h.finish()
            return result
        }
        let near = try firstSteps(atDistance: 2)
        let middle = try firstSteps(atDistance: 20)
        let far = try firstSteps(atDistance: 45)
        #expect(near.count == 6 && middle.count == 6 && far.count == 6)
        for k in 0..<6 {
            #expect(near[k] > middle[k] && middle[k] > far[k] && far[k] > 0, "step \(k + 1)")
        }
        #expect(abs(far[0] - expectedStep(1, distanceFromEdge: 45)) < 1e-9)
    }

    @Test("A1: scrolling stops at once when the drag leaves the edge zone or the container")
    func stopsWhenLeaving() throws {
        let h = try longDraft()
        h.engineLift(at: Point(x: 650, y: 20))
        h.move(to: Point(x: 200, y: 390))
        h.advance(by: .milliseconds(200))
        var mark = h.engineMark
        h.move(to: Point(x: 200, y: 200))
        let middle = h.engineFeedback(since: mark)
        #expect(middle.last == .autoscrollStopped("draft"))
        #expect(middle.filter { if case .autoscrolled = $0 { true } else { false } } == [])
        let offset = h.scene.scrollOffsets["draft"]
        mark = h.engineMark
        h.advance(by: .seconds(1))
        #expect(h.engineFeedback(since: mark) == [])
        #expect(h.scene.scrollOffsets["draft"] == offset)
        #expect(h.engine.nextDeadline == nil)

        h.move(to: Point(x: 200, y: 395))
        h.advance(by: .milliseconds(100))
        mark = h.engineMark
        h.move(to: Point(x: 650, y: 300))
        let left = h.engineFeedback(since: mark)
        #expect(left.last == .autoscrollStopped("draft"))
        #expect(left.contains(.highlight("draft", on: false)))
        mark = h.engineMark
        h.advance(by: .seconds(1))
        #expect(h.engineFeedback(since: mark) == [])
        h.key(.cancel)
        h.release()
        try h.finish()
    }

    @Test("A1: scrolling stops at the end of the content: no steps once the end is reached")
    func clampedAtTheEnd() throws {
        let h = try longDraft()
        h.engineLift(at: Point(x: 650, y: 20))
        h.move(to: Point(x: 200, y: 399))
        h.advance(by: .seconds(5))
        let recorded = steps(h)
        #expect(h.scene.scrollOffsets["draft"] == 1600)
        #expect(abs(recorded.map(\.1).reduce(0, +) - 1600) < 1e-9)
        #expect(recorded.allSatisfy { $0.1 > 0 })
        let last = try #require(recorded.last)
        #expect(last.0 < engineInstant(.seconds(3)), "the end is reached well before 5 s at the edge")
        let count = recorded.count
        h.advance(by: .seconds(1))
        #expect(steps(h).count == count)
        #expect(h.engine.currentSession?.insertionIndex == 50)
        h.release()
        #expect(h.scene.snapshot()["draft"]?.last == "clip-copy1")
        try h.finish()
    }

    @Test("A1: nothing scrolls up at the top of the content")
    func clampedAtTheStart() throws {
        let h = try longDraft()
        h.engineLift(at: Point(x: 650, y: 20))
        h.move(to: Point(x: 200, y: 5))
        #expect(h.engineFeedback(since: 0).last == .autoscrollStarted("draft"))
        h.advance(by: .seconds(1))
        #expect(steps(h).isEmpty)
        #expect(h.scene.scrollOffsets["draft"] == 0)
        h.key(.cancel)
        h.release()
        try h.finish()
    }

    @Test(
        "A1: resting at the top with nothing to scroll, the engine asks to be woken ever less often; the bottom edge scrolls at once"
    )
    func idleAtTheTop() throws {
        let h = try longDraft()
        h.engineLift(at: Point(x: 650, y: 20))
        h.move(to: Point(x: 200, y: 5))
        /// How many times the engine had to be woken over `duration`.
        func wakeups(over duration: Duration) -> Int {
            let end = h.clock.now + duration
            var count = 0
            while let deadline = h.engine.nextDeadline, deadline <= end {
                h.advance(to: deadline)
                count += 1
            }
            h.advance(to: end)
            return count
        }
        // 1/60 s steps would wake it 120 times in 2 s; doubling up to 16 steps apart, about 12.
        let idle = wakeups(over: .seconds(2))
        #expect(idle <= 14, "woken \(idle) times in 2 s with nothing to scroll")
        #expect(steps(h).isEmpty)
        // Towards the bottom: the first step within one interval, then every interval.
        let entry = h.timeline.count
        let moved = h.clock.now
        h.move(to: Point(x: 200, y: 395))
        h.advance(by: .milliseconds(500))
        let recorded = steps(h, sinceEntry: entry)
        let first = try #require(recorded.first)
        #expect(first.0 - moved <= interval)
        #expect(recorded.count >= 28, "\(recorded.count) steps in 0.5 s")
        #expect(recorded.allSatisfy { $0.1 > 0 })
        h.key(.cancel)
        h.release()
        try h.finish()
    }

    @Test("A1: items scroll with the content, and the drop lands at the index under the pointer after scrolling")
    func dropAfterScrolling() throws {
        let h = try longDraft()
        h.engineLift(at: Point(x: 650, y: 20))
        h.move(to: Point(x: 200, y: 380))
        h.advance(by: .milliseconds(700))
        h.move(to: Point(x: 200, y: 200))
        let offset = try #require(h.scene.scrollOffsets["draft"])
        #expect(offset > 100 && offset < 1600)
        // The registered frames moved step by step with the content.
        for (id, top) in [("p0", 0.0), ("p20", 800.0), ("p49", 1960.0)] {
            let frame = try #require(h.engine.registry.target(TargetID(id))?.frame)
            #expect(abs(frame.minY - (top - offset)) < 1e-9, "\(id)")
            #expect(frame.minX == 0 && frame.size == Size(width: 400, height: 40), "\(id)")
        }

        let index = Int(((200 + offset - 20) / 40).rounded(.down)) + 1
        #expect(h.engine.currentSession?.insertionIndex == index)
        let mark = h.engineMark
        h.release()
        #expect(
            h.engineFeedback(since: mark) == [
                .dropped(destination: "draft", operation: .copy, index: index),
                .highlight("draft", on: false),
                .insertion("draft", index: nil),
                .committed(destination: "draft", items: ["clip"], operation: .copy, index: index),
                .outcome(.completed(destination: "draft", operation: .copy)),
            ])
        var expected = (0..<50).map { TargetID("p\($0)") }
        expected.insert("clip-copy1", at: index)
        #expect(h.scene.snapshot()["draft"] == expected)
        try h.finish()
    }

    @Test(
        "A1: moving straight from one scrolling pane's edge into another's stops the first and starts the second at once"
    )
    func switchingContainers() throws {
        func pane(_ id: TargetID, x: Double) -> SceneNode {
            var p = F.list(
                id, "Pane \(id)", frame: Rect(x: x, y: 0, width: 200, height: 400), accepts: [.plainText],
                items: (0..<30).map {
                    F.item(TargetID("\(id)\($0)"), "Line \($0)", offers: [.plainText], kind: F.paragraph)
                })
            p.contentHeight = 1200
            p.autoscroll = AutoscrollConfiguration()
            return p
        }
        let h = try DragHarness(
            scene: Scene([
                F.window(
                    "w", "Window", frame: Rect(x: 0, y: 0, width: 400, height: 400),
                    [pane("left", x: 0), pane("right", x: 200)])
            ]))
        h.engineLift(at: Point(x: 100, y: 200))
        h.move(to: Point(x: 100, y: 390))
        h.advance(by: .milliseconds(50))
        let entry = h.timeline.count
        let mark = h.engineMark
        h.move(to: Point(x: 300, y: 390))
        let switched = h.engineFeedback(since: mark)
        #expect(switched.contains(.highlight("right", on: true)))
        let scrolls = switched.filter {
            switch $0 {
            case .autoscrollStarted, .autoscrollStopped, .autoscrolled: true
            default: false
            }
        }
        #expect(scrolls == [.autoscrollStopped("left"), .autoscrollStarted("right")])
        let switchedAt = h.clock.now
        h.advance(by: interval)
        let first = h.engineTimedFeedback(sinceEntry: entry).filter {
            if case .autoscrolled = $0.1 { true } else { false }
        }
        #expect(first.map(\.0) == [switchedAt + interval])
        #expect(first.allSatisfy { if case .autoscrolled("right", _) = $0.1 { true } else { false } })
        h.key(.cancel)
        h.release()
        try h.finish()
    }

    @Test("A1: a drop while scrolling stops the scrolling with the drop")
    func dropStopsScrolling() throws {
        let h = try longDraft()
        h.engineLift(at: Point(x: 650, y: 20))
        h.move(to: Point(x: 200, y: 390))
        h.advance(by: .milliseconds(100))
        let index = try #require(h.engine.currentSession?.insertionIndex)
        let mark = h.engineMark
        h.release()
        #expect(
            h.engineFeedback(since: mark) == [
                .dropped(destination: "draft", operation: .copy, index: index),
                .highlight("draft", on: false),
                .insertion("draft", index: nil),
                .autoscrollStopped("draft"),
                .committed(destination: "draft", items: ["clip"], operation: .copy, index: index),
                .outcome(.completed(destination: "draft", operation: .copy)),
            ])
        try h.finish()
    }
}
