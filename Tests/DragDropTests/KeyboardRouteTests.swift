@testable import DragDrop
import Testing

/// ``KeyboardRoute`` on its own: drop points in reading order, and a folder list whose model
/// has more folders than are on screen (C4).
@Suite("Keyboard route: where Tab and Shift+Tab go")
struct KeyboardRouteTests {
    /// Drop points: `inbox`, then the list `folders` with its on-screen folders `f1`, `f2`, then
    /// `trash`. The list's model holds `f1` to `f4`; `f3` is dragged, `f4` is off screen.
    private func route(dragged: Set<TargetID> = ["f3"]) -> KeyboardRoute {
        let points: [KeyboardDropPoint] = ["inbox", "folders", "f1", "f2", "trash"].map {
            KeyboardDropPoint(target: $0, name: $0.rawValue, isDestination: true, isSpringLoaded: false)
        }
        let model: [TargetID] = ["f1", "f2", "f3", "f4"]
        let registered: Set<TargetID> = ["inbox", "folders", "f1", "f2", "f3", "trash"]
        return KeyboardRoute(
            points: points,
            parent: { ["f1", "f2", "f3", "f4"].contains($0) ? "folders" : nil },
            modelPoint: { container, after, forward in
                guard container == "folders" else { return nil }
                let order = forward ? model : model.reversed()
                guard let after else { return order.first }
                guard let i = order.firstIndex(of: after), i + 1 < order.count else { return nil }
                return order[i + 1]
            },
            onItsWay: { !dragged.contains($0) && !registered.contains($0) })
    }

    @Test("C4: Tab goes through the list's folders in the model's order, passing the dragged one, to one off screen")
    func forwardThroughAModel() {
        var r = route()
        #expect(r.next(from: nil, revealing: nil, forward: true) == .focus(0))  // inbox
        #expect(r.next(from: 0, revealing: nil, forward: true) == .focus(1))  // folders
        #expect(r.next(from: 1, revealing: nil, forward: true) == .reveal(.init(container: "folders", item: "f1", forward: true)))
        #expect(r.next(from: 2, revealing: nil, forward: true) == .reveal(.init(container: "folders", item: "f2", forward: true)))
        // From f2: f3 is dragged, f4 is not on screen yet: brought there.
        #expect(r.next(from: 3, revealing: nil, forward: true) == .reveal(.init(container: "folders", item: "f4", forward: true)))
        // On from f4 while it is still on its way: past the model, to trash.
        let f4 = KeyboardNavigation.Reveal(container: "folders", item: "f4", forward: true)
        #expect(r.next(from: nil, revealing: f4, forward: true) == .focus(4))
    }

    @Test("C4: Shift+Tab onto the list comes to its model's last folder first, and leaves the model for the list")
    func backwardIntoAModel() {
        var r = route()
        #expect(r.next(from: 4, revealing: nil, forward: false) == .reveal(.init(container: "folders", item: "f4", forward: false)))
        #expect(r.next(from: 2, revealing: nil, forward: false) == .focus(1))
    }

    @Test("C4: the count said at the pick-up counts the model's folders on screen or not, never the dragged one")
    func reachableCount() {
        var r = route()
        // inbox, the list, trash, and of the list's model f1, f2 and f4 (f3 is dragged).
        #expect(r.reachableCount() == 6)
    }

    @Test("C4: with no drop point at all the route says so")
    func nothing() {
        var r = KeyboardRoute(points: [], parent: { _ in nil }, modelPoint: { _, _, _ in nil }, onItsWay: { _ in false })
        #expect(r.next(from: nil, revealing: nil, forward: true) == .none)
        #expect(r.reachableCount() == 0)
    }
}
