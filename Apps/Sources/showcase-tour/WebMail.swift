import Foundation
import DriverProtocol
import WindowDriver

#if canImport(Glibc)
    import Glibc
#endif

extension Tour {
    /// 3. Web page to mail: launches `showcase --role page` (another process, its own app) on the
    /// same display beside the showcase, drags a photo from it into the new message's body with
    /// real pointer events, and checks the message received `image/png` as a copy from the other
    /// app, and that the page's session ended handed off to the showcase. Ends the page process.
    func webMail(_ info: SituationInfo) throws -> Verdict {
        let layout = try open(info.slug)
        let bodyID = try layout.target("Body")
        let body = try layout.list("Body")
        let page = try ShowcaseProcess.launch(
            executable: options.showcase,
            dataDirectory: URL(fileURLWithPath: databasePath).deletingLastPathComponent().path,
            display: display, size: (300, 520), at: (Int(layout.window.maxX) - 120, 60),
            stderrPath: URL(fileURLWithPath: options.out).appendingPathComponent("web-page.log").path,
            extraArguments: ["--role", "page"], windowName: "Web Page")
        defer { _ = page.quit() }
        let pageLayout = try page.settledLayout(pane: "page")
        let photo = "Beach"
        let source = try pageLayout.list(photo)

        let mark = app.lineCount
        let pageMark = page.lineCount
        let to = (x: body.x + min(200, body.width / 3), y: body.midY)
        try pointer.drag(from: source.center, to: to, steps: 14, release: false)
        try app.waitFor(FeedbackLine.self, "the highlight on the message body", after: mark) {
            $0.event == "highlightOn" && $0.target == bodyID
        }
        usleep(300_000)
        let path = URL(fileURLWithPath: options.out)
            .appendingPathComponent(String(format: "%02d-%@.png", info.number, info.slug)).path
        try display.screenshot(to: path)
        screenshots.append(path)
        let release = app.lineCount
        try pointer.release()
        let state = try app.waitFor(StateLine.self, "the message receiving image/png", after: release, timeout: 15) {
            $0.pane == info.slug
                && $0.received?.type == "image/png"
        }
        let received = try require(state.received, "received")
        let size = received.size
        let from = received.from ?? ""
        try check(size > 100, "the message received image/png with \(size) bytes")
        try check(received.operation == "copy", "S2: the drop was a \(received.operation ?? "?")")
        try check(!from.isEmpty && from != "Showcase", "the photo did not come from another app (from '\(from)')")
        let handed = try page.waitFor(FeedbackLine.self, "the page's drag handed off", after: pageMark, timeout: 10) {
            $0.event == "outcome"
        }
        try check(
            handed.outcome == "handedOff",
            "the page's drag ended \(handed.outcome ?? "?"), not handed off: \(handed)")
        // The drag-end is the page's (the source's): wait for it there, then for the showcase to settle.
        try page.waitForDragEnd(after: pageMark)
        _ = try app.settledLayout(pane: info.slug)
        try check(page.quit() == 0, "the Web Page process did not quit cleanly; see web-page.log")

        // U1: Ctrl+Z takes the photo out of the message again (the page is gone by now: the
        // message kept its own copy of the bytes).
        let undo = app.lineCount
        try pointer.key("ctrl+z")
        try app.waitFor(StateLine.self, "the photo taken out of the message", after: undo) {
            $0.pane == info.slug && $0.received == nil
        }
        return .ok(
            "dragged '\(photo)' from the Web Page process into the new message: it received image/png "
                + "(\(size) bytes) as a copy from '\(from)'; the page's drag was handed off (to '\(handed.app ?? "?")'); "
                + "Ctrl+Z took it out again")
    }
}
