import DragDrop
import DragDropTesting
import Foundation
import Synchronization
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

    @Test(
        "S4, U1: a destination that learns from the data what arrived names it: the announcement and the undo step say the arrivals, not the dragged item"
    )
    func arrivalsAreNamed() throws {
        let h = try DragHarness(scene: Self.photoScene(transfer: SimulatedTransfer(duration: .seconds(60), steps: 1)))
        Self.dragPhoto1ToAlbum(h)
        let token = DropToken(rawValue: 1)
        let mark = h.feedback.count
        h.engine.completeDeferredDrop(
            token, with: .committed(undo: UndoableAction(undo: {}, redo: {})), arrived: ["Harbour.png", "Pier.png"])
        #expect(h.feedback[mark...].contains(.announcement("Moved 2 photos to Album 'Trips'.")), "\(h.feedback[mark...])")
        #expect(h.engine.undoStack.undoActionName == "Move 2 Photos")

        let one = try DragHarness(scene: Self.photoScene(transfer: SimulatedTransfer(duration: .seconds(60), steps: 1)))
        Self.dragPhoto1ToAlbum(one)
        let start = one.feedback.count
        one.engine.completeDeferredDrop(token, with: .committed(undo: UndoableAction(undo: {}, redo: {})), arrived: ["Harbour 2.png"])
        #expect(one.feedback[start...].contains(.announcement("Moved 'Harbour 2.png' to Album 'Trips'.")))
        #expect(one.engine.undoStack.undoActionName == "Move Photo")
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
        var events: [FeedbackEvent] = []
        func dragEngine(_ engine: DragEngine, perform drop: DropRequest) -> DropResult {
            requests.append(drop)
            return .deferred(placeholders: drop.items.count)
        }
        func dragEngine(_ engine: DragEngine, itemProviderFor item: TargetID) -> ItemProvider? { provider }
        func dragEngine(_ engine: DragEngine, emitted event: FeedbackEvent) { events.append(event) }
        /// The sentences said since `mark`.
        func said(from mark: Int) -> [String] {
            events[mark...].compactMap { if case .announcement(let a) = $0 { a.text } else { nil } }
        }
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

    @Test(
        "F4, S1: a drag from another app that leaves over a note (no move off it first, as on Wayland) un-highlights it and says it is no longer over a drop point; leaving from nowhere says nothing"
    )
    func externalExitSaysWhereItIs() throws {
        let destination = LoadingDestination()
        let engine = try Self.notesEngine(destination)
        let item = DragItem(id: "web-1", name: "Selection", types: [.html], app: "Browser")
        let provider = ItemProvider(app: "Browser", representations: [.text(.html, "<b>Hi</b>")])
        try engine.beginExternalDrag(items: [item], providers: [provider], at: Point(x: 450, y: 50))
        #expect(destination.said(from: 0).last == "Over Other note, will copy.")
        var mark = destination.events.count
        engine.externalDragExited()
        #expect(engine.currentSession == nil)
        #expect(destination.events[mark...].contains(.highlight("other", on: false)))
        #expect(destination.said(from: mark) == ["Not over a drop point."])
        #expect(!destination.events[mark...].contains { if case .outcome = $0 { true } else { false } }, "nothing dropped")

        // Entered where nothing takes it, and left: nothing to take back.
        try engine.beginExternalDrag(items: [item], providers: [provider], at: Point(x: 350, y: 50))
        mark = destination.events.count
        engine.externalDragExited()
        #expect(destination.said(from: mark).isEmpty)
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

    @Test("A6, P3: a source that disappears mid-transfer leaves a failed placeholder and the source intact")
    func sourceDisappearsMidTransfer() async throws {
        // The photo's bytes come from a stream that breaks after 3 of 8 chunks (the source app quit).
        let chunk = Data(repeating: 0x42, count: 64 << 10)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let reads = ReadCounter()
        let provider = ItemProvider(
            app: "App",
            representations: [
                Representation(.png, size: Int64(8 * chunk.count)) {
                    .stream(
                        ClosureSource(size: Int64(8 * chunk.count)) { _ in
                            let n = reads.next()
                            if n == 0 { return png + chunk.dropFirst(png.count) }
                            if n < 3 { return chunk }
                            throw TransferError.sourceUnavailable("the Photos app quit")
                        })
                }
            ])
        let spoolDir = FileManager.default.temporaryDirectory.appendingPathComponent("dd-spool-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: spoolDir) }
        let h = try DragHarness(scene: Self.photoScene(transfer: nil))
        h.engine.spool = try SpoolDirectory(path: spoolDir)
        let destination = AsyncAlbum(harness: h, provider: provider)
        h.engine.delegate = destination
        Self.dragPhoto1ToAlbum(h)
        let request = try #require(destination.request)
        // The destination loads without blocking; the engine shows the placeholder meanwhile.
        #expect(h.engine.pendingDeferredDrops == [request.token])
        let target = spoolDir + "/../dd-received-\(UUID().uuidString).png"
        await #expect(throws: TransferError.sourceUnavailable("the Photos app quit")) {
            _ = try await request.data.load(item: 0, accepting: [.png], options: LoadOptions(target: .file(path: target), spoolThreshold: 0))
        }
        h.engine.completeDeferredDrop(request.token, with: .failed(TransferError.sourceUnavailable("the Photos app quit").dropFailure))
        #expect(reads.count == 4)
        #expect(destination.events.contains(.placeholderFailed(request.token, DropFailure(.failed, "The source stopped providing the data: the Photos app quit."))))
        #expect(!destination.events.contains { if case .sourceRemoved = $0 { return true } else { return false } })
        // Nothing partial anywhere: no received file, nothing left in the spool; the library keeps its photo.
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(try FileManager.default.contentsOfDirectory(atPath: spoolDir).isEmpty)
        #expect(h.scene.snapshot()["library"] == ["photo1", "photo2", "photo3"])
        #expect(h.scene.snapshot()["album"] == ["beach"])
        #expect(h.engine.pendingDeferredDrops.isEmpty)
    }

    /// Counts reads of a stream from any thread.
    final class ReadCounter: Sendable {
        private let value = Mutex(0)
        func next() -> Int { value.withLock { v in defer { v += 1 }; return v } }
        var count: Int { value.withLock { $0 } }
    }

    /// An album that defers every drop and lets the test run the load.
    final class AsyncAlbum: DragEngineDelegate {
        let harness: DragHarness
        let provider: ItemProvider
        var request: DropRequest?
        var events: [FeedbackEvent] = []
        init(harness: DragHarness, provider: ItemProvider) {
            self.harness = harness
            self.provider = provider
        }
        func dragEngine(_ engine: DragEngine, perform drop: DropRequest) -> DropResult {
            request = drop
            return .deferred(placeholders: drop.items.count)
        }
        func dragEngine(_ engine: DragEngine, itemProviderFor item: TargetID) -> ItemProvider? { provider }
        func dragEngine(_ engine: DragEngine, emitted event: FeedbackEvent) { events.append(event) }
    }
}
