import DragDrop
import DragDropTesting
import Testing

@Test("smoke: move a reminder between lists")
func smoke() throws {
    var window = SceneNode(id: "window", name: "Reminders", role: .group, frame: Rect(x: 0, y: 0, width: 800, height: 600))
    for (i, name) in ["groceries", "work"].enumerated() {
        var list = SceneNode(id: TargetID(name), name: name, role: .container, frame: Rect(x: Double(i) * 400, y: 0, width: 380, height: 600))
        list.accepts = ["application/x-reminder"]
        list.layout = .vertical
        list.policy = .preferMove
        for j in 0..<3 {
            var item = SceneNode(id: TargetID("\(name)-\(j)"), name: "\(name) \(j)", role: .item)
            item.offers = ["application/x-reminder"]
            item.kind = Noun("reminder")
            list.children.append(item)
        }
        window.children.append(list)
    }
    let h = try DragHarness(scene: Scene([window]))
    h.press(at: Point(x: 20, y: 20))
    h.move(to: Point(x: 21, y: 20))
    h.move(to: Point(x: 500, y: 50), steps: 5)
    h.release()
    for line in h.jsonLines { print(line) }
    try h.finish()
    #expect(h.scene.snapshot()["work"] == ["work-0", "groceries-0", "work-1", "work-2"])
    #expect(h.scene.snapshot()["groceries"] == ["groceries-1", "groceries-2"])
    h.undo()
    #expect(h.scene.snapshot()["groceries"] == ["groceries-0", "groceries-1", "groceries-2"])
    #expect(h.scene.snapshot()["work"] == ["work-0", "work-1", "work-2"])
    h.redo()
    #expect(h.scene.snapshot()["work"] == ["work-0", "groceries-0", "work-1", "work-2"])
}
