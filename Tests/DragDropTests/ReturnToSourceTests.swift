import DragDrop
import DragDropTesting
import Testing

/// A note list that takes no drops (it is sorted by date) and a view-only folder.
private func notesScene() throws -> DragHarness {
    var window = SceneNode(id: "window", name: "Notes", role: .group, frame: Rect(x: 0, y: 0, width: 600, height: 400))
    var folder = SceneNode(id: "recipes", name: "Family Recipes", role: .dropPoint, frame: Rect(x: 0, y: 0, width: 200, height: 40))
    folder.accepts = ["application/x-note"]
    folder.policy = .forbidden(reason: "Family Recipes is view only.")
    var list = SceneNode(id: "list", name: "Notes", role: .container, frame: Rect(x: 200, y: 0, width: 400, height: 400))
    list.layout = .vertical
    var note = SceneNode(id: "lasagne", name: "Lasagne", role: .item)
    note.offers = ["application/x-note"]
    list.children = [note]
    window.children = [folder, list]
    return try DragHarness(scene: Scene([window]))
}

@Test("F7: a refused drop flies back to a visible source even when its list takes no drops")
func refusedDropReturnsToVisibleSource() throws {
    let h = try notesScene()
    h.press(at: Point(x: 300, y: 20))
    h.move(to: Point(x: 100, y: 20), steps: 4)
    h.release()
    guard case .outcome(let outcome) = h.feedback.last(where: { if case .outcome = $0 { true } else { false } }) else {
        Issue.record("no outcome")
        return
    }
    #expect(outcome == .returnToSource(DropFailure(.forbidden, "Family Recipes is view only.")))
    try h.finish()
}

@Test("F7: Escape sends the content back to a visible source even when its list takes no drops")
func cancelReturnsToVisibleSource() throws {
    let h = try notesScene()
    h.press(at: Point(x: 300, y: 20))
    h.move(to: Point(x: 310, y: 20))
    h.key(.cancel)
    #expect(h.feedback.last { if case .outcome = $0 { true } else { false } }
        == .outcome(.returnToSource(DropFailure(.cancelled, "The drag was cancelled."))))
    h.release()
    try h.finish()
}
