import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel
import Testing

/// What the interop suites share: the showcase and peers on one private display, and reading
/// what arrived on our side (its JSON lines, its status line, its store).
protocol InteropTesting: ShowcaseTesting {}

extension InteropTesting {
    /// The showcase's window: the left part of the screen (it is at least about 1000 pixels
    /// wide); peers go to the right.
    static var showcaseSize: (Int, Int) { (1000, 600) }
    /// Where a peer's window goes (right of the showcase).
    static var peerOrigin: (Int, Int) { (1040, 20) }

    /// A peer session with the showcase showing `pane` on a fresh data directory.
    func withPeers(
        pane: String, _ body: (_ session: PeerSession, _ app: ShowcaseProcess, _ pointer: Pointer, _ data: String) throws -> Void
    ) throws {
        try withDataDirectory { data in
            let session = try PeerSession.start()
            defer { session.stop() }
            let app = try ShowcaseProcess.launch(
                executable: try Self.showcaseExecutable(), dataDirectory: data, display: session.display, pane: pane,
                size: Self.showcaseSize, at: (0, 0))
            defer { app.stop() }
            _ = try app.settledLayout(pane: pane)
            try body(session, app, Pointer(display: session.display), data)
            expectNoGLibProblems(app)
        }
    }

    /// A second showcase process (another app of ours, with its own data) on the same display.
    func withOtherShowcase(
        on display: XDisplay, pane: String, at position: (Int, Int), size: (Int, Int) = (1000, 600),
        _ body: (_ other: ShowcaseProcess, _ data: String) throws -> Void
    ) throws {
        try withDataDirectory { data in
            let title = "Other Showcase"
            let other = try ShowcaseProcess.launch(
                executable: try Self.showcaseExecutable(), dataDirectory: data, display: display, pane: pane, size: size,
                at: position, extraArguments: ["--title", title], windowName: "^\(title)$")
            defer { other.stop() }
            _ = try other.settledLayout(pane: pane)
            try body(other, data)
            expectNoGLibProblems(other)
        }
    }

    /// Our Web Page window (`showcase --role page`, situation 3), its own process and app: its
    /// photos offer `image/png` to other apps.
    func withWebPage(on display: XDisplay, at position: (Int, Int), _ body: (ShowcaseProcess) throws -> Void) throws {
        try withDataDirectory { data in
            let page = try ShowcaseProcess.launch(
                executable: try Self.showcaseExecutable(), dataDirectory: data, display: display, size: (300, 520),
                at: position, extraArguments: ["--role", "page"], windowName: "Web Page")
            defer { page.stop() }
            _ = try page.settledLayout(pane: "page")
            try body(page)
            expectNoGLibProblems(page)
        }
    }

    /// The status lines printed at or after `mark`.
    func statuses(_ app: ShowcaseProcess, from mark: Int) -> [String] {
        app.lines(StatusLine.self, from: mark).compactMap { $0.text }
    }

    /// Waits for the status line that ends a drop here ("Copied …" or "Not dropped: …") and
    /// returns it.
    @discardableResult
    func waitForDropStatus(_ app: ShowcaseProcess, after mark: Int, timeout: Double = 10) throws -> String {
        let line = try app.waitFor(StatusLine.self, "the drop's status line", after: mark, timeout: timeout) {
            $0.text.hasPrefix("Copied") || $0.text.hasPrefix("Moved") || $0.text.hasPrefix("Not dropped")
        }
        return line.text
    }

    /// The feedback events named `name` at or after `mark`.
    func events(_ name: String, in app: ShowcaseProcess, from mark: Int) -> [FeedbackLine] {
        app.events(from: mark).filter { $0.event == name }
    }

    /// The drop's `committed` event at or after `mark`, waited for: the state line showing what
    /// arrived can come before it.
    func committedEvent(in app: ShowcaseProcess, from mark: Int) throws -> FeedbackLine {
        try app.waitFor(FeedbackLine.self, "the drop's committed event", after: mark, timeout: 5) { $0.event == "committed" }
    }

    /// The GTK diagnostics at or after `mark`.
    func messages(_ app: ShowcaseProcess, from mark: Int) -> [String] {
        app.lines(GtkLine.self, from: mark).compactMap { $0.message }
    }

    /// A note's HTML, as the Notes pane shows it.
    func noteHTML(_ state: ShowcaseState?, _ title: String) -> String { state?.lists[title]?.first ?? "" }

    /// A note's text and styled runs as stored.
    func storedNote(_ data: String, _ title: String) throws -> NotePayload? {
        let store = try ShowcaseStore(path: data + "/showcase.sqlite", seed: false)
        guard let collection = try store.collection(pane: .notes, key: "notes"), let id = collection.id else {
            return nil
        }
        guard let item = try store.items(in: id).first(where: { $0.title == title }), let payload = item.payload else {
            return nil
        }
        return try JSONDecoder().decode(NotePayload.self, from: payload)
    }

    /// Where dark text shows inside `rect` (a screenshot, read every 0.3 s until the text is
    /// at least `minWidth` pixels wide): where to press on another app's text when its
    /// accessible objects do not say where each line is.
    func darkText(on display: XDisplay, in rect: ScreenRect, minWidth: Double = 1, timeout: Double = 20) throws
        -> ScreenRect
    {
        // weston draws the pointer into its output, where a screenshot sees it: move it below
        // the rectangle, out of the way (X11 screenshots never show it).
        if display.backend == .wayland {
            try display.xdotool(["mousemove"] + Pointer.at((rect.x, rect.maxY + 60)) + ["sleep", "0.1"])
        }
        let deadline = Date().addingTimeInterval(timeout)
        var text: ScreenRect?
        while text == nil || text!.width < minWidth, Date() < deadline {
            usleep(300_000)
            text = try Screenshot.capture(display).bounds(in: rect) { r, g, b in r < 90 && g < 90 && b < 90 }
        }
        guard let text, text.width >= minWidth else { throw DriverError("No text showed in \(rect) within \(timeout) s.") }
        return text
    }

    /// Presses on `from` and moves to `to` without releasing (the other app sees the drag).
    func hold(_ pointer: Pointer, from: ScreenPoint, to: ScreenPoint) throws {
        try pointer.drag(from: from, to: to, steps: 12, release: false)
    }
}

/// Every message a person reads ends with exactly one full stop.
func endsWithOneFullStop(_ text: String) -> Bool {
    text.hasSuffix(".") && !text.hasSuffix("..") && !text.hasSuffix("!.") && !text.hasSuffix("?.")
        && !text.hasSuffix(":.") && !text.hasSuffix(" .")
}
