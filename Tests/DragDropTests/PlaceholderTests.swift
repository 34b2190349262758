import DragDrop
import DragDropTesting
import Foundation
import Testing

/// Deferred drops: placeholders, progress, late commit or failure (A4, A5, A6, S4, P5).
@Suite("Placeholders and data at the drop")
struct PlaceholderTests {
    /// Two photo lists side by side; `album` loads slowly.
    static func photoScene(transfer: SimulatedTransfer?, failure: String? = nil) throws -> Scene {
        var window = SceneNode(id: "window", name: "Photos", role: .group, frame: Rect(x: 0, y: 0, width: 800, height: 600))
        var library = SceneNode(id: "library", name: "Library", role: .container, frame: Rect(x: 0, y: 0, width: 380, height: 600))
        library.accepts = ["image/png"]
        library.layout = .vertical
        for i in 1...3 {
            var photo = SceneNode(id: TargetID("photo\(i)"), name: "Photo \(i)", role: .item)
            photo.offers = ["image/png"]
            photo.kind = Noun("photo")
            library.children.append(photo)
        }
        var album = SceneNode(id: "album", name: "Album 'Trips'", role: .container, frame: Rect(x: 400, y: 0, width: 380, height: 600))
        album.accepts = ["image/png"]
        album.layout = .vertical
        album.policy = .preferMove
        album.transfer = transfer
        album.failure = failure
        var existing = SceneNode(id: "beach", name: "Beach", role: .item)
        existing.offers = ["image/png"]
        album.children = [existing]
        window.children = [library, album]
        return try Scene([window])
    }

    static func dragPhoto1ToAlbum(_ h: DragHarness) {
        h.press(at: Point(x: 20, y: 20))
        h.move(to: Point(x: 24, y: 20))
        h.move(to: Point(x: 500, y: 50), steps: 4)
        h.release()
    }

    @Test("A4: a placeholder appears at the drop index at once and becomes the content; S4: the source loses the item only then")
    func placeholderResolves() throws {
        let h = try DragHarness(scene: Self.photoScene(transfer: SimulatedTransfer(duration: .seconds(2), steps: 4)))
        Self.dragPhoto1ToAlbum(h)
        // At once: placeholder in the album at index 1, the photo still in the library.
        #expect(h.scene.snapshot()["album"] == ["beach", "placeholder-1-1"])
        #expect(h.scene.snapshot()["library"] == ["photo1", "photo2", "photo3"])
        let token = DropToken(rawValue: 1)
        let dropEvents = h.feedback.filter {
            if case .announcement = $0 { return false }
            return true
        }.drop { if case .dropped = $0 { return false } else { return true } }
        #expect(
            Array(dropEvents) == [
                .dropped(destination: "album", operation: .move, index: 1),
                .highlight("album", on: false),
                .insertion("album", index: nil),
                .placeholderInserted("album", token: token, index: 1, count: 1),
                .outcome(.placeholder(destination: "album", token: token)),
            ])
        #expect(h.engine.pendingDeferredDrops == [token])
        #expect(throws: PendingWorkError.self) { try h.finish() }

        let mark = h.feedback.count
        h.advance(by: .seconds(2))
        let later = h.feedback[mark...].filter {
            if case .announcement = $0 { return false }
            return true
        }
        #expect(
            Array(later) == [
                .placeholderProgress(token, fraction: 0.25),
                .placeholderProgress(token, fraction: 0.5),
                .placeholderProgress(token, fraction: 0.75),
                .placeholderProgress(token, fraction: 1),
                .placeholderResolved(token),
                .committed(destination: "album", items: ["photo1"], operation: .move, index: 1),
                .sourceRemoved(["photo1"]),
            ])
        #expect(h.scene.snapshot()["album"] == ["beach", "photo1"])
        #expect(h.scene.snapshot()["library"] == ["photo2", "photo3"])
        try h.finish()

        // U1: one undo restores both lists exactly.
        h.undo()
        #expect(h.scene.snapshot()["album"] == ["beach"])
        #expect(h.scene.snapshot()["library"] == ["photo1", "photo2", "photo3"])
        try h.finish()
    }

    @Test("A6: an interrupted transfer removes the placeholder, says why, and loses nothing")
    func placeholderFails() throws {
        let h = try DragHarness(
            scene: Self.photoScene(
                transfer: SimulatedTransfer(duration: .seconds(2), steps: 4, failAt: 0.5),
                failure: "The photo could not be downloaded."))
        Self.dragPhoto1ToAlbum(h)
        h.advance(by: .seconds(3))
        let token = DropToken(rawValue: 1)
        #expect(h.feedback.contains(.placeholderFailed(token, DropFailure(.failed, "The photo could not be downloaded."))))
        #expect(!h.feedback.contains { if case .committed = $0 { return true } else { return false } })
        #expect(!h.feedback.contains { if case .sourceRemoved = $0 { return true } else { return false } })
        #expect(h.scene.snapshot()["album"] == ["beach"])
        #expect(h.scene.snapshot()["library"] == ["photo1", "photo2", "photo3"])
        #expect(h.feedback.contains(.announcement("Not dropped: The photo could not be downloaded.")))
        #expect(!h.engine.undoStack.canUndo)
        try h.finish()
    }

    @Test("A5: progress is reported in steps and only when it changes by at least 1%")
    func progressIsThrottled() throws {
        let h = try DragHarness(scene: Self.photoScene(transfer: SimulatedTransfer(duration: .seconds(10), steps: 1)))
        Self.dragPhoto1ToAlbum(h)
        let token = DropToken(rawValue: 1)
        let mark = h.feedback.count
        h.engine.updateDeferredDrop(token, progress: 0.100)
        h.engine.updateDeferredDrop(token, progress: 0.105)  // under 1%: not reported
        h.engine.updateDeferredDrop(token, progress: 0.2)
        h.engine.updateDeferredDrop(token, progress: 7)  // clamped to 1
        #expect(
            Array(h.feedback[mark...])
                == [
                    .placeholderProgress(token, fraction: 0.1), .placeholderProgress(token, fraction: 0.2),
                    .placeholderProgress(token, fraction: 1),
                ])
        h.advance(by: .seconds(10))
        try h.finish()
    }

    /// A destination that loads the real data at the drop through `DropRequest.data`.
    final class LoadingDestination: DragEngineDelegate {
        var requests: [DropRequest] = []
        var provider: ItemProvider?
        func dragEngine(_ engine: DragEngine, perform drop: DropRequest) -> DropResult {
            requests.append(drop)
            return .deferred(placeholders: drop.items.count)
        }
        func dragEngine(_ engine: DragEngine, itemProviderFor item: TargetID) -> ItemProvider? { provider }
    }

    static func notesEngine(_ destination: LoadingDestination) throws -> DragEngine {
        let engine = DragEngine(app: "Notes", clock: VirtualClock())
        engine.delegate = destination
        var note = DragTarget(id: "note", name: "Note", frame: Rect(x: 0, y: 0, width: 300, height: 300))
        note.accepts = [.plainText, .html]
        try engine.register(note)
        var other = DragTarget(id: "other", name: "Other note", frame: Rect(x: 400, y: 0, width: 300, height: 300))
        other.accepts = [.plainText]
        try engine.register(other)
        var snippet = DragTarget(id: "snippet", name: "Snippet", frame: Rect(x: 10, y: 10, width: 100, height: 20), parent: "note")
        snippet.offers = [.html, .plainText]
        try engine.register(snippet)
        return engine
    }

    @Test("P5: a drag from another app offers types before the drop and data only after it")
    func externalDataOnlyAfterDrop() async throws {
        let destination = LoadingDestination()
        let engine = try Self.notesEngine(destination)
        let provider = ItemProvider(app: "Browser", representations: [.text(.html, "<b>Hi</b> there")])
        let item = DragItem(id: "web-1", name: "Selection", types: [.html], app: "Browser")
        try engine.beginExternalDrag(items: [item], providers: [provider], at: Point(x: 450, y: 50))
        #expect(engine.currentSession?.operation == .copy)
        engine.pointerUp(at: Point(x: 450, y: 50))
        let request = try #require(destination.requests.first)
        #expect(request.data.offeredTypes(item: 0) == [.html])
        // The plain-text note takes the converted text (A7), at the drop.
        let loaded = try await request.data.load(item: 0, accepting: [.plainText])
        #expect(loaded == .data(.utf8PlainText, Data("Hi there".utf8)))
        engine.completeDeferredDrop(request.token, with: .committed(undo: nil))
        // After the destination is done, the data can no longer be read.
        await #expect(throws: TransferError.accessFinished) { try await request.data.load(item: 0, accepting: [.plainText]) }
    }

    @Test("P5: a data access that was never opened refuses to load")
    func closedAccessRefuses() async throws {
        let access = DropDataAccess(
            providers: [ItemProvider(app: "Browser", representations: [.text(.plainText, "x")])], requester: "Notes")
        #expect(access.offeredTypes(item: 0) == [.plainText])
        await #expect(throws: TransferError.notDroppedYet) { try await access.load(item: 0, accepting: [.plainText]) }
    }

    @Test("A7: inside one app the richer styled text is delivered where the destination takes it")
    func styledTextKeepsAttributes() async throws {
        let destination = LoadingDestination()
        destination.provider = ItemProvider(
            app: "Notes", representations: [.text(.html, "<b>Bold</b>"), .text(.plainText, "Bold")])
        let engine = try Self.notesEngine(destination)
        engine.pointerDown(at: Point(x: 20, y: 15))
        engine.pointerMoved(to: Point(x: 40, y: 15))
        engine.pointerUp(at: Point(x: 40, y: 15))
        let request = try #require(destination.requests.first)
        #expect(request.operation == .move)
        let loaded = try await request.data.load(item: 0, accepting: [.html, .plainText])
        #expect(loaded == .data(.html, Data("<b>Bold</b>".utf8)))
        engine.completeDeferredDrop(request.token, with: .committed(undo: nil))
        #expect(engine.pendingDeferredDrops.isEmpty)
    }
}
