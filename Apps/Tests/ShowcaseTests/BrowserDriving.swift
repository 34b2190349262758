import Foundation
import DriverProtocol
import WindowDriver

/// A browser session of the tests (``BrowserSession``: Chromium; ``FirefoxSession``): the
/// `/source.html` page's window to drag from, the `/drop.html` zone's window to drop on, both
/// served by ``server``, read through their titles.
protocol BrowserDriving: AnyObject {
    var display: XDisplay { get }
    var server: LoopbackServer { get }
    var pointer: Pointer { get }
    /// The X windows of the source page and of the drop zone.
    var source: String { get }
    var zone: String { get }
    var sourceBrowser: BrowserWindows { get }
    var zoneBrowser: BrowserWindows { get }
}

extension BrowserDriving {
    /// The source page's report (element frames in the page, its offset in the window).
    func sourcePage(loaded: Bool = false) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(20)
        while true {
            let page = try sourceBrowser.titleJSON(of: source, prefix: "SOURCE")
            if !loaded || page["loaded"] as? Bool == true || Date() > deadline { return page }
            usleep(100_000)
        }
    }

    /// The centre of element `id` of the source page on the screen; `dx` from its left edge
    /// instead when given.
    func point(of id: String, dx: Double? = nil) throws -> ScreenPoint {
        try focusSource()
        let page = try sourcePage(loaded: id == "slow")
        guard let frame = page[id] as? [Double], frame.count == 4 else {
            throw DriverError("The source page reports no frame for '\(id)': \(page)")
        }
        var offset = page["offset"] as? [Double] ?? [0, 0]
        let window = try sourceBrowser.frame(of: source)
        // On Wayland a browser's outer size includes the shadow it draws around its window,
        // which the frame (the compositor's opaque part) leaves out: the page starts where the
        // frame's size exceeds the page's (the toolbars above it).
        if display.backend == .wayland, let inner = page["inner"] as? [Double], inner.count == 2 {
            offset = [window.width - inner[0], window.height - inner[1]]
        }
        return (
            window.x + offset[0] + frame[0] + (dx ?? frame[2] / 2), window.y + offset[1] + frame[1] + frame[3] / 2
        )
    }

    /// Gives the source page's window the keyboard focus, as the click of a person starting a
    /// drag there would (without a window manager nothing else does; a Chromium window without
    /// the focus after another app had it was seen to start drags that no window received).
    /// On Wayland the press that starts the drag gives the window the keyboard (weston focuses
    /// the window clicked); a click of ours before it would clear the page's selection, or, on
    /// Firefox's tab strip, start moving the window.
    func focusSource() throws {
        guard display.backend == .x11 else { return }
        try display.xdotool(["windowfocus", "--sync", source])
    }

    /// A drag out of the source page, at the pace Chromium needs: the pointer rests on the
    /// element, presses, moves a few pixels with pauses (the page decides it is a drag), then
    /// travels to `to`, rests there and releases.
    func dragFromPage(_ from: ScreenPoint, to: ScreenPoint) throws {
        var commands = ["mousemove"] + Pointer.at(from) + ["sleep", "0.3", "mousedown", "1", "sleep", "0.2"]
        for step in 1...3 {
            commands +=
                ["mousemove"] + Pointer.at((from.x + Double(4 * step), from.y + Double(3 * step))) + ["sleep", "0.15"]
        }
        for step in 1...12 {
            let t = Double(step) / 12
            commands +=
                ["mousemove"] + Pointer.at((from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t)) + [
                    "sleep", "0.06",
                ]
        }
        commands += ["mousemove"] + Pointer.at((to.x + 1, to.y)) + ["sleep", "0.3", "mousemove"] + Pointer.at(to)
        commands += ["sleep", "0.4", "mouseup", "1"]
        try display.xdotool(commands)
    }

    /// A drag out of the source page into the showcase, played again (at most twice more) when
    /// the showcase saw no drag enter: Chromium finds the window under the pointer in its own
    /// cache of the screen's windows, which can still hold the showcase window of the test
    /// before (same place, now destroyed), so a drag may go to no window at all. That is the
    /// browser's cache, not what the tests check: what arrives and what the person sees.
    func dragFromPage(_ from: ScreenPoint, to: ScreenPoint, into app: ShowcaseProcess) throws {
        for attempt in 1...3 {
            let mark = app.lineCount
            try dragFromPage(from, to: to)
            let entered = try? app.waitFor("the drag entering the showcase", after: mark, timeout: 3) { _ in
                app.messages(from: mark).contains { $0.hasPrefix("external drag-enter") }
            }
            if entered != nil || attempt == 3 { return }
            usleep(1_500_000)
        }
    }

    /// Where to drop on the drop zone.
    func zoneCenter() throws -> ScreenPoint { try zoneBrowser.frame(of: zone).center }

    /// How many drops the zone reported so far.
    func dropCount() throws -> Int {
        let title = zoneBrowser.withoutSuffix(try zoneBrowser.title(of: zone))
        guard title.hasPrefix("DROP ") else { return 0 }
        return Int(title.dropFirst(5).prefix { $0.isNumber }) ?? 0
    }

    /// What the zone received in drop number `number`.
    func drop(_ number: Int) throws -> [String: Any] {
        try zoneBrowser.titleJSON(of: zone, prefix: "DROP \(number) ", timeout: 20)
    }
}
