import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// One private display, one loopback web server and one Chromium for the whole suite (the
/// browser's first start takes seconds): a source page (`/source.html`: a photo, a slowly served
/// photo, a link, a bold word) and a drop-zone page (`/drop.html`) whose title reports what a
/// drop brought (``BrowserPages``). Stopped when the test process exits.
final class BrowserSession: BrowserDriving, @unchecked Sendable {
    static let shared = Result { try BrowserSession() }
    nonisolated(unsafe) private static var started: BrowserSession?

    let display: XDisplay
    let server: LoopbackServer
    let chromium: Chromium
    /// The windows of the source page and of the drop zone.
    let source: String
    let zone: String
    let pointer: Pointer

    private init() throws {
        display = try XDisplay.startPrivate(width: 1800, height: 1000)
        do {
            server = try BrowserPages.server()
            chromium = try Chromium(
                display: display, url: server.url("/source.html"), title: "^SOURCE ", position: (1060, 0),
                size: (700, 470))
            source = try chromium.window(titled: "^SOURCE ")
            try chromium.place(source, at: (1060, 0))
            zone = try chromium.open(
                url: server.url("/drop.html"), title: "^ZONE", position: (1060, 500), size: (700, 470))
        } catch {
            display.stop()
            throw error
        }
        pointer = Pointer(display: display)
        Self.started = self
        atexit { BrowserSession.started?.stop() }
    }

    func stop() {
        chromium.stop()
        server.stop()
        display.stop()
    }

    var sourceBrowser: BrowserWindows { chromium }
    var zoneBrowser: BrowserWindows { chromium }
}

@Suite(
    "Showcase: a real browser (Chromium) both ways", .serialized,
    .enabled(
        if: Tools.xvfb != nil && Tools.xdotool != nil && Chromium.executable != nil,
        "Xvfb, xdotool or Chromium is not installed (run `make deps`): browser tests skipped.")
)
struct BrowserTests: ShowcaseTesting {
    /// The showcase on the suite's display, left of the browser's windows.
    private func withShowcase(
        pane: String, _ body: (ShowcaseProcess, BrowserSession, String) throws -> Void
    ) throws {
        let session = try BrowserSession.shared.get()
        try withDataDirectory { data in
            let app = try ShowcaseProcess.launch(
                executable: try Self.showcaseExecutable(), dataDirectory: data, display: session.display, pane: pane,
                size: (1000, 720))
            defer { app.stop() }
            _ = try app.settledLayout(pane: pane)
            // Chromium's drags find the window under the pointer in a cache of the screen's
            // windows that learns of a new window only after a moment: a drag started at once
            // went to no window.
            usleep(2_000_000)
            try body(app, session, data)
            expectNoGLibProblems(app)
        }
    }

    private func int(_ value: Any?) -> Int { value as? Int ?? Int(value as? Double ?? -1) }

    // MARK: Browser → showcase

    @Test(
        "A2, S2, A4, U1: a photo dragged from a page in Chromium into the new message arrives as the page's PNG; Chromium offers its http address, bytes and <img> but no image type, and the body downloads the address behind a placeholder; Ctrl+Z takes it out"
    )
    func photoFromChromiumIntoMessage() throws {
        try withShowcase(pane: "web-mail") { app, session, _ in
            let body = try app.settledLayout(pane: "web-mail").list("Body")
            let downloads = session.server.requestedPaths.filter { $0 == "/photo.png" }.count
            let mark = app.lineCount
            try session.dragFromPage(try session.point(of: "photo"), to: (body.x + 150, body.midY), into: app)
            let line = try app.waitFor(StateLine.self, "the photo in the message", after: mark, timeout: 20) {
                $0.received != nil
            }
            let received = try #require(line.received)
            #expect(received.type == "image/png")
            #expect(received.size == BrowserPages.photo.count, "the page's PNG, byte for byte in size")
            #expect(received.origin == "web", "downloaded by its address")
            #expect(received.name == "photo.png")
            // X11 says which app a drag comes from; on Wayland nothing does.
            #expect(received.from == (session.display.backend == .wayland ? "another app" : "Chromium"))
            #expect(received.operation == "copy", "S2: another app copies")
            #expect(
                session.server.requestedPaths.filter { $0 == "/photo.png" }.count > downloads, "the showcase fetched it"
            )
            let gtk = app.messages(from: mark)
            let enter = try #require(gtk.first { $0.hasPrefix("external drag-enter") })
            #expect(
                enter.contains("text/x-moz-url") && !enter.contains("image/png"),
                "Chromium offers no image type: \(enter)")
            // The state line can come before the resolved placeholder's events are written.
            try app.waitFor(FeedbackLine.self, "the drop committed", after: mark) { $0.event == "committed" }
            let events = app.events(from: mark).map(\.event)
            #expect(events.contains("highlightOn"), "F4: the body showed it takes the drag")
            for event in ["placeholderInserted", "placeholderResolved", "committed"] {
                #expect(events.contains(event), "A4: \(event) (events: \(events))")
            }
            let state = try app.waitForState("the undo step", after: mark) { $0.undo == "Undo Copy Image" }
            #expect(state.undo == "Undo Copy Image", "named after what Chromium offers")

            _ = try app.settledLayout(pane: "web-mail")
            try app.focusWindow()
            let undo = app.lineCount
            try session.pointer.key("ctrl+z")
            try app.waitFor(StateLine.self, "the photo taken out", after: undo) {
                $0.received == nil
            }
        }
    }

    @Test(
        "A4, A5, A6: a slow download shows a placeholder with its progress in the message; Cancel stops it and the message is as it was"
    )
    func slowPhotoCanBeCancelled() throws {
        try withShowcase(pane: "web-mail") { app, session, _ in
            let body = try app.settledLayout(pane: "web-mail").list("Body")
            let mark = app.lineCount
            try session.dragFromPage(try session.point(of: "slow"), to: (body.x + 150, body.midY), into: app)
            try app.waitFor(FeedbackLine.self, "a download under way", after: mark, timeout: 15) {
                $0.event == "placeholderProgress"
                    && $0.fraction.map { $0 > 0 && $0 < 0.8 } == true
            }
            let shown = try #require(app.lines(StateLine.self, from: mark).last)
            #expect(
                (shown.loading)?.hasPrefix("Downloading the photo… ") == true,
                "the placeholder says so: \(shown)")
            let layout = try app.waitFor(LayoutLine.self, "the placeholder's Cancel button", after: mark, timeout: 10) {
                $0.lists?["Cancel"] != nil
            }
            let cancel = try #require(
                ScreenRect(
                    try #require(layout.lists?["Cancel"] ?? nil),
                    from: (
                        app.window.x + ((layout.surface)?.first ?? 0),
                        app.window.y + ((layout.surface)?.last ?? 0)
                    )))
            try session.pointer.click(at: cancel.center)
            try app.waitFor(FeedbackLine.self, "the drop failed as cancelled", after: mark, timeout: 10) {
                $0.event == "placeholderFailed"
            }
            let state = try app.waitFor(StateLine.self, "the placeholder gone", after: mark) {
                $0.loading == nil
            }
            #expect(state.received == nil, "A6: nothing was added")
            let fractions = app.events(from: mark).filter { $0.event == "placeholderProgress" }
                .compactMap { $0.fraction }
            #expect(fractions.contains { $0 > 0 && $0 < 1 }, "A5: progress between 0 and 1 was reported: \(fractions)")
            let status = app.lines(StatusLine.self, from: mark).last?.text ?? ""
            #expect(status.lowercased().contains("cancel"), "the person is told it was cancelled: \(status)")
        }
    }

    @Test(
        "A7, C3, C4: a link dragged from Chromium into a note becomes a link (stored; Ctrl+click, or Open Link in the edit menu, opens it); a selection with a bold word arrives bold, sanitised"
    )
    func linkAndStyledTextFromChromiumIntoNotes() throws {
        try withShowcase(pane: "notes") { app, session, data in
            let layout = try app.settledLayout(pane: "notes")
            let sourdough = try layout.list("Sourdough")
            let address = session.server.url("/article.html")
            var mark = app.lineCount
            try session.dragFromPage(try session.point(of: "link"), to: (sourdough.midX, sourdough.maxY - 60), into: app)
            try app.waitForState("the link in Sourdough, one undo step", after: mark, timeout: 15) {
                $0.lists["Sourdough"]?.first?.contains("<a href=\"\(address)\">\(BrowserPages.linkText)</a>") == true
                    && $0.undo == "Undo Copy Link"
            }
            let store = try ShowcaseStore(path: data + "/showcase.sqlite", seed: false)
            let notes = try #require(try store.collection(pane: .notes, key: "notes"))
            let payloads = try store.items(in: notes.id ?? 0).compactMap { item -> NotePayload? in
                item.payload.flatMap { try? JSONDecoder().decode(NotePayload.self, from: $0) }
            }
            #expect(
                payloads.contains { $0.runs.contains { $0.styles.contains("link") && $0.link == address } },
                "the note's link is saved in the store")

            // The link is something a person can use: Ctrl+click opens it (the tour prints it).
            // The layout line that shows the new words can come a moment after the state line.
            let isHarbour = { (title: String) in title.hasPrefix("Harbour") || title.hasSuffix("Harbour") }
            try app.waitFor(LayoutLine.self, "the link's words laid out", after: mark) { line in
                line.rows?["Sourdough"]?.contains { isHarbour($0.title) } == true
            }
            let words = try #require(app.latestLayout?.rows["Sourdough"])
            let word = try #require(words.last { isHarbour($0.title) })
            mark = app.lineCount
            try session.pointer.click(at: (word.frame.midX, word.frame.midY), holding: ["ctrl"])
            let opened = try app.waitFor(LinkLine.self, "the link opened", after: mark)
            #expect(opened.opened == address)
            // Without a pointer (C4): with the caret on the link, the note's edit menu has Open Link.
            try app.focusWindow()
            try session.pointer.click(at: (word.frame.midX, word.frame.midY))
            let menu = try openEditMenu(app, session.pointer)
            #expect(menu.items.first { !$0.hasPrefix("Undo") && !$0.hasPrefix("Redo") } == "Open Link", "\(menu)")
            mark = app.lineCount
            try choose("Open Link", in: menu.items, app, session.pointer)
            let chosen = try app.waitFor(LinkLine.self, "the link opened from the menu", after: mark)
            #expect(chosen.opened == address)

            // Styled text: the paragraph selected in the page, dragged into the other note.
            let book = try layout.list("Book club: March")
            try session.pointer.click(at: try session.point(of: "styled", dx: 30), count: 3)
            mark = app.lineCount
            try session.dragFromPage(try session.point(of: "styled", dx: 20), to: (book.midX, book.maxY - 60), into: app)
            let styled = try app.waitForState("the styled text in Book club", after: mark, timeout: 15) {
                $0.lists["Book club: March"]?.first?.contains("<b>\(BrowserPages.boldWord)</b> at 250 degrees") == true
            }
            let html = styled.lists["Book club: March"]?.first ?? ""
            #expect(!html.contains("style=") && !html.contains("<span"), "sanitised: only what a note shows: \(html)")
        }
    }

    @Test(
        "S1, A4, U1: a photo dragged from Chromium onto a Files folder is saved there under its name, with the page's bytes (as XDS would); Ctrl+Z removes it"
    )
    func photoFromChromiumIntoFiles() throws {
        try withShowcase(pane: "files") { app, session, data in
            let (name, saved, before, mark) = try dragPhoto("photo", ontoPicturesOf: app, session, data: data)
            #expect(name == "photo.png")
            #expect(try Data(contentsOf: saved) == BrowserPages.photo, "the page's bytes")
            let events = app.events(from: mark).map(\.event)
            #expect(events.contains("placeholderInserted") && events.contains("committed"), "A4: \(events)")

            _ = try app.settledLayout(pane: "files")
            try app.focusWindow()
            let undo = app.lineCount
            try session.pointer.key("ctrl+z")
            try app.waitForState("the photo taken out of Pictures", after: undo) { $0.lists["Pictures"] == before }
            #expect(!FileManager.default.fileExists(atPath: saved.path))
        }
    }

    @Test(
        "S1, A2, A6: a photo whose server has gone since the page showed it, dragged from Chromium onto a Files folder, is saved from the bytes Chromium sends"
    )
    func photoFromChromiumWithItsServerGoneIntoFiles() throws {
        try withShowcase(pane: "files") { app, session, data in
            // The page loaded /gone.png once; the server now answers 404 for it.
            let (name, saved, _, _) = try dragPhoto("gone", ontoPicturesOf: app, session, data: data)
            #expect(name == "gone.png", "named after its address")
            #expect(try Data(contentsOf: saved) == BrowserPages.gonePhoto, "the bytes Chromium showed")
        }
    }

    /// Drags the source page's picture `id` onto Pictures and waits until one new file is saved
    /// there as one undo step; returns its name and path, what Pictures held before, and the
    /// showcase's line count before the drag.
    private func dragPhoto(_ id: String, ontoPicturesOf app: ShowcaseProcess, _ session: BrowserSession, data: String)
        throws -> (name: String, saved: URL, before: [String], mark: Int)
    {
        let pictures = try app.settledLayout(pane: "files").list("Pictures")
        let before = try #require(app.state?.lists["Pictures"])
        let mark = app.lineCount
        try session.dragFromPage(try session.point(of: id), to: (pictures.midX, pictures.maxY - 60), into: app)
        let state = try app.waitForState("the picture saved in Pictures", after: mark, timeout: 20) {
            ($0.lists["Pictures"] ?? []).count == before.count + 1 && $0.undo == "Undo Copy Image"
        }
        let name = try #require(Set(state.lists["Pictures"] ?? []).subtracting(before).first)
        return (name, URL(fileURLWithPath: data).appendingPathComponent("Files/Pictures/\(name)"), before, mark)
    }

    // MARK: Showcase → browser

    @Test(
        "P5, P1, P3: a photo dragged from the Web Page window onto Chromium's drop zone arrives as a File 'Beach.png' (image/png) with the bytes of a file written only at the drop, in a private cache"
    )
    func photoIntoChromium() throws {
        let session = try BrowserSession.shared.get()
        try withDataDirectory { data in
            let page = try ShowcaseProcess.launch(
                executable: try Self.showcaseExecutable(), dataDirectory: data, display: session.display,
                size: (300, 520), at: (0, 0), extraArguments: ["--role", "page"], windowName: "^Web Page$")
            defer { page.stop() }
            let beach = try page.settledLayout(pane: "page").list("Beach")
            let exports = URL(fileURLWithPath: data).appendingPathComponent("Drag exports")
            let number = try session.dropCount() + 1
            let mark = page.lineCount
            try session.pointer.drag(
                from: beach.center, to: try session.zoneCenter(), steps: 16, pause: 0.4, release: false)
            try page.waitFor(GtkLine.self, "Chromium asking for the file list", after: mark) {
                $0.message.hasPrefix("export file planned")
            }
            let early = regularFiles(in: exports).filter { !$0.lastPathComponent.hasPrefix(".") }
            #expect(
                early.map(\.lastPathComponent) == ["Beach.png"]
                    && early.allSatisfy { (try? Data(contentsOf: $0))?.allSatisfy { $0 == 0 } == true },
                "P5: before the drop the address names a file of zeros: \(early)")
            try session.pointer.release()
            let drop = try session.drop(number)
            let files = drop["files"] as? [[String: Any]] ?? []
            let file = try #require(files.first, "Chromium received no file: \(drop)")
            #expect(file["name"] as? String == "Beach.png")
            #expect(file["type"] as? String == "image/png")
            let written = regularFiles(in: exports)
            let path = try #require(written.first, "the file is in the private cache")
            let bytes = try Data(contentsOf: path)
            #expect(written.map(\.lastPathComponent) == ["Beach.png"])
            #expect(int(file["size"]) == bytes.count && bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            #expect(UInt32(int(file["fnv"])) == BrowserPages.fnv1a(bytes), "the page read the bytes of that file")
            #expect(permissions(path) == 0o600 && permissions(path.deletingLastPathComponent()) == 0o700, "private")
            let lines = page.messages(from: mark)
            let planned = lines.firstIndex { $0.hasPrefix("export file planned") } ?? .max
            let performed = lines.firstIndex { $0.hasPrefix("export drop performed") } ?? .max
            let wrote = lines.firstIndex { $0.hasPrefix("export file written") } ?? .max
            #expect(planned < performed && performed < wrote, "written at the drop, not at the first request: \(lines)")
            expectNoGLibProblems(page)
        }
    }

    @Test(
        "P1, C3: the Files pane's file, a note's bold word, the drawing (as PDF) and a photo dragged onto Chromium's drop zone: a File with the same bytes, text/html with <b>, Files 'House and Sun.pdf' and 'Tram 28.png'"
    )
    func filesTextDrawingAndPhotoIntoChromium() throws {
        try withShowcase(pane: "files") { app, session, data in
            // A file of the Files pane: its own path, as a File.
            let name = "Meeting notes.txt"
            let disk = try Data(
                contentsOf: URL(fileURLWithPath: data).appendingPathComponent("Files/Documents/\(name)"))
            var number = try session.dropCount() + 1
            var layout = try app.settledLayout(pane: "files")
            try session.pointer.drag(
                from: try layout.row(name, in: "Documents").center, to: try session.zoneCenter(), steps: 16, pause: 0.4)
            var drop = try session.drop(number)
            let file = try #require((drop["files"] as? [[String: Any]])?.first, "no file: \(drop)")
            #expect(file["name"] as? String == name)
            #expect(int(file["size"]) == disk.count && UInt32(int(file["fnv"])) == BrowserPages.fnv1a(disk))

            // A note's bold word: styled text.
            try app.settledLayout(pane: "files").sidebar["notes"].map { try session.pointer.click(at: $0.center) }
            layout = try app.settledLayout(pane: "notes")
            let bake = try layout.row(BrowserPages.boldWord, in: "Sourdough")
            try session.pointer.doubleClick(at: bake.center)
            number = try session.dropCount() + 1
            try session.pointer.drag(from: bake.center, to: try session.zoneCenter(), steps: 16, pause: 0.4)
            drop = try session.drop(number)
            #expect((drop["text/html"] as? String)?.contains("<b>\(BrowserPages.boldWord)</b>") == true, "\(drop)")
            #expect(drop["text/plain"] as? String == BrowserPages.boldWord)

            // The drawing: its richest form another app can use, PDF, as a file.
            try session.pointer.click(at: try #require(layout.sidebar["drawing"]).center)
            layout = try app.settledLayout(pane: "drawing")
            number = try session.dropCount() + 1
            try session.pointer.drag(
                from: try layout.list("House and Sun").center, to: try session.zoneCenter(), steps: 16, pause: 0.4)
            drop = try session.drop(number)
            let pdf = try #require((drop["files"] as? [[String: Any]])?.first, "no file: \(drop)")
            #expect(pdf["name"] as? String == "House and Sun.pdf")
            #expect(pdf["type"] as? String == "application/pdf")
            let written = regularFiles(in: URL(fileURLWithPath: data).appendingPathComponent("Drag exports"))
            let path = try #require(written.first { $0.lastPathComponent == "House and Sun.pdf" })
            let bytes = try Data(contentsOf: path)
            #expect(bytes.starts(with: Array("%PDF-".utf8)) && int(pdf["size"]) == bytes.count)
            #expect(UInt32(int(pdf["fnv"])) == BrowserPages.fnv1a(bytes))

            // A photo of the library: a PNG rendition named after it.
            try session.pointer.click(at: try #require(layout.sidebar["photos"]).center)
            layout = try app.settledLayout(pane: "photos")
            number = try session.dropCount() + 1
            try session.pointer.drag(
                from: try layout.row("Tram 28.jpg", in: "Library").center, to: try session.zoneCenter(), steps: 16,
                pause: 0.4)
            drop = try session.drop(number)
            let photo = try #require((drop["files"] as? [[String: Any]])?.first, "no file: \(drop)")
            #expect(photo["name"] as? String == "Tram 28.png")
            #expect(photo["type"] as? String == "image/png")
            #expect(int(photo["size"]) > 100)
        }
    }

    // MARK: Helpers

    private func permissions(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions]) as? NSNumber)?.intValue ?? -1
    }
}
