import DragDrop
import DragDropTesting
import Testing

/// A spring-loaded folder whose activation reveals a destination right under the still pointer.
private func folderScene() throws -> DragHarness {
    var screen = SceneNode(id: "screen", name: "Home Screen", role: .group, frame: Rect(x: 0, y: 0, width: 400, height: 400))
    var grid = SceneNode(id: "grid", name: "Page", role: .container, frame: Rect(x: 0, y: 0, width: 400, height: 400))
    grid.accepts = ["application/x-icon"]
    var app = SceneNode(id: "app", name: "Calculator", role: .item, frame: Rect(x: 10, y: 10, width: 60, height: 60))
    app.offers = ["application/x-icon"]
    var folder = SceneNode(id: "folder", name: "Utilities", role: .item, frame: Rect(x: 200, y: 200, width: 60, height: 60))
    folder.accepts = ["application/x-icon"]
    folder.offers = ["application/x-icon"]
    folder.springLoading = SpringLoadingConfiguration()
    folder.showsOnActivate = ["open"]
    grid.children = [app, folder]
    var open = SceneNode(id: "open", name: "Utilities folder", role: .group, frame: Rect(x: 0, y: 0, width: 400, height: 400))
    open.isHidden = true
    var contents = SceneNode(id: "contents", name: "Utilities", role: .container, frame: Rect(x: 100, y: 100, width: 200, height: 200))
    contents.accepts = ["application/x-icon"]
    contents.policy = .preferMove
    open.children = [contents]
    screen.children = [grid, open]
    return try DragHarness(scene: Scene([screen]))
}

@Test("SP1: a destination revealed under a still pointer by spring loading is proposed at once")
func springRevealResolvesUnderStillPointer() throws {
    let h = try folderScene()
    h.press(at: Point(x: 40, y: 40))
    h.move(to: Point(x: 230, y: 230), steps: 4)
    #expect(h.engine.currentSession?.destination == "folder")
    h.advance(by: .milliseconds(800))  // flash, then activation shows the open folder over the pointer
    #expect(h.feedback.contains(.springActivated("folder", explicit: false)))
    // The pointer has not moved, but what lies under it changed: the open folder's contents.
    #expect(h.engine.currentSession?.destination == "contents")
    #expect(h.engine.currentSession?.highlighted == "contents")
    h.release()
    #expect(h.scene.snapshot()["contents"] == ["app"])
    try h.finish()
}
