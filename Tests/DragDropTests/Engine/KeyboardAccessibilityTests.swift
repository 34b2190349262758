import DragDrop
import DragDropTesting
import Testing

private typealias F = EngineFixtures

/// Keyboard-only dragging and announcements (C4).
@Suite("Engine: keyboard dragging and announcements")
struct KeyboardAccessibilityTests {
    private let three: [TargetID] = ["beach", "city", "forest"]

    @Test("C4: picking up announces what was picked up and how many drop points there are, in reading order")
    func pickUp() throws {
        let h = try DragHarness(scene: F.photosScene())
        try h.pickUp(three)
        #expect(
            h.feedback == [
                .lifted(items: three, at: .zero, mode: .keyboard),
                .preview(PreviewState(count: 3, badge: .none)),
                .announcement("Picked up 3 photos. 5 drop points; press Tab to choose one."),
            ])
        let points = h.engine.keyboardDropPoints
        #expect(
            points.map(\.target) == ["trips", "library", "family", "shared", "more"],
            "top to bottom, then left to right; hidden albums and the dragged photos are not drop points")
        #expect(points.map(\.name) == ["Trips", "Library", "Family", "Shared Stream", "More Albums"])
        #expect(points.map(\.isDestination) == [true, true, true, true, false])
        #expect(points.map(\.isSpringLoaded) == [false, false, false, false, true])
        h.key(.cancel)
        try h.finish()
    }

    @Test(
        "C4: every step to a drop point is spoken, even to one that takes nothing (a spring-loaded control) right after the pick-up, when the proposal stays 'cannot drop'"
    )
    func everyStepIsSpoken() throws {
        let h = try DragHarness(scene: F.photosScene())
        try h.pickUp(three)
        var mark = h.engineMark
        h.key(.previousDropPoint)
        #expect(h.engineFeedback(since: mark).first == .keyboardFocus("more", index: 4))
        #expect(h.engineAnnouncements(since: mark) == ["Over More Albums, cannot drop here."])
        mark = h.engineMark
        h.key(.previousDropPoint)
        #expect(h.engineAnnouncements(since: mark) == ["Over Shared Stream, will copy."])
        h.key(.cancel)
        try h.finish()
    }

    @Test("C4: next and previous cycle through the drop points in reading order, wrapping at both ends")
    func cycle() throws {
        let h = try DragHarness(scene: F.photosScene())
        try h.pickUp(three)
        func focus(_ key: DragKey) -> TargetID? {
            let mark = h.engineMark
            h.key(key)
            return h.feedback[mark...].lazy.compactMap { if case .keyboardFocus(let t, _) = $0 { t } else { nil } }
                .first
        }
        let forward = (0..<6).map { _ in focus(.nextDropPoint) }
        #expect(forward == ["trips", "library", "family", "shared", "more", "trips"])
        let backward = (0..<3).map { _ in focus(.previousDropPoint) }
        #expect(backward == ["more", "shared", "family"])
        h.key(.cancel)
        try h.finish()

        let fresh = try DragHarness(scene: F.photosScene())
        try fresh.pickUp(three)
        let mark = fresh.engineMark
        fresh.key(.previousDropPoint)
        #expect(
            fresh.engineFeedback(since: mark).first == .keyboardFocus("more", index: 4),
            "previous with nothing focused goes to the last")
        fresh.key(.cancel)
        try fresh.finish()
    }

    @Test("C4: each focus step shows exactly the feedback of that drop point")
    func focusFeedback() throws {
        let h = try DragHarness(scene: F.photosScene())
        try h.pickUp(three)
        var mark = h.engineMark
        h.key(.nextDropPoint)
        #expect(
            h.feedback[mark...] == [
                .keyboardFocus("trips", index: 0),
                .highlight("trips", on: true),
                .proposal(destination: "trips", operation: .copy),
                .preview(PreviewState(count: 3, badge: .copy)),
                .announcement("Over Trips, will copy."),
            ])
        mark = h.engineMark
        h.key(.nextDropPoint)
        #expect(
            h.feedback[mark...] == [
                .keyboardFocus("library", index: 1),
                .highlight("trips", on: false),
                .highlight("library", on: true),
                .proposal(destination: "library", operation: .move),
                .preview(PreviewState(count: 3, badge: .none)),
                .insertion("library", index: 4),
                .announcement("Over Library, will move."),
            ], "keyboard drops into a list land at its end")
        mark = h.engineMark
        h.key(.nextDropPoint)
        #expect(
            h.feedback[mark...] == [
                .keyboardFocus("family", index: 2),
                .insertion("library", index: nil),
                .highlight("library", on: false),
                .highlight("family", on: true),
                .proposal(destination: "family", operation: .copy),
                .preview(PreviewState(count: 3, badge: .copy)),
                .announcement("Over Family, will copy."),
            ])
        h.key(.cancel)
        try h.finish()
    }

    @Test("C4: a full keyboard drag, pick up, choose, drop, is announced step by step")
    func fullDragAnnouncements() throws {
        let h = try DragHarness(scene: F.photosScene())
        try h.pickUp(three)
        h.key(.nextDropPoint)
        h.key(.nextDropPoint)
        #expect(h.key(.previousDropPoint) == .handled)
        let mark = h.engineMark
        #expect(
            h.key(.drop) == .ended(.completed(destination: "trips", operation: .copy)), "the key returns the outcome")
        #expect(
            h.engineFeedback(since: mark) == [
                .dropped(destination: "trips", operation: .copy, index: nil),
                .highlight("trips", on: false),
                .keyboardFocus(nil, index: nil),
                .committed(destination: "trips", items: three, operation: .copy, index: nil),
                .outcome(.completed(destination: "trips", operation: .copy)),
            ])
        #expect(
            h.engineAnnouncements() == [
                "Picked up 3 photos. 5 drop points; press Tab to choose one.",
                "Over Trips, will copy.",
                "Over Library, will move.",
                "Over Trips, will copy.",
                "Copied 3 photos to Trips.",
            ])
        #expect(h.scene.snapshot()["trips"] == ["beach-copy1", "city-copy2", "forest-copy3"])
        #expect(h.scene.snapshot()["library"] == ["beach", "city", "forest", "lake"])
        try h.finish()
    }

    @Test("C4: a keyboard drag is announced from pick-up to drop even when pointer drags are silent")
    func keyboardAlwaysAnnounced() throws {
        var configuration = DragEngine.Configuration()
        configuration.announcePointerDrags = false
        let h = try DragHarness(scene: F.photosScene(), configuration: configuration)
        try h.pickUp(["lake"])
        h.key(.nextDropPoint)
        h.key(.drop)
        #expect(
            h.engineAnnouncements() == [
                "Picked up 'Lake'. 5 drop points; press Tab to choose one.",
                "Over Trips, will copy.",
                "Copied 'Lake' to Trips.",
            ])
        try h.pickUp(["beach"])
        h.key(.cancel)
        #expect(h.engineAnnouncements().last == "Not dropped: The drag was cancelled.")

        let mark = h.engineMark
        h.engineLift(at: F.photoCenter(1))
        h.move(to: Point(x: 100, y: 60))
        h.release()
        #expect(h.engineAnnouncements(since: mark) == [], "pointer drags stay silent as configured")
        try h.finish()
    }

    @Test("C4: Escape cancels a keyboard drag: focus and highlight go off and nothing changes")
    func cancel() throws {
        let h = try DragHarness(scene: F.photosScene())
        let before = h.scene.snapshot()
        try h.pickUp(three)
        h.key(.nextDropPoint)
        let mark = h.engineMark
        #expect(h.key(.cancel).outcome == .returnToSource(DropFailure(.cancelled, "The drag was cancelled.")))
        #expect(h.key(.cancel) == .ignored, "no drag any more")
        #expect(
            h.feedback[mark...] == [
                .highlight("trips", on: false),
                .keyboardFocus(nil, index: nil),
                .outcome(.returnToSource(DropFailure(.cancelled, "The drag was cancelled."))),
                .announcement("Not dropped: The drag was cancelled."),
            ])
        #expect(h.scene.snapshot() == before)
        try h.finish()
    }

    @Test("C4: with the keyboard, Space opens a spring-loaded drop point, and the drop goes into what it revealed")
    func keyboardSpringLoading() throws {
        let h = try DragHarness(scene: F.photosScene())
        try h.pickUp(three)
        for _ in 0..<4 { h.key(.nextDropPoint) }
        var mark = h.engineMark
        h.key(.nextDropPoint)
        #expect(
            h.feedback[mark...] == [
                .keyboardFocus("more", index: 4),
                .highlight("shared", on: false),
                .proposal(destination: nil, operation: .cancel),
                .preview(PreviewState(count: 3, badge: .none)),
                .announcement("Over More Albums, cannot drop here."),
                .springArmed("more"),
            ])

        mark = h.engineMark
        h.key(.activate)
        #expect(
            h.feedback[mark...] == [.springActivated("more", explicit: true), .announcement("Opened More Albums.")])
        #expect(h.scene.isShown("archive"))

        mark = h.engineMark
        h.key(.nextDropPoint)
        #expect(
            h.engineFeedback(since: mark) == [
                .keyboardFocus("archive", index: 5),
                .highlight("archive", on: true),
                .proposal(destination: "archive", operation: .copy),
                .preview(PreviewState(count: 3, badge: .copy)),
            ], "the revealed album is the next drop point")
        #expect(
            h.engine.keyboardDropPoints.map(\.target) == ["trips", "library", "family", "shared", "more", "archive"])

        mark = h.engineMark
        h.key(.drop)
        #expect(
            h.engineFeedback(since: mark) == [
                .dropped(destination: "archive", operation: .copy, index: nil),
                .highlight("archive", on: false),
                .keyboardFocus(nil, index: nil),
                .committed(destination: "archive", items: three, operation: .copy, index: nil),
                .outcome(.completed(destination: "archive", operation: .copy)),
            ])
        #expect(h.scene.snapshot()["archive"] == ["beach-copy1", "city-copy2", "forest-copy3"])
        try h.finish()
    }

    @Test("C4: the pointer does not disturb a keyboard drag")
    func pointerIgnored() throws {
        let h = try DragHarness(scene: F.photosScene())
        try h.pickUp(["beach"])
        h.key(.nextDropPoint)
        let mark = h.engineMark
        h.press(at: Point(x: 100, y: 60))
        h.move(to: Point(x: 120, y: 100))
        h.release()
        #expect(h.feedback[mark...] == [])
        #expect(h.engine.currentSession?.destination == "trips")
        h.key(.drop)
        #expect(h.scene.snapshot()["trips"] == ["beach-copy1"])
        try h.finish()
    }

    @Test("C4: picking up nothing, or something that cannot be dragged, is a typed error and starts nothing")
    func pickUpErrors() throws {
        let h = try DragHarness(scene: F.photosScene())
        #expect(throws: DragError.noItems) { try h.pickUp([]) }
        #expect(throws: DragError.notDraggable("trips")) { try h.pickUp(["beach", "trips"]) }
        #expect(throws: DragError.notDraggable("nowhere")) { try h.pickUp(["nowhere"]) }
        #expect(!h.engine.isDragging)
        #expect(h.feedback == [])
        try h.pickUp(["beach"])
        #expect(throws: DragError.dragInProgress) { try h.pickUp(["city"]) }
        #expect(h.engine.currentSession?.items.map(\.id) == ["beach"])
        h.key(.cancel)
        try h.finish()
    }
}
