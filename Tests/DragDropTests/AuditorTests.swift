import DragDrop
import DragDropTesting
import Testing

// The TimelineAuditor, tested both ways: real drags driven through DragHarness must audit clean,
// and deliberately wrong timelines fed to it by hand must be caught under the right rule.

/// Scenes shared by the auditor tests.
enum AuditFixtures {
    static let reminder: ContentType = "application/x-reminder"
    static let photo: ContentType = "image/jpeg"

    /// A reminders window:
    ///
    /// ```
    /// tab-archive  groceries (g0…g4)   work (w0, w1, folder)   trash (forbidden)
    /// [0,0,90,40]  [100,0,300,400]     [420,0,300,400]         [740,0,200,100]
    ///              long (l0…l29, scrolls, autoscroll)           archive (hidden until the tab springs)
    ///              [100,420,300,200]                            [740,120,200,200]
    /// ```
    ///
    /// Rows are 40 points high. Lists prefer moves (S2: reminders dragged between lists move);
    /// the folder and the archive use the default rules; the trash refuses drops.
    static func reminders() throws -> Scene { try reminders(readOnly: []) }

    /// The reminders window with the grocery rows in `readOnly` unable to leave their list
    /// (``SceneNode/isMovable`` false: they drag out as copies).
    static func remindersReadOnly() throws -> Scene { try reminders(readOnly: ["g0"]) }

    static func reminders(readOnly: Set<TargetID>) throws -> Scene {
        var window = SceneNode(
            id: "window", name: "Reminders", role: .group, frame: Rect(x: 0, y: 0, width: 1000, height: 700))
        var tab = SceneNode(
            id: "tab-archive", name: "Archive", role: .control, frame: Rect(x: 0, y: 0, width: 90, height: 40))
        tab.springLoading = SpringLoadingConfiguration()
        tab.showsOnActivate = ["archive"]
        window.children.append(tab)

        var groceries = list("groceries", x: 100, count: 5)
        for i in groceries.children.indices where readOnly.contains(groceries.children[i].id) {
            groceries.children[i].isMovable = false
        }
        window.children.append(groceries)
        var work = list("work", x: 420, count: 2)
        var folder = item("work-folder")
        folder.accepts = [reminder]
        folder.kind = Noun("list")
        work.children.append(folder)
        window.children.append(work)

        var trash = SceneNode(
            id: "trash", name: "Trash", role: .dropPoint, frame: Rect(x: 740, y: 0, width: 200, height: 100))
        trash.accepts = [reminder]
        trash.policy = .forbidden(reason: "The trash is locked.")
        window.children.append(trash)

        var archive = SceneNode(
            id: "archive", name: "Archive", role: .container, frame: Rect(x: 740, y: 120, width: 200, height: 200))
        archive.accepts = [reminder]
        archive.layout = .vertical
        archive.isHidden = true
        window.children.append(archive)

        var long = list("long", x: 100, count: 30, prefix: "l")
        long.frame = Rect(x: 100, y: 420, width: 300, height: 200)
        long.contentHeight = 1200
        long.autoscroll = AutoscrollConfiguration()
        window.children.append(long)
        return try Scene([window])
    }

    /// The reminders window plus: a folder in the long list (row 3), an "Outbox" that asks for
    /// confirmation, a "Sync" drop point whose drops fail, a "Shared" list offering "Stop
    /// Sharing", and a "Hide Groceries" tab that springs to hide the groceries list.
    static func remindersPlus() throws -> Scene {
        var scene = try reminders().roots
        var window = scene[0]
        if let i = window.children.firstIndex(where: { $0.id == "long" }) {
            var folder = item("long-folder")
            folder.accepts = [reminder]
            window.children[i].children.insert(folder, at: 3)
        }
        var outbox = SceneNode(
            id: "outbox", name: "Outbox", role: .dropPoint, frame: Rect(x: 420, y: 420, width: 140, height: 100))
        outbox.accepts = [reminder]
        outbox.confirmation = "Sent reminders cannot be unsent."
        var sync = SceneNode(
            id: "sync", name: "Sync", role: .dropPoint, frame: Rect(x: 580, y: 420, width: 140, height: 100))
        sync.accepts = [reminder]
        sync.failure = "The server did not answer."
        var shared = SceneNode(
            id: "shared", name: "Shared", role: .container, frame: Rect(x: 420, y: 540, width: 300, height: 100))
        shared.accepts = [reminder]
        shared.layout = .vertical
        shared.cancellationTitle = "Stop Sharing"
        var hide = SceneNode(
            id: "tab-hide", name: "Hide Groceries", role: .control, frame: Rect(x: 0, y: 60, width: 90, height: 40))
        hide.springLoading = SpringLoadingConfiguration(delay: .milliseconds(300), flashLead: .milliseconds(100))
        hide.hidesOnActivate = ["groceries"]
        window.children += [outbox, sync, shared, hide]
        scene[0] = window
        return try Scene(scene)
    }

    /// The reminders window where the folder in 'work' springs open in place: 'work' hides and
    /// the folder's own list, 'folder-view', appears in the same frame.
    static func springFolder() throws -> Scene {
        var scene = try reminders().roots
        var window = scene[0]
        guard let w = window.children.firstIndex(where: { $0.id == "work" }),
            let f = window.children[w].children.firstIndex(where: { $0.id == "work-folder" })
        else { return try Scene(scene) }
        window.children[w].children[f].springLoading = SpringLoadingConfiguration()
        window.children[w].children[f].showsOnActivate = ["folder-view"]
        window.children[w].children[f].hidesOnActivate = ["work"]
        var view = list("folder-view", x: 420, count: 1, prefix: "fv")
        view.isHidden = true
        window.children.append(view)
        scene[0] = window
        return try Scene(scene)
    }

    /// Reminders and notes side by side, with drop points that take one, the other, or both:
    /// 'plain' takes text/plain (notes are text/html, a kind of text/plain), 'any' takes
    /// everything, 'images' takes image/*. Below, two scroll lists touch edge to edge.
    static func mixed() throws -> Scene {
        var window = SceneNode(
            id: "window", name: "Mixed", role: .group, frame: Rect(x: 0, y: 0, width: 1000, height: 900))
        var notes = SceneNode(
            id: "notes", name: "Notes", role: .container, frame: Rect(x: 420, y: 0, width: 300, height: 400))
        notes.accepts = ["text/html"]
        notes.layout = .vertical
        for i in 0..<3 {
            var n = SceneNode(id: TargetID("n\(i)"), name: "Note \(i)", role: .item)
            n.offers = ["text/html"]
            notes.children.append(n)
        }
        window.children.append(list("groceries", x: 100, count: 3))
        window.children.append(notes)
        for (i, (id, accepts)) in [("plain", ["text/plain"]), ("any", ["*/*"]), ("images", ["image/*"])].enumerated() {
            var point = SceneNode(
                id: TargetID(id), name: id, role: .dropPoint,
                frame: Rect(x: 740, y: Double(i) * 120, width: 200, height: 100))
            point.accepts = accepts.map { ContentType($0) }
            window.children.append(point)
        }
        for (id, y, height) in [("upper", 420.0, 200.0), ("lower", 620.0, 200.0)] {
            var l = list(id, x: 100, count: 20, prefix: String(id.prefix(2)))
            l.frame = Rect(x: 100, y: y, width: 300, height: height)
            l.contentHeight = 800
            l.autoscroll = AutoscrollConfiguration()
            window.children.append(l)
        }
        return try Scene([window])
    }

    static func list(_ id: String, x: Double, count: Int, prefix: String? = nil) -> SceneNode {
        var list = SceneNode(
            id: TargetID(id), name: id, role: .container, frame: Rect(x: x, y: 0, width: 300, height: 400))
        list.accepts = [reminder]
        list.layout = .vertical
        list.policy = .preferMove
        let p = prefix ?? String(id.prefix(1))
        for i in 0..<count { list.children.append(item("\(p)\(i)")) }
        return list
    }

    static func item(_ id: String) -> SceneNode {
        var node = SceneNode(id: TargetID(id), name: id, role: .item)
        node.offers = [reminder]
        node.kind = Noun("reminder")
        return node
    }

    /// Two apps: a Photos window (app "Photos") with an album of photos, and the harness app's
    /// Mail window with a message body that takes images.
    static func photosAndMail() throws -> Scene { try photosAndMail(bodyTakesMoves: false) }

    /// The same, with a message body that carries out other apps' moves.
    static func photosAndMailTakingMoves() throws -> Scene { try photosAndMail(bodyTakesMoves: true) }

    static func photosAndMail(bodyTakesMoves: Bool) throws -> Scene {
        var photos = SceneNode(
            id: "photos-window", name: "Photos", role: .group, frame: Rect(x: 0, y: 0, width: 400, height: 400))
        photos.app = "Photos"
        var album = SceneNode(
            id: "album", name: "Album", role: .container, frame: Rect(x: 0, y: 0, width: 400, height: 400))
        album.accepts = [photo]
        album.layout = .grid
        album.itemSize = Size(width: 100, height: 100)
        for i in 0..<3 {
            var p = SceneNode(id: TargetID("photo\(i)"), name: "Photo \(i)", role: .item)
            p.offers = [photo, "image/png"]
            p.kind = Noun("photo")
            album.children.append(p)
        }
        photos.children.append(album)
        var mail = SceneNode(
            id: "mail-window", name: "New Message", role: .group, frame: Rect(x: 500, y: 0, width: 400, height: 400))
        var body = SceneNode(
            id: "body", name: "Message", role: .container, frame: Rect(x: 500, y: 100, width: 400, height: 300))
        body.accepts = ["image/*"]
        body.layout = .vertical
        body.takesMovesFromOtherApps = bodyTakesMoves
        mail.children.append(body)
        return try Scene([photos, mail])
    }
}

/// Centre of row `row` of a list whose top is at `top` (rows 40 points high).
private func row(_ row: Int, x: Double, top: Double = 0) -> Point { Point(x: x + 150, y: top + Double(row) * 40 + 20) }

/// A harness for `scene` with an auditor attached.
private func audited(_ scene: Scene, app: AppID = "App") throws -> (DragHarness, TimelineAuditor) {
    let harness = try DragHarness(scene: scene, app: app)
    let auditor = TimelineAuditor()
    harness.observers.append(auditor)
    return (harness, auditor)
}

/// Ends the run: the auditor and the harness must both find nothing wrong.
private func expectClean(
    _ harness: DragHarness, _ auditor: TimelineAuditor, sourceLocation: SourceLocation = #_sourceLocation
) {
    auditor.finish(scene: harness.scene, engine: harness.engine)
    #expect(
        auditor.violations.isEmpty,
        "\(auditor.violations.map(\.description).joined(separator: "\n"))\n--- timeline:\n\(harness.jsonLines.joined(separator: "\n"))",
        sourceLocation: sourceLocation)
    #expect(throws: Never.self, sourceLocation: sourceLocation) { try harness.finish() }
}

@Suite("Auditor: real drags audit clean")
struct AuditorCleanRunTests {
    @Test("F1, F6, S2, U1: reorder inside one list moves, with no highlight on the source list")
    func reorderInList() throws {
        let (h, a) = try audited(AuditFixtures.reminders())
        h.press(at: row(0, x: 100))
        h.move(to: Point(x: 250, y: 21))
        h.move(to: Point(x: 250, y: 21.5))
        h.move(to: Point(x: 250, y: 24))  // 3.x points: lifts
        // Past row 3's midpoint by more than the insertion's hysteresis (F8): after it.
        h.move(to: Point(x: row(3, x: 100).x, y: row(3, x: 100).y + 8), steps: 6)
        h.release()
        #expect(h.scene.snapshot()["groceries"] == ["g1", "g2", "g3", "g0", "g4"])
        #expect(!h.feedback.contains { if case .highlight = $0 { true } else { false } })
        h.undo()
        h.redo()
        expectClean(h, a)
    }

    @Test("F4, F5, S2, S3, S4, U1: two reminders move to another list, then undo and redo")
    func moveBetweenLists() throws {
        let (h, a) = try audited(AuditFixtures.reminders())
        h.select(["g1", "g2"])
        h.press(at: row(1, x: 100))
        h.move(to: Point(x: 250, y: 70), steps: 2)
        h.move(to: Point(x: 560, y: 300), steps: 12)
        h.release()
        #expect(h.scene.snapshot()["work"] == ["w0", "w1", "work-folder", "g1", "g2"])
        #expect(h.scene.snapshot()["groceries"] == ["g0", "g3", "g4"])
        h.undo()
        #expect(h.scene.snapshot()["groceries"] == ["g0", "g1", "g2", "g3", "g4"])
        h.redo()
        h.undo()
        expectClean(h, a)
    }

    @Test("F5: the folder inside a list is the innermost destination and copies")
    func innermostFolder() throws {
        let (h, a) = try audited(AuditFixtures.reminders())
        h.press(at: row(0, x: 100))
        h.move(to: row(2, x: 420), steps: 10)  // over the folder inside 'work'
        #expect(h.engine.currentSession?.highlighted == "work-folder")
        h.move(to: Point(x: 570, y: 300), steps: 3)  // over 'work' itself
        h.move(to: row(2, x: 420), steps: 3)
        h.release()
        #expect(h.scene.snapshot()["work-folder"]?.count == 1)
        h.undo()
        #expect(h.scene.snapshot()["work-folder"] == [])
        h.redo()
        expectClean(h, a)
    }

    @Test("SP1, F4: hovering the spring-loaded tab opens the archive, then the drop copies there")
    func springLoadedTab() throws {
        let (h, a) = try audited(AuditFixtures.reminders())
        h.press(at: row(3, x: 100))
        h.move(to: Point(x: 45, y: 20), steps: 8)
        h.advance(by: .milliseconds(300))
        h.move(to: Point(x: 47, y: 22))  // small moves keep the timer
        h.advance(by: .milliseconds(500))
        #expect(h.feedback.contains(.springActivated("tab-archive", explicit: false)))
        #expect(h.scene.isShown("archive"))
        h.move(to: Point(x: 840, y: 200), steps: 10)
        h.release()
        #expect(h.scene.snapshot()["archive"]?.count == 1)
        expectClean(h, a)
    }

    @Test("SP1: leaving the tab before the delay disarms it; Space activates at once")
    func springDisarmAndExplicit() throws {
        let (h, a) = try audited(AuditFixtures.reminders())
        h.press(at: row(3, x: 100))
        h.move(to: Point(x: 45, y: 20), steps: 8)
        h.advance(by: .milliseconds(400))
        h.move(to: Point(x: 45, y: 100), steps: 2)
        h.advance(by: .milliseconds(800))
        #expect(!h.scene.isShown("archive"))
        h.move(to: Point(x: 45, y: 20), steps: 2)
        h.key(.activate)
        #expect(h.scene.isShown("archive"))
        h.key(.cancel)
        expectClean(h, a)
    }

    @Test("A1: near the bottom edge the long list scrolls down, and stops when the drag leaves it")
    func autoscroll() throws {
        let (h, a) = try audited(AuditFixtures.reminders())
        h.press(at: row(4, x: 100))
        h.move(to: Point(x: 250, y: 610), steps: 10)  // bottom edge zone of 'long'
        h.advance(by: .seconds(1))
        #expect(h.scene.scrollOffsets["long"] ?? 0 > 0)
        h.move(to: Point(x: 250, y: 440))  // top edge zone: scrolls back up
        h.advance(by: .milliseconds(300))
        h.move(to: Point(x: 600, y: 650), steps: 4)  // out of the list
        h.advance(by: .milliseconds(300))
        h.release()
        expectClean(h, a)
    }

    @Test("S3, F7: the locked trash shows a not-allowed badge, and the drop returns to the source")
    func forbiddenDestination() throws {
        let (h, a) = try audited(AuditFixtures.reminders())
        h.press(at: row(0, x: 100))
        h.move(to: Point(x: 840, y: 50), steps: 12)
        #expect(h.engine.currentSession?.preview.badge == .forbidden)
        h.release()
        #expect(
            h.feedback.last { if case .outcome = $0 { true } else { false } }
                == .outcome(.returnToSource(DropFailure(.forbidden, "The trash is locked."))))
        expectClean(h, a)
    }

    @Test("F7: Escape during a drag returns the content; a drop on nothing too")
    func cancelAndDropOnNothing() throws {
        let (h, a) = try audited(AuditFixtures.reminders())
        h.press(at: row(0, x: 100))
        h.move(to: Point(x: 560, y: 300), steps: 8)
        h.key(.cancel)
        h.release()
        h.press(at: row(0, x: 100))
        h.move(to: Point(x: 800, y: 650), steps: 8)
        h.release()
        expectClean(h, a)
    }

    @Test("F1: a touch lifts after press-and-hold; a short press is a tap")
    func touchLift() throws {
        let (h, a) = try audited(AuditFixtures.reminders())
        h.press(at: row(1, x: 100), kind: .touch)
        h.advance(by: .milliseconds(200))
        h.release()
        h.press(at: row(1, x: 100), kind: .touch)
        h.move(to: Point(x: 252, y: 64))
        h.advance(by: .milliseconds(600))
        #expect(h.engine.isDragging)
        h.move(to: Point(x: 560, y: 300), steps: 6)
        h.release()
        expectClean(h, a)
    }

    @Test("S2, S4: a reminder that cannot leave its list is copied to the other list, even with the move modifier")
    func readOnlyCopies() throws {
        let (h, a) = try audited(AuditFixtures.remindersReadOnly())
        h.press(at: row(0, x: 100))
        h.move(to: Point(x: 250, y: 70), steps: 2)
        h.move(to: Point(x: 560, y: 300), steps: 12)
        h.setModifiers([.forceMove])
        h.release()
        #expect(h.scene.snapshot()["groceries"] == ["g0", "g1", "g2", "g3", "g4"])
        #expect(h.scene.snapshot()["work"]?.count == 4)
        h.undo()
        expectClean(h, a)
    }

    @Test("S2: the copy modifier, pressed during the drag, turns the move into a copy")
    func modifierDuringDrag() throws {
        let (h, a) = try audited(AuditFixtures.reminders())
        h.press(at: row(0, x: 100))
        h.move(to: Point(x: 560, y: 300), steps: 8)
        h.setModifiers(.forceCopy)
        #expect(h.engine.currentSession?.operation == .copy)
        h.setModifiers([])
        h.setModifiers(.forceCopy)
        h.release()
        h.setModifiers([])
        #expect(h.scene.snapshot()["groceries"]?.count == 5)
        expectClean(h, a)
    }

    @Test("S2: a copy modifier held before the press copies")
    func modifierBeforePress() throws {
        let (h, a) = try audited(AuditFixtures.reminders())
        h.setModifiers(.forceCopy)
        h.press(at: row(0, x: 100))
        h.move(to: Point(x: 560, y: 300), steps: 8)
        #expect(h.engine.currentSession?.operation == .copy)
        h.release()
        h.setModifiers([])
        #expect(h.scene.snapshot()["groceries"]?.count == 5)
        expectClean(h, a)
    }

    @Test("S2: a photo dragged from another app's window copies, even with the move modifier")
    func anotherAppCopies() throws {
        let (h, a) = try audited(AuditFixtures.photosAndMail(), app: "Mail")
        h.press(at: Point(x: 50, y: 50))
        h.move(to: Point(x: 700, y: 250), steps: 10)
        #expect(h.engine.currentSession?.operation == .copy)
        h.setModifiers(.forceMove)
        #expect(h.engine.currentSession?.operation == .copy)
        h.release()
        h.setModifiers([])
        #expect(h.scene.snapshot()["album"] == ["photo0", "photo1", "photo2"])
        #expect(h.scene.snapshot()["body"]?.count == 1)
        expectClean(h, a)
    }

    @Test(
        "S2, S4: over a destination that carries out other apps' moves, another app's photo moves with the move modifier alone, and is copied with both or none"
    )
    func anotherAppMovesWhereTheDestinationTakesMoves() throws {
        let (h, a) = try audited(AuditFixtures.photosAndMailTakingMoves(), app: "Mail")
        h.press(at: Point(x: 50, y: 50))
        h.move(to: Point(x: 700, y: 250), steps: 10)
        #expect(h.engine.currentSession?.operation == .copy)
        h.setModifiers([.forceMove, .forceCopy])
        #expect(h.engine.currentSession?.operation == .copy, "the copy modifier wins")
        h.setModifiers(.forceMove)
        #expect(h.engine.currentSession?.operation == .move)
        #expect(h.engine.currentSession?.preview.badge == Badge.none, "S3: a move shows no badge")
        h.release()
        h.setModifiers([])
        #expect(h.scene.snapshot()["album"] == ["photo1", "photo2"], "S4: the photo left the other app")
        #expect(h.scene.snapshot()["body"] == ["photo0"])
        expectClean(h, a)
    }

    @Test(
        "S2, F4: a drag from another app that allows only a move is forbidden, with the reason and no highlight, where it would be copied; a move it does not allow is a copy"
    )
    func anotherAppAllowingOnlyAMove() throws {
        let photo = DragItem(id: "x1", name: "Beach", types: ["image/png"], app: "Thunar")
        let (h, a) = try audited(AuditFixtures.photosAndMail(bodyTakesMoves: false), app: "Mail")
        h.otherAppAllows(.move)
        try h.externalDragEnter([photo], at: Point(x: 700, y: 50))
        h.move(to: Point(x: 700, y: 250), steps: 4)
        let reason = "'Thunar' allows only a move, and Message copies what other apps drop."
        #expect(h.engine.currentSession?.operation == .forbidden(reason: reason))
        #expect(h.engine.currentSession?.highlighted == nil, "F4: no highlight for a drop it would refuse")
        #expect(h.engine.currentSession?.preview.badge == .forbidden)
        h.otherAppAllows(.all)
        #expect(h.engine.currentSession?.operation == .copy)
        #expect(h.engine.currentSession?.highlighted == "body")
        h.otherAppAllows(.move)
        #expect(h.engine.currentSession?.highlighted == nil)
        h.release()
        #expect(h.scene.snapshot()["body"] == [], "nothing arrived")
        let said = h.feedback.compactMap { if case .announcement(let a) = $0 { a.text } else { nil } }
        #expect(said.last?.contains(reason) == true, "the reason is said: \(said.suffix(2))")
        expectClean(h, a)
    }

    @Test(
        "S2: over a destination that carries out other apps' moves, a drag that allows only a move moves, and one that allows only a copy copies with the move modifier held"
    )
    func anotherAppAllowingOneOperationWhereMovesAreTaken() throws {
        let (h, a) = try audited(AuditFixtures.photosAndMailTakingMoves(), app: "Mail")
        h.otherAppAllows(.move)
        try h.externalDragEnter(
            [DragItem(id: "x1", name: "Beach", types: ["image/png"], app: "Thunar")], at: Point(x: 700, y: 50))
        h.move(to: Point(x: 700, y: 250), steps: 4)
        #expect(h.engine.currentSession?.operation == .move, "the only operation it allows, and the body takes it")
        h.release()
        #expect(h.scene.snapshot()["body"]?.count == 1, "the photo arrived")
        h.setModifiers(.forceMove)
        h.otherAppAllows(.copy)
        try h.externalDragEnter(
            [DragItem(id: "x2", name: "Dunes", types: ["image/png"], app: "Thunar")], at: Point(x: 700, y: 50))
        h.move(to: Point(x: 700, y: 250), steps: 4)
        #expect(h.engine.currentSession?.operation == .copy, "a move it does not allow is a copy")
        h.otherAppAllows([])
        #expect(h.engine.currentSession?.operation == .forbidden(reason: "'Thunar' allows neither a copy nor a move."))
        h.externalDragExit()
        h.setModifiers([])
        expectClean(h, a)
    }

    @Test("S2, M2: a drag from another app copies; a second item joins a pointer drag")
    func externalAndAddedItems() throws {
        let (h, a) = try audited(AuditFixtures.reminders())
        let foreign = DragItem(id: "mail-1", name: "Mail", types: [AuditFixtures.reminder], app: "Mail")
        try h.externalDragEnter([foreign], at: Point(x: 950, y: 650))
        h.move(to: Point(x: 560, y: 300), steps: 5)
        h.move(to: Point(x: 950, y: 650), steps: 5)
        h.externalDragExit()
        h.press(at: row(0, x: 100))
        h.move(to: Point(x: 250, y: 30), steps: 2)
        h.tap(at: row(1, x: 420))
        h.move(to: Point(x: 250, y: 380), steps: 4)
        h.move(to: Point(x: 560, y: 300), steps: 5)
        h.release()
        expectClean(h, a)
    }

    @Test("F4: a keyboard drag highlights its focused destination without a pointer")
    func keyboardDrag() throws {
        let (h, a) = try audited(AuditFixtures.reminders())
        try h.pickUp(["g0"])
        h.key(.nextDropPoint)
        h.key(.nextDropPoint)
        h.key(.nextDropPoint)
        #expect(h.engine.currentSession?.highlighted != nil)
        h.key(.drop)
        #expect(h.feedback.contains { if case .committed = $0 { true } else { false } })
        expectClean(h, a)
    }

    @Test("F5: items scrolled out of the long list are clipped: the list above takes the drop")
    func clippedByScrolling() throws {
        let (h, a) = try audited(AuditFixtures.reminders())
        h.press(at: row(0, x: 100))
        h.move(to: Point(x: 250, y: 612), steps: 10)
        h.advance(by: .seconds(2))
        let offset = h.scene.scrollOffsets["long"] ?? 0
        #expect(offset > 100)
        // Rows of 'long' scrolled up now lie (clipped) under 'groceries'.
        h.move(to: Point(x: 250, y: 390), steps: 6)
        #expect(h.engine.currentSession?.destination == "groceries")
        h.move(to: Point(x: 250, y: 395))
        h.release()
        expectClean(h, a)
    }

    @Test("F4, F5: a hidden list takes nothing; a dragged folder is never its own destination")
    func hiddenAndDraggedFolder() throws {
        let (h, a) = try audited(AuditFixtures.reminders())
        h.press(at: row(0, x: 100))
        h.move(to: Point(x: 840, y: 250), steps: 10)  // over the hidden archive
        #expect(h.engine.currentSession?.destination == nil)
        h.release()
        h.press(at: row(2, x: 420))  // the folder
        h.move(to: Point(x: 570, y: 105), steps: 3)
        #expect(h.engine.currentSession?.destination == "work")
        h.move(to: Point(x: 570, y: 5), steps: 3)
        h.release()
        #expect(h.scene.snapshot()["work"] == ["work-folder", "w0", "w1"])
        expectClean(h, a)
    }

    @Test("S4, F7, U1: a confirmed drop, a declined one, a failing one, and a cancellation")
    func confirmationFailureAndCancellation() throws {
        let (h, a) = try audited(AuditFixtures.remindersPlus())
        h.press(at: row(0, x: 100))
        h.move(to: Point(x: 490, y: 470), steps: 10)
        h.release()
        h.move(to: Point(x: 250, y: 20))  // ignored while the question is up
        h.confirm(false)
        h.press(at: row(0, x: 100))
        h.move(to: Point(x: 490, y: 470), steps: 10)
        h.release()
        h.confirm(true)
        h.press(at: row(1, x: 100))
        h.move(to: Point(x: 650, y: 470), steps: 10)
        h.release()
        h.press(at: row(1, x: 100))
        h.move(to: Point(x: 570, y: 600), steps: 10)
        h.release()
        h.cancelAfterDrop()
        h.undo()
        h.undo()
        h.redo()
        expectClean(h, a)
    }

    @Test("F7: once a tab hides the source list, a drop on nothing evaporates")
    func evaporateWhenSourceHidden() throws {
        let (h, a) = try audited(AuditFixtures.remindersPlus())
        h.press(at: row(0, x: 100))
        h.move(to: Point(x: 45, y: 80), steps: 8)
        h.advance(by: .milliseconds(400))
        #expect(!h.scene.isShown("groceries"))
        h.move(to: Point(x: 250, y: 200), steps: 4)  // where the hidden list was
        h.release()
        #expect(h.feedback.contains { if case .outcome(.evaporate) = $0 { true } else { false } })
        expectClean(h, a)
    }

    @Test("SP1, F4: a keyboard drag springs the tab open and drops into the archive")
    func keyboardSpring() throws {
        let (h, a) = try audited(AuditFixtures.reminders())
        try h.pickUp(["g0"])
        // Drop points in reading order: tab-archive first.
        h.key(.nextDropPoint)
        h.advance(by: .milliseconds(800))
        #expect(h.scene.isShown("archive"))
        for _ in 0..<8 where h.engine.currentSession?.destination != "archive" { h.key(.nextDropPoint) }
        #expect(h.engine.currentSession?.destination == "archive")
        h.key(.drop)
        expectClean(h, a)
    }

    @Test("A1, F5: a folder scrolls under the still pointer and takes over the highlight")
    func folderScrollsUnderPointer() throws {
        let (h, a) = try audited(AuditFixtures.remindersPlus())
        h.press(at: row(0, x: 100))
        h.move(to: Point(x: 250, y: 425), steps: 10)  // top edge zone of 'long': nothing to scroll yet
        h.move(to: Point(x: 250, y: 615), steps: 3)  // bottom edge zone
        for _ in 0..<20 { h.advance(by: .milliseconds(50)) }
        h.move(to: Point(x: 250, y: 560))
        h.move(to: Point(x: 250, y: 470))
        h.release()
        expectClean(h, a)
    }

    @Test("F1, F4: a touch that wanders is a scroll; a pen lifts at the threshold")
    func touchScrollAndPen() throws {
        let (h, a) = try audited(AuditFixtures.reminders())
        h.press(at: row(1, x: 100), kind: .touch)
        h.move(to: Point(x: 250, y: 90))
        h.advance(by: .milliseconds(700))
        #expect(!h.engine.isDragging)
        h.release()
        h.press(at: row(1, x: 100), kind: .pen)
        h.move(to: Point(x: 252.9, y: 60))
        #expect(!h.engine.isDragging)
        h.move(to: Point(x: 253, y: 60))
        #expect(h.engine.isDragging)
        h.move(to: Point(x: 560, y: 300), steps: 5)
        h.release()
        expectClean(h, a)
    }

    @Test("F6: several items from two lists; each list is highlighted only once left")
    func twoSourceLists() throws {
        let (h, a) = try audited(AuditFixtures.reminders())
        h.select(["g0", "w0"])
        h.press(at: row(0, x: 100))
        h.move(to: Point(x: 560, y: 300), steps: 10)
        h.move(to: Point(x: 250, y: 300), steps: 10)
        h.release()
        expectClean(h, a)
    }

    @Test("F4, F5, SP1: a folder that springs open in place hands the highlight to its list at once")
    func folderSpringsOpenInPlace() throws {
        let (h, a) = try audited(AuditFixtures.springFolder())
        h.press(at: row(0, x: 100))
        h.move(to: row(2, x: 420), steps: 10)
        #expect(h.engine.currentSession?.highlighted == "work-folder")
        h.advance(by: .milliseconds(800))  // the pointer stays still
        #expect(h.scene.isShown("folder-view"))
        #expect(h.engine.currentSession?.highlighted == "folder-view")
        h.setModifiers([])
        h.release()
        #expect(h.scene.snapshot()["folder-view"] == ["fv0", "g0"])
        expectClean(h, a)
    }
}

// MARK: - Wrong timelines: the auditor must catch each rule being broken

/// Feeds hand-made timeline entries to a ``TimelineAuditor``, on the real scene and engine of a
/// harness that is not driven (unless a test drives it on purpose).
final class Fabricated {
    let harness: DragHarness
    let auditor = TimelineAuditor()
    /// The virtual time of the next entry.
    var now = MonotonicInstant.origin

    init(_ scene: Scene) throws { harness = try DragHarness(scene: scene) }

    /// Moves the fabricated time forward.
    func wait(_ milliseconds: Int) { now = now + .milliseconds(milliseconds) }

    /// An input, the feedback it caused, then the end of its handling.
    func input(_ input: InputEvent, _ feedback: FeedbackEvent...) {
        auditor.observe(TimelineEntry(time: now, event: .input(input)), scene: harness.scene, engine: harness.engine)
        for f in feedback { self.feedback(f) }
        auditor.inputHandled(input, at: now, scene: harness.scene, engine: harness.engine)
    }

    /// Feedback caused by a timer, between inputs.
    func tick(_ feedback: FeedbackEvent...) { for f in feedback { self.feedback(f) } }

    private func feedback(_ f: FeedbackEvent) {
        auditor.observe(TimelineEntry(time: now, event: .feedback(f)), scene: harness.scene, engine: harness.engine)
    }

    /// The rules of the violations found so far.
    var rules: Set<String> { Set(auditor.violations.map(\.rule)) }

    // Valid beginnings, as the engine would record them (checked clean by `prefixesAreClean`).

    /// Presses on 'g0' and lifts it 4 points further: a move proposed over its own list.
    func liftG0() {
        input(.pointerDown(Point(x: 250, y: 20), kind: .mouse))
        input(
            .pointerMove(Point(x: 250, y: 24)), .lifted(items: ["g0"], at: Point(x: 250, y: 24), mode: .pointer),
            .preview(PreviewState(count: 1, badge: .none)), .proposal(destination: "groceries", operation: .move))
    }

    /// 'g0' dragged over the 'work' list: highlighted, a move.
    func overWork() {
        liftG0()
        input(
            .pointerMove(Point(x: 560, y: 300)), .highlight("work", on: true),
            .proposal(destination: "work", operation: .move))
    }

    /// 'g0' dragged over the folder inside 'work': the folder is highlighted, a copy.
    func overFolder() {
        liftG0()
        input(
            .pointerMove(Point(x: 570, y: 100)), .highlight("work-folder", on: true),
            .proposal(destination: "work-folder", operation: .copy), .preview(PreviewState(count: 1, badge: .copy)))
    }

    /// 'g0' dragged over the spring-loaded tab: armed.
    func overTab() {
        liftG0()
        input(
            .pointerMove(Point(x: 45, y: 20)), .proposal(destination: nil, operation: .cancel),
            .springArmed("tab-archive"))
    }

    /// 'g0' dragged into the bottom edge zone of the long list: highlighted, autoscrolling.
    func inLongBottomZone() {
        liftG0()
        input(
            .pointerMove(Point(x: 250, y: 610)), .highlight("long", on: true),
            .proposal(destination: "long", operation: .move),
            .autoscrollStarted("long"))
    }

    /// Releases over 'work' and completes the move.
    func dropOnWork() {
        input(
            .pointerUp(Point(x: 560, y: 300)), .dropped(destination: "work", operation: .move, index: 3),
            .highlight("work", on: false), .committed(destination: "work", items: ["g0"], operation: .move, index: 3),
            .sourceRemoved(["g0"]), .outcome(.completed(destination: "work", operation: .move)))
    }
}

/// One deliberately wrong timeline and the rule it breaks.
struct WrongTimeline: Sendable, CustomTestStringConvertible {
    var rule: String
    var what: String
    var scene: @Sendable () throws -> Scene = AuditFixtures.reminders
    var run: @Sendable (Fabricated) throws -> Void

    var testDescription: String { "\(rule): \(what)" }
}

enum WrongTimelines {
    static let all: [WrongTimeline] = [
        // T3
        WrongTimeline(rule: "T3", what: "an outline offering the dragged item as the row to drop into") { f in
            f.liftG0()
            f.input(.pointerMove(Point(x: 250, y: 30)), .outlineDrop("groceries", .on("g0")))
        },
        WrongTimeline(rule: "T3", what: "an outline offering a gap inside the dragged item") { f in
            f.liftG0()
            f.input(
                .pointerMove(Point(x: 250, y: 30)),
                .outlineDrop("groceries", .between(parent: "g0", index: 0, depth: 1)))
        },
        // F1
        WrongTimeline(rule: "F1", what: "a pointer lift with no press") { f in
            f.input(
                .pointerMove(Point(x: 250, y: 24)), .lifted(items: ["g0"], at: Point(x: 250, y: 24), mode: .pointer),
                .preview(PreviewState(count: 1, badge: .none)), .proposal(destination: "groceries", operation: .move))
        },
        WrongTimeline(rule: "F1", what: "a mouse lift after moving 1 point") { f in
            f.input(.pointerDown(Point(x: 250, y: 20), kind: .mouse))
            f.input(
                .pointerMove(Point(x: 251, y: 20)), .lifted(items: ["g0"], at: Point(x: 251, y: 20), mode: .pointer),
                .preview(PreviewState(count: 1, badge: .none)), .proposal(destination: "groceries", operation: .move))
        },
        WrongTimeline(rule: "F1", what: "a touch lift after a 100 ms hold") { f in
            f.input(.pointerDown(Point(x: 250, y: 20), kind: .touch))
            f.wait(100)
            f.tick(
                .lifted(items: ["g0"], at: Point(x: 250, y: 20), mode: .pointer),
                .preview(PreviewState(count: 1, badge: .none)),
                .proposal(destination: "groceries", operation: .move))
        },
        WrongTimeline(rule: "F1", what: "a touch lift after the finger wandered beyond the slop") { f in
            f.input(.pointerDown(Point(x: 250, y: 20), kind: .touch))
            f.wait(100)
            f.input(.pointerMove(Point(x: 250, y: 45)))
            f.wait(400)
            f.tick(
                .lifted(items: ["g0"], at: Point(x: 250, y: 45), mode: .pointer),
                .preview(PreviewState(count: 1, badge: .none)),
                .proposal(destination: "groceries", operation: .move))
        },
        WrongTimeline(rule: "F1", what: "a mouse moved 10 points over a draggable row, and nothing lifted") { f in
            f.input(.pointerDown(Point(x: 250, y: 20), kind: .mouse))
            f.input(.pointerMove(Point(x: 250, y: 30)))
        },
        WrongTimeline(rule: "F1", what: "a touch held 600 ms on a row, and nothing lifted") { f in
            f.input(.pointerDown(Point(x: 250, y: 20), kind: .touch))
            f.wait(600)
            f.input(.pointerUp(Point(x: 250, y: 20)))
        },
        // F4
        WrongTimeline(rule: "F4", what: "a highlight on a list the pointer is not over") { f in
            f.overWork()
            f.tick(.highlight("work", on: false), .highlight("groceries", on: true))
        },
        WrongTimeline(rule: "F4", what: "a highlight on a window that accepts nothing") { f in
            f.overWork()
            f.tick(.highlight("work", on: false), .highlight("window", on: true))
        },
        WrongTimeline(rule: "F4", what: "a highlight on the locked trash") { f in
            f.liftG0()
            f.input(
                .pointerMove(Point(x: 840, y: 50)), .highlight("trash", on: true),
                .proposal(destination: "trash", operation: .forbidden(reason: "The trash is locked.")),
                .preview(PreviewState(count: 1, badge: .forbidden)))
        },
        WrongTimeline(rule: "F4", what: "a highlight left on after the drop") { f in
            f.overWork()
            f.input(
                .pointerUp(Point(x: 560, y: 300)), .dropped(destination: "work", operation: .move, index: 3),
                .committed(destination: "work", items: ["g0"], operation: .move, index: 3), .sourceRemoved(["g0"]),
                .outcome(.completed(destination: "work", operation: .move)))
        },
        WrongTimeline(rule: "F4", what: "a drag still open at the end of the run") { f in
            f.overWork()
            f.auditor.finish(scene: f.harness.scene, engine: f.harness.engine)
        },
        // F5
        WrongTimeline(rule: "F5", what: "two highlights at once") { f in
            f.overFolder()
            f.tick(.highlight("work", on: true))
        },
        WrongTimeline(rule: "F5", what: "the outer list highlighted while the pointer is over the folder in it") { f in
            f.liftG0()
            f.input(
                .pointerMove(Point(x: 570, y: 100)), .highlight("work", on: true),
                .proposal(destination: "work", operation: .move))
        },
        WrongTimeline(rule: "F5", what: "nothing highlighted over a list that takes the drop") { f in
            f.liftG0()
            f.input(.pointerMove(Point(x: 560, y: 300)), .proposal(destination: "work", operation: .move))
        },
        WrongTimeline(rule: "F5", what: "a drop on the list while the pointer is over the folder") { f in
            f.overFolder()
            f.input(
                .pointerUp(Point(x: 570, y: 100)), .dropped(destination: "work", operation: .move, index: 2),
                .highlight("work-folder", on: false), .outcome(.returnToSource(DropFailure(.failed, "No."))))
        },
        // F6
        WrongTimeline(rule: "F6", what: "the source list highlighted before the pointer left it") { f in
            f.liftG0()
            f.input(.pointerMove(Point(x: 250, y: 200)), .highlight("groceries", on: true))
        },
        // F7
        WrongTimeline(
            rule: "F7", what: "returnToSource while the source list is hidden", scene: AuditFixtures.remindersPlus
        ) { f in
            f.liftG0()
            f.harness.scene.activate("tab-hide")  // the app hides the source list
            f.input(.key(.cancel), .outcome(.returnToSource(DropFailure(.cancelled, "The drag was cancelled."))))
        },
        WrongTimeline(rule: "F7", what: "evaporate while the source list is shown") { f in
            f.liftG0()
            f.input(.key(.cancel), .outcome(.evaporate(DropFailure(.cancelled, "The drag was cancelled."))))
        },
        WrongTimeline(rule: "F7", what: "a failure without a message") { f in
            f.liftG0()
            f.input(.key(.cancel), .outcome(.returnToSource(DropFailure(.cancelled, " "))))
        },
        WrongTimeline(rule: "F7", what: "a second drag lifting while the first never ended") { f in
            f.liftG0()
            f.input(
                .pickUp(["g1"]), .lifted(items: ["g1"], at: .zero, mode: .keyboard),
                .preview(PreviewState(count: 1, badge: .none)))
        },
        // S2
        WrongTimeline(rule: "S2", what: "a copy proposed between two lists that prefer moves") { f in
            f.liftG0()
            f.input(
                .pointerMove(Point(x: 560, y: 300)), .highlight("work", on: true),
                .proposal(destination: "work", operation: .copy),
                .preview(PreviewState(count: 1, badge: .copy)))
        },
        WrongTimeline(
            rule: "S2", what: "a move proposed for a reminder that cannot leave its list (read-only)",
            scene: AuditFixtures.remindersReadOnly
        ) { f in
            f.liftG0()
            f.input(
                .pointerMove(Point(x: 560, y: 300)), .highlight("work", on: true),
                .proposal(destination: "work", operation: .move),
                .insertion("work", index: 3))
        },
        WrongTimeline(rule: "S2", what: "the copy modifier pressed and the proposal still a move") { f in
            f.overWork()
            f.input(.modifiers(.forceCopy))
        },
        WrongTimeline(rule: "S2", what: "a move proposed inside one list under the copy modifier") { f in
            f.input(.modifiers(.forceCopy))
            f.input(.pointerDown(Point(x: 250, y: 20), kind: .mouse))
            f.input(
                .pointerMove(Point(x: 250, y: 24)), .lifted(items: ["g0"], at: Point(x: 250, y: 24), mode: .pointer),
                .preview(PreviewState(count: 1, badge: .none)), .proposal(destination: "groceries", operation: .move))
        },
        WrongTimeline(
            rule: "S2", what: "a move proposed for a photo from another app", scene: AuditFixtures.photosAndMail
        ) { f in
            f.input(.modifiers(.forceMove))
            f.input(.pointerDown(Point(x: 50, y: 50), kind: .mouse))
            f.input(
                .pointerMove(Point(x: 50, y: 54)), .lifted(items: ["photo0"], at: Point(x: 50, y: 54), mode: .pointer),
                .preview(PreviewState(count: 1, badge: .none)), .proposal(destination: "album", operation: .move))
            f.input(
                .pointerMove(Point(x: 700, y: 250)), .highlight("body", on: true),
                .proposal(destination: "body", operation: .move))
        },
        WrongTimeline(
            rule: "S2",
            what: "a copy proposed for another app's photo with the move modifier over a body that takes moves",
            scene: AuditFixtures.photosAndMailTakingMoves
        ) { f in
            f.input(.modifiers(.forceMove))
            f.input(.pointerDown(Point(x: 50, y: 50), kind: .mouse))
            f.input(
                .pointerMove(Point(x: 50, y: 54)), .lifted(items: ["photo0"], at: Point(x: 50, y: 54), mode: .pointer),
                .preview(PreviewState(count: 1, badge: .none)), .proposal(destination: "album", operation: .move))
            f.input(
                .pointerMove(Point(x: 700, y: 250)), .highlight("body", on: true),
                .proposal(destination: "body", operation: .copy),
                .preview(PreviewState(count: 1, badge: .copy)))
        },
        WrongTimeline(
            rule: "S2", what: "a copy proposed for another app's drag that allows only a move",
            scene: { try AuditFixtures.photosAndMail(bodyTakesMoves: false) }
        ) { f in
            let photo = DragItem(id: "x1", name: "Beach", types: ["image/png"], app: "Thunar")
            f.input(.otherAppAllows(.move))
            f.input(
                .externalDragEnter([photo], at: Point(x: 700, y: 50)),
                .lifted(items: ["x1"], at: Point(x: 700, y: 50), mode: .external),
                .preview(PreviewState(count: 1, badge: .none)))
            f.input(
                .pointerMove(Point(x: 700, y: 250)), .proposal(destination: "body", operation: .copy),
                .preview(PreviewState(count: 1, badge: .copy)))
        },
        // S3
        WrongTimeline(rule: "S3", what: "a copy badge with a move proposal") { f in
            f.liftG0()
            f.input(
                .pointerMove(Point(x: 560, y: 300)), .highlight("work", on: true),
                .proposal(destination: "work", operation: .move),
                .preview(PreviewState(count: 1, badge: .copy)))
        },
        WrongTimeline(rule: "S3", what: "no not-allowed badge over the locked trash") { f in
            f.liftG0()
            f.input(
                .pointerMove(Point(x: 840, y: 50)),
                .proposal(destination: "trash", operation: .forbidden(reason: "The trash is locked.")))
        },
        WrongTimeline(rule: "S3", what: "a count of 2 for one dragged item") { f in
            f.liftG0()
            f.tick(.preview(PreviewState(count: 2, badge: .none)))
        },
        // S4
        WrongTimeline(rule: "S4", what: "the source removed before the destination committed") { f in
            f.overWork()
            f.input(
                .pointerUp(Point(x: 560, y: 300)), .dropped(destination: "work", operation: .move, index: 3),
                .highlight("work", on: false), .sourceRemoved(["g0"]),
                .committed(destination: "work", items: ["g0"], operation: .move, index: 3),
                .outcome(.completed(destination: "work", operation: .move)))
        },
        WrongTimeline(rule: "S4", what: "a forbidden drop committed") { f in
            f.liftG0()
            f.input(
                .pointerMove(Point(x: 840, y: 50)),
                .proposal(destination: "trash", operation: .forbidden(reason: "The trash is locked.")),
                .preview(PreviewState(count: 1, badge: .forbidden)))
            f.input(
                .pointerUp(Point(x: 840, y: 50)),
                .dropped(destination: "trash", operation: .forbidden(reason: "The trash is locked."), index: nil),
                .committed(
                    destination: "trash", items: ["g0"], operation: .forbidden(reason: "The trash is locked."),
                    index: nil),
                .outcome(.completed(destination: "trash", operation: .forbidden(reason: "The trash is locked."))))
        },
        WrongTimeline(rule: "S4", what: "the source removed after a failed drop") { f in
            f.overWork()
            f.input(
                .pointerUp(Point(x: 560, y: 300)), .dropped(destination: "work", operation: .move, index: 3),
                .highlight("work", on: false), .outcome(.returnToSource(DropFailure(.failed, "The list is full."))),
                .sourceRemoved(["g0"]))
        },
        WrongTimeline(rule: "S4", what: "a completed move that never removed the original") { f in
            f.overWork()
            f.input(
                .pointerUp(Point(x: 560, y: 300)), .dropped(destination: "work", operation: .move, index: 3),
                .highlight("work", on: false),
                .committed(destination: "work", items: ["g0"], operation: .move, index: 3),
                .outcome(.completed(destination: "work", operation: .move)))
        },
        // A4, A6
        WrongTimeline(rule: "A4", what: "placeholders appearing in a list the drop did not land on") { f in
            f.overWork()
            f.input(
                .pointerUp(Point(x: 560, y: 300)), .dropped(destination: "work", operation: .move, index: 3),
                .highlight("work", on: false),
                .placeholderInserted("groceries", token: DropToken(rawValue: 1), index: 3, count: 1),
                .outcome(.placeholder(destination: "work", token: DropToken(rawValue: 1))))
        },
        WrongTimeline(rule: "A4", what: "placeholder progress going backwards") { f in
            f.overWork()
            let token = DropToken(rawValue: 1)
            f.input(
                .pointerUp(Point(x: 560, y: 300)), .dropped(destination: "work", operation: .move, index: 3),
                .highlight("work", on: false), .placeholderInserted("work", token: token, index: 3, count: 1),
                .outcome(.placeholder(destination: "work", token: token)))
            f.wait(100)
            f.tick(.placeholderProgress(token, fraction: 0.5))
            f.wait(100)
            f.tick(.placeholderProgress(token, fraction: 0.25))
        },
        WrongTimeline(rule: "A6", what: "a failed transfer that does not say why") { f in
            f.overWork()
            let token = DropToken(rawValue: 1)
            f.input(
                .pointerUp(Point(x: 560, y: 300)), .dropped(destination: "work", operation: .move, index: 3),
                .highlight("work", on: false), .placeholderInserted("work", token: token, index: 3, count: 1),
                .outcome(.placeholder(destination: "work", token: token)))
            f.wait(100)
            f.tick(.placeholderFailed(token, DropFailure(.failed, "  ")))
        },
        // SP1
        WrongTimeline(rule: "SP1", what: "a spring-loaded tab activated 100 ms after arming") { f in
            f.overTab()
            f.wait(100)
            f.tick(.springFlash("tab-archive"), .springActivated("tab-archive", explicit: false))
        },
        WrongTimeline(rule: "SP1", what: "activation without flashing first") { f in
            f.overTab()
            f.wait(700)
            f.tick(.springActivated("tab-archive", explicit: false))
        },
        WrongTimeline(rule: "SP1", what: "activation with nothing armed") { f in
            f.liftG0()
            f.input(.pointerMove(Point(x: 45, y: 20)), .proposal(destination: nil, operation: .cancel))
            f.wait(700)
            f.tick(.springFlash("tab-archive"), .springActivated("tab-archive", explicit: false))
        },
        WrongTimeline(rule: "SP1", what: "the pointer left an armed tab and it stayed armed") { f in
            f.overTab()
            f.input(.pointerMove(Point(x: 45, y: 200)))
        },
        WrongTimeline(rule: "SP1", what: "activation after the tab was disarmed") { f in
            f.overTab()
            f.input(.pointerMove(Point(x: 45, y: 200)), .springDisarmed("tab-archive"))
            f.wait(700)
            f.tick(.springActivated("tab-archive", explicit: false))
        },
        WrongTimeline(rule: "SP1", what: "hovered past the delay and never activated") { f in
            f.overTab()
            f.wait(800)
            f.input(.pointerMove(Point(x: 46, y: 21)))
        },
        // A1
        WrongTimeline(rule: "A1", what: "autoscroll with the pointer outside the list") { f in
            f.inLongBottomZone()
            f.input(
                .pointerMove(Point(x: 560, y: 300)), .highlight("long", on: false), .highlight("work", on: true),
                .proposal(destination: "work", operation: .move))
            f.wait(17)
            f.tick(.autoscrolled("long", by: Vector(dx: 0, dy: 3)))
        },
        WrongTimeline(rule: "A1", what: "scrolling up while the pointer is at the bottom edge") { f in
            f.inLongBottomZone()
            f.wait(17)
            f.tick(.autoscrolled("long", by: Vector(dx: 0, dy: -3)))
        },
        WrongTimeline(rule: "A1", what: "scrolling 400 points in one 17 ms step") { f in
            f.inLongBottomZone()
            f.wait(17)
            f.tick(.autoscrolled("long", by: Vector(dx: 0, dy: 400)))
        },
        WrongTimeline(rule: "A1", what: "autoscroll in the middle of the list") { f in
            f.liftG0()
            f.input(
                .pointerMove(Point(x: 250, y: 520)), .highlight("long", on: true),
                .proposal(destination: "long", operation: .move))
            f.tick(.autoscrollStarted("long"))
            f.wait(17)
            f.tick(.autoscrolled("long", by: Vector(dx: 0, dy: 1)))
        },
        // U1
        WrongTimeline(rule: "U1", what: "an undo that leaves the scene unchanged") { f in
            f.harness.observers.append(f.auditor)
            f.harness.press(at: Point(x: 250, y: 20))
            f.harness.move(to: Point(x: 560, y: 300), steps: 8)
            f.harness.release()
            f.harness.observers.removeAll()
            f.now = f.harness.clock.now
            f.input(.undo, .undid("Move Reminder"))  // but nothing was undone
        },
        WrongTimeline(rule: "U1", what: "an undo with no name") { f in
            f.harness.observers.append(f.auditor)
            f.harness.press(at: Point(x: 250, y: 20))
            f.harness.move(to: Point(x: 560, y: 300), steps: 8)
            f.harness.release()
            f.harness.observers.removeAll()
            f.harness.undo()  // restores the scene, unobserved
            f.now = f.harness.clock.now
            f.input(.undo, .undid(""))
        },
        WrongTimeline(rule: "U1", what: "a redo that does not re-apply the move") { f in
            f.harness.observers.append(f.auditor)
            f.harness.press(at: Point(x: 250, y: 20))
            f.harness.move(to: Point(x: 560, y: 300), steps: 8)
            f.harness.release()
            f.harness.undo()
            f.harness.observers.removeAll()
            f.now = f.harness.clock.now
            f.input(.redo, .redid("Move Reminder"))  // but nothing was redone
        },
        WrongTimeline(rule: "U1", what: "an undo with nothing to undo") { f in
            f.input(.undo, .undid("Move Reminder"))
        },
        WrongTimeline(rule: "U1", what: "an undo named as a copy for a move") { f in
            f.harness.observers.append(f.auditor)
            f.harness.press(at: Point(x: 250, y: 20))
            f.harness.move(to: Point(x: 560, y: 300), steps: 8)
            f.harness.release()
            f.harness.observers.removeAll()
            f.harness.undo()
            f.now = f.harness.clock.now
            f.input(.undo, .undid("Copy Reminder"))
        },
    ]

    /// Runs every wrong timeline for `rule` and expects each to be caught under that rule only.
    static func expectCaught(_ rule: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let timelines = all.filter { $0.rule == rule }
        #expect(!timelines.isEmpty, "no wrong timeline breaks \(rule)", sourceLocation: sourceLocation)
        for timeline in timelines {
            let f = try Fabricated(timeline.scene())
            try timeline.run(f)
            #expect(
                f.rules == [rule],
                "\(timeline.testDescription): \(f.auditor.violations.isEmpty ? "not caught" : f.auditor.violations.map(\.description).joined(separator: "\n"))",
                sourceLocation: sourceLocation)
        }
    }
}

@Suite("Auditor: wrong timelines are caught")
struct AuditorCatchesTests {
    @Test("The valid beginnings of the wrong timelines audit clean")
    func prefixesAreClean() throws {
        let prefixes: [(String, (Fabricated) -> Void)] = [
            ("liftG0", { $0.liftG0() }), ("overWork", { $0.overWork() }), ("overFolder", { $0.overFolder() }),
            ("overTab", { $0.overTab() }), ("inLongBottomZone", { $0.inLongBottomZone() }),
            (
                "overWork + dropOnWork",
                { f in
                    f.overWork(); f.dropOnWork()
                }
            ),
            (
                "a valid autoscroll step",
                { f in
                    f.inLongBottomZone(); f.wait(17); f.tick(.autoscrolled("long", by: Vector(dx: 0, dy: 3)))
                }
            ),
            (
                "a valid spring activation",
                { f in
                    f.overTab(); f.wait(500); f.tick(.springFlash("tab-archive")); f.wait(200)
                    f.tick(.springActivated("tab-archive", explicit: false))
                }
            ),
            (
                "leaving and coming back to the source list",
                { f in
                    f.overWork()
                    f.input(
                        .pointerMove(Point(x: 250, y: 200)), .highlight("work", on: false),
                        .highlight("groceries", on: true),
                        .proposal(destination: "groceries", operation: .move))
                }
            ),
        ]
        for (name, prefix) in prefixes {
            let f = try Fabricated(AuditFixtures.reminders())
            prefix(f)
            #expect(f.auditor.violations.isEmpty, "\(name): \(f.auditor.violations.map(\.description))")
        }
    }

    @Test("Every rule the auditor checks has a wrong timeline it catches", arguments: TimelineAuditor.rules)
    func everyRuleCovered(rule: String) {
        #expect(WrongTimelines.all.contains { $0.rule == rule })
    }

    @Test("T3: an outline offering a dragged item as the place to put the dragged items into") func t3() throws {
        try WrongTimelines.expectCaught("T3")
    }
    @Test("F1: a lift without a press, below the threshold, before the hold, or missing") func f1() throws {
        try WrongTimelines.expectCaught("F1")
    }
    @Test("F4: a highlight off the pointer, on what cannot accept, or left on after the drop") func f4() throws {
        try WrongTimelines.expectCaught("F4")
    }
    @Test("F5: two highlights, the outer destination instead of the innermost, or none") func f5() throws {
        try WrongTimelines.expectCaught("F5")
    }
    @Test("F6: the source container highlighted before the pointer left it") func f6() throws {
        try WrongTimelines.expectCaught("F6")
    }
    @Test("F7: the wrong end animation, a silent failure, a drag that never ended") func f7() throws {
        try WrongTimelines.expectCaught("F7")
    }
    @Test("S2: a proposal that ignores policies, modifiers or apps") func s2() throws {
        try WrongTimelines.expectCaught("S2")
    }
    @Test("S3: a badge or count that does not match the proposal") func s3() throws {
        try WrongTimelines.expectCaught("S3")
    }
    @Test("S4: a source removed before the commit or after a failure; a forbidden drop committed") func s4() throws {
        try WrongTimelines.expectCaught("S4")
    }
    @Test("SP1: activation too early, unannounced, unarmed, after leaving, or never") func sp1() throws {
        try WrongTimelines.expectCaught("SP1")
    }
    @Test("A1: autoscroll outside the container or its edge zones, the wrong way, or too fast") func a1() throws {
        try WrongTimelines.expectCaught("A1")
    }
    @Test("U1: an undo or redo that does not restore the scene, or an unnamed one") func u1() throws {
        try WrongTimelines.expectCaught("U1")
    }

    @Test("F4, F5: a reminder and a note together only go where both are accepted")
    func mixedTypes() throws {
        let (h, a) = try audited(AuditFixtures.mixed())
        h.select(["g0", "n0"])
        h.press(at: row(0, x: 100))
        h.move(to: Point(x: 250, y: 300), steps: 3)
        h.move(to: Point(x: 560, y: 300), steps: 4)  // notes: takes html, not reminders
        #expect(h.engine.currentSession?.destination == nil)
        h.move(to: Point(x: 840, y: 50), steps: 4)  // plain: a reminder is not text
        #expect(h.engine.currentSession?.destination == nil)
        h.move(to: Point(x: 840, y: 290), steps: 4)  // images
        h.move(to: Point(x: 840, y: 170), steps: 4)  // any
        #expect(h.engine.currentSession?.highlighted == "any")
        h.release()
        #expect(h.scene.snapshot()["any"]?.count == 2)
        h.press(at: row(1, x: 420))  // a note alone
        h.move(to: Point(x: 840, y: 50), steps: 6)  // plain takes html
        #expect(h.engine.currentSession?.highlighted == "plain")
        h.release()
        expectClean(h, a)
    }

    @Test("A1: moving straight from one scroll list's edge into the next hands autoscroll over")
    func autoscrollHandOver() throws {
        let (h, a) = try audited(AuditFixtures.mixed())
        h.press(at: row(0, x: 100))
        h.move(to: Point(x: 250, y: 450), steps: 6)  // upper: middle
        h.move(to: Point(x: 250, y: 610), steps: 2)  // upper: bottom zone
        h.advance(by: .milliseconds(400))
        h.move(to: Point(x: 250, y: 630))  // lower: top zone (nothing above to scroll to)
        h.advance(by: .milliseconds(200))
        h.move(to: Point(x: 250, y: 800))  // lower: bottom zone
        h.advance(by: .milliseconds(400))
        h.move(to: Point(x: 250, y: 700))
        h.release()
        #expect(h.feedback.contains(.autoscrollStopped("upper")))
        #expect(h.feedback.contains(.autoscrollStarted("lower")))
        #expect((h.scene.scrollOffsets["upper"] ?? 0) > 0 && (h.scene.scrollOffsets["lower"] ?? 0) > 0)
        expectClean(h, a)
    }

    @Test("F6: an item joining from the list under the pointer turns that list's highlight off")
    func joiningFromListUnderPointer() throws {
        let (h, a) = try audited(AuditFixtures.reminders())
        h.press(at: row(0, x: 100))
        h.move(to: Point(x: 560, y: 300), steps: 8)
        #expect(h.engine.currentSession?.highlighted == "work")
        h.tap(at: row(0, x: 420))  // w0 joins: 'work' is now a source not yet left
        #expect(h.engine.currentSession?.highlighted == nil)
        h.move(to: Point(x: 900, y: 650), steps: 4)
        h.move(to: Point(x: 560, y: 300), steps: 4)
        #expect(h.engine.currentSession?.highlighted == "work")
        h.release()
        expectClean(h, a)
    }

    @Test("S2, A1, F7: a drag from another app copies on drop, and leaving mid-autoscroll stops it")
    func externalDropAndExit() throws {
        let (h, a) = try audited(AuditFixtures.reminders())
        let foreign = DragItem(
            id: "mail-1", name: "Mail", kind: Noun("reminder"), types: [AuditFixtures.reminder], app: "Mail")
        try h.externalDragEnter([foreign], at: Point(x: 950, y: 650))
        h.move(to: Point(x: 560, y: 300), steps: 5)
        h.release()
        #expect(h.scene.snapshot()["work"]?.count == 4)
        try h.externalDragEnter([foreign], at: Point(x: 950, y: 650))
        h.move(to: Point(x: 250, y: 610), steps: 5)
        h.advance(by: .milliseconds(300))
        h.externalDragExit()
        try h.externalDragEnter([foreign], at: Point(x: 950, y: 650))
        h.release()  // over nothing: nothing to return to here
        h.undo()
        expectClean(h, a)
    }
}
