import Foundation
import DriverProtocol
import WindowDriver

#if canImport(Glibc)
    import Glibc
#endif

extension Tour {
    /// 3. Web page to mail with a real browser (`--browser`): a page served from 127.0.0.1 in
    /// Chromium, its photo dragged into the new message's body. Chromium offers no image type,
    /// only the photo's address, its bytes and an `<img>`: the body downloads the address with a
    /// placeholder (A4), and receives the page's PNG, byte for byte, as a copy from Chromium
    /// (S2). Ctrl+Z takes it out again (U1).
    func webMailFromBrowser(_ info: SituationInfo) throws -> Verdict {
        let layout = try open(info.slug)
        let bodyID = try layout.target("Body")
        let body = try layout.list("Body")
        let server = try BrowserPages.server()
        defer { server.stop() }
        let position = (Int(layout.window.maxX) - 240, 60)
        let browser = try Chromium(
            display: display, url: server.url("/source.html"), title: "^SOURCE ", position: position, size: (420, 520))
        defer { browser.stop() }
        let window = try browser.window(titled: "^SOURCE ")
        try browser.place(window, at: position)
        let page = try browser.titleJSON(of: window, prefix: "SOURCE")
        let frame = try browser.frame(of: window)
        // The page's own JSON (its title), not an app's line.
        let photo = try require(page["photo"] as? [Double], "the photo's frame in the page's title")
        let offset = page["offset"] as? [Double] ?? [0, 0]
        let from = (x: frame.x + offset[0] + photo[0] + photo[2] / 2, y: frame.y + offset[1] + photo[1] + photo[3] / 2)

        let mark = app.lineCount
        let downloadsBefore = server.requestedPaths.filter { $0 == "/photo.png" }.count
        let to = (x: body.x + min(160, body.width / 4), y: body.midY)
        try pointer.drag(from: from, to: to, steps: 16, pause: 0.3, release: false)
        try app.waitFor(FeedbackLine.self, "the highlight on the message body", after: mark) {
            $0.event == "highlightOn" && $0.target == bodyID
        }
        usleep(300_000)
        let path = URL(fileURLWithPath: options.out)
            .appendingPathComponent(String(format: "%02d-%@-browser.png", info.number, info.slug)).path
        try display.screenshot(to: path)
        screenshots.append(path)
        let release = app.lineCount
        try pointer.release()
        let state = try app.waitFor(
            StateLine.self, "the message receiving the page's photo", after: release, timeout: 20
        ) {
            $0.pane == info.slug && $0.received != nil
        }
        let received = try require(state.received, "received")
        let size = received.size
        try check(received.type == "image/png", "the message received \(received.type)")
        try check(
            size == BrowserPages.photo.count,
            "the message received \(size) bytes, not the page's \(BrowserPages.photo.count)")
        try check(
            received.origin == "web", "the photo came as '\(received.origin ?? "?")', not downloaded")
        try check(received.from == "Chromium", "the photo came from '\(received.from ?? "?")'")
        try check(received.operation == "copy", "S2: the drop was a \(received.operation ?? "?")")
        let events = app.events(from: release).compactMap { $0.event }
        try check(
            events.contains("placeholderInserted") && events.contains("placeholderResolved"),
            "A4: no placeholder while the photo downloaded (events: \(events))")
        let downloads = server.requestedPaths.filter { $0 == "/photo.png" }.count - downloadsBefore
        try check(downloads >= 1, "the showcase never downloaded /photo.png")
        _ = try app.settledLayout(pane: info.slug)

        try display.xdotool(["search", "--onlyvisible", "--name", "^DragDrop Showcase$", "windowfocus", "--sync"])
        let undo = app.lineCount
        try pointer.key("ctrl+z")
        try app.waitFor(StateLine.self, "the photo taken out of the message", after: undo) {
            $0.pane == info.slug && $0.received == nil
        }
        return .ok(
            "dragged the photo of a page in Chromium (\(server.url("/source.html"))) into the new message: Chromium "
                + "offered its address, bytes and HTML, no image type; the body downloaded it behind a placeholder and "
                + "received image/png, \(size) bytes as served, as a copy from Chromium; Ctrl+Z took it out again")
    }
}
