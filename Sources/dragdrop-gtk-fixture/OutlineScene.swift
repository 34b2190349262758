import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol

// `--scene outline`: mailboxes in a DragOutlineView over an OutlineStore (issue 23):
// Inbox; Work ▸ (Projects ▸ (2026 ▸ Q1, closed), Budget), Notes; Archive (empty); Sent.
// Work and Projects are open. No identifiers: the outline registers itself once placed.
//
//   {"kind":"state","lists":{"mailboxes":["Inbox","Work","  Projects",…],"open":["Projects","Work"]}}
//       every mailbox under its parent (two spaces a level, open or not), and the open ones
//   {"kind":"layout","frames":{"mailboxes":…,"mailboxes/Inbox":…,…}}   the rows on screen
//   {"kind":"feedback","event":"outlineDrop","place":"between","parent":…,"index":…,"depth":…}
//       where a drop would land (the engine's feedback, as every scene prints it)
@MainActor
final class OutlineScene: FixtureScene {
    let arguments: [String]
    var scene: SceneWindow?
    var outline: DragOutlineView?
    var store: OutlineStore?
    let printer = ChangedLineWriter()
    let layoutPrinter = ChangedLineWriter()
    var announcedReady = false

    init(arguments: [String]) { self.arguments = arguments }

    /// `--big`: 1,000 mailboxes of 99 each (100,000 items), every one open.
    static func big() -> OutlineTree {
        var tree = OutlineTree()
        for m in 0..<1_000 {
            let box = TargetID("m\(m)")
            try? tree.append(box, name: "Mailbox \(m)", canHoldChildren: true)
            for c in 0..<99 { try? tree.append(TargetID("m\(m)-\(c)"), name: "Box \(m).\(c)", under: box) }
        }
        tree.expanded = Set(tree.containers)
        return tree
    }

    /// The mailboxes of the scene's comment.
    static func mailboxes() -> OutlineTree {
        var tree = OutlineTree()
        let rows: [(TargetID, String, TargetID?, Bool)] = [
            ("inbox", "Inbox", nil, true), ("work", "Work", nil, true), ("projects", "Projects", "work", true),
            ("2026", "2026", "projects", true), ("q1", "Q1", "2026", false), ("budget", "Budget", "projects", false),
            ("notes", "Notes", "work", false), ("archive", "Archive", nil, true), ("sent", "Sent", nil, false),
        ]
        for (id, name, parent, holds) in rows {
            try? tree.append(id, name: name, under: parent, canHoldChildren: holds)
        }
        tree.expanded = ["work", "projects"]
        return tree
    }

    func activate(_ app: UnsafeMutablePointer<GtkApplication>) {
        guard let scene = SceneWindow(app: app, arguments: arguments) else { return }
        self.scene = scene
        let host = scene.host
        let big = arguments.contains("--big")
        let store = OutlineStore(tree: big ? Self.big() : Self.mailboxes())
        self.store = store
        let outline = DragOutlineView(
            title: "Mailboxes", host: host, itemType: "application/x-fixture-mailbox", kind: Noun("mailbox"))
        outline.dataSource = store
        self.outline = outline
        outline.onSelectionChanged = { [weak self] in self?.printState() }
        store.onChange = { [weak self] in
            self?.printState()
            // Rows that come or go register after GTK binds them (during a drag no frame
            // change is reported): the layout is printed again once they did.
            GLibSource.once(afterMilliseconds: 100) { [weak self] in self?.printLayout() }
        }
        let box = SceneWindow.paddedBox(GTK_ORIENTATION_VERTICAL, spacing: 6)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), outline.widget)
        let status = GtkAnnouncementLabel()
        gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), status.widget)
        host.addAnnouncementLabel(status)
        gtk_window_set_child(dd_window(scene.window), box)
        host.onFramesChanged = { [weak self] in self?.printLayout() }
        scene.present(app) { () throws(GtkDragHostError) in }
        printState()
    }

    func printState() {
        guard let tree = store?.outline else { return }
        if tree.count > 1_000 {
            // `--big`: Mailbox 0's children and how many items and rows with a widget there are.
            var state = StateLine()
            state.lists = [
                "mailbox 0": tree.children(of: "m0").map { tree.name(of: $0) },
                "mailbox 1": tree.children(of: "m1").map { tree.name(of: $0) },
            ]
            state.selected = ["mailboxes": outline?.selection.map { tree.name(of: $0) } ?? []]
            printer.write(state)
            LineWriter.write(
                GtkLine(message: "items \(tree.count) widgets \(outline?.collection.boundItems.count ?? 0)"))
            return
        }
        func walk(_ parent: TargetID?, _ indent: String) -> [String] {
            tree.children(of: parent).flatMap { [indent + tree.name(of: $0)] + walk($0, indent + "  ") }
        }
        var state = StateLine()
        state.lists = ["mailboxes": walk(nil, ""), "open": tree.expanded.map { tree.name(of: $0) }.sorted()]
        state.selected = ["mailboxes": outline?.selection.map { tree.name(of: $0) } ?? []]
        printer.write(state)
    }

    func printLayout() {
        guard let host = scene?.host, let outline, let tree = store?.outline else { return }
        var frames: [(String, Frame)] = []
        if let frame = host.frameInWindow(of: outline.id) { frames.append(("mailboxes", Frame(frame))) }
        var rows = 0
        var missing = false
        // The rows with a widget (a screenful) of `--big`, not all 100,000.
        let candidates = tree.count <= 1_000 ? tree.rows().map(\.id) : outline.collection.boundItems.map(\.id)
        for id in candidates {
            guard let frame = host.frameInWindow(of: id), frame.height > 0 else {
                // Rows register in an idle after GTK binds them, with their frame, and no frame
                // changes then: asked again until every row that shows is there.
                missing = true
                continue
            }
            frames.append(("mailboxes/" + tree.name(of: id), Frame(frame)))
            rows += 1
        }
        layoutPrinter.write(LayoutLine(frames: frames))
        if missing { GLibSource.once(afterMilliseconds: 50) { [weak self] in self?.printLayout() } }
        if rows > 0, !announcedReady {
            announcedReady = true
            LineWriter.write(ReadyLine())
        }
    }
}
