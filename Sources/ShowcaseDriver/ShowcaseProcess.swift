import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The shown pane's content, from the showcase's latest `state` line.
public struct ShowcaseState: CustomStringConvertible {
    /// The pane's slug ("reminders").
    public var pane: String
    /// Every list (or mailbox) of the pane, by name, with its rows' titles in order.
    public var lists: [String: [String]]
    /// The selected rows' titles, by list.
    public var selected: [String: [String]]
    /// The undo and redo commands' titles ("Undo Move 2 Reminders"), empty when unavailable.
    public var undo: String
    public var redo: String
    /// Mail: the mailbox shown.
    public var mailbox: String?

    init?(_ object: JSONObject) {
        guard object["kind"] as? String == "state", let pane = object["pane"] as? String else { return nil }
        self.pane = pane
        lists = object["lists"] as? [String: [String]] ?? [:]
        selected = object["selected"] as? [String: [String]] ?? [:]
        undo = object["undo"] as? String ?? ""
        redo = object["redo"] as? String ?? ""
        mailbox = object["mailbox"] as? String
    }

    public var description: String {
        lists.keys.sorted().map { "\($0): \(lists[$0]!)" }.joined(separator: "; ")
    }
}

/// Where things are on the screen, from the showcase's `layout` line and its window's position.
public struct ShowcaseLayout {
    public var pane: String
    public var window: ScreenRect
    public var sidebar: [String: ScreenRect] = [:]
    public var buttons: [String: ScreenRect] = [:]
    public var lists: [String: ScreenRect] = [:]
    public var rows: [String: [(title: String, frame: ScreenRect)]] = [:]
    /// The drop destinations' engine target ids by name ("Home": "collection-9").
    public var targets: [String: String] = [:]

    public func row(_ title: String, in list: String) throws -> ScreenRect {
        guard let frame = rows[list]?.first(where: { $0.title == title })?.frame else {
            throw DriverError("No row '\(title)' in '\(list)' (rows: \(rows.mapValues { $0.map(\.title) }))")
        }
        return frame
    }

    public func target(_ name: String) throws -> String {
        guard let id = targets[name] else { throw DriverError("No target named '\(name)' (targets: \(targets))") }
        return id
    }

    public func list(_ name: String) throws -> ScreenRect {
        guard let frame = lists[name] else { throw DriverError("No list '\(name)' (lists: \(lists.keys.sorted()))") }
        return frame
    }
}

/// The showcase app running in `--tour` mode on a display: its JSON lines, its window's place,
/// and waiting for what it prints.
public final class ShowcaseProcess: AppProcess, @unchecked Sendable {
    public static let windowName = "DragDrop Showcase"

    /// Launches `executable --tour --data-dir DIR` on `display`, waits for its first complete
    /// layout, and moves its window to `at`. `stderrPath`: where the app's standard error goes.
    /// `screenReader`: listens to the app on its accessibility bus.
    public static func launch(
        executable: String, dataDirectory: String, display: XDisplay, pane: String? = nil,
        size: (Int, Int) = (1100, 720), at: (Int, Int) = (0, 0), stderrPath: String? = nil, timeout: Double = 30,
        extraArguments: [String] = [], windowName: String = ShowcaseProcess.windowName,
        screenReader: ScreenReader? = nil
    ) throws -> ShowcaseProcess {
        var arguments = ["--tour", "--data-dir", dataDirectory, "--size", "\(size.0)x\(size.1)"]
        if let pane { arguments += ["--pane", pane] }
        return try ShowcaseProcess(
            executable: executable, arguments: arguments + extraArguments, display: display, stderrPath: stderrPath,
            timeout: timeout, at: at, windowName: windowName, screenReader: screenReader)
    }

    /// The latest state line.
    public var state: ShowcaseState? { objects().reversed().lazy.compactMap(ShowcaseState.init).first }

    /// Waits for a state line at or after `index` where `predicate` holds.
    @discardableResult
    public func waitForState(
        _ what: String, after index: Int, timeout: Double = 10, where predicate: (ShowcaseState) -> Bool
    ) throws -> ShowcaseState {
        let line = try waitFor(what, after: index, timeout: timeout) { object in
            ShowcaseState(object).map(predicate) ?? false
        }
        return ShowcaseState(line)!
    }

    /// The latest layout line's frames as they are now (not waiting for them to settle).
    public var latestLayout: ShowcaseLayout? {
        objects().last { $0["kind"] as? String == "layout" }.flatMap(parseLayout)
    }

    /// The latest layout of `pane`, once no new layout line arrived for `quiet` seconds (rows
    /// making room have settled), in screen coordinates.
    public func settledLayout(pane: String, quiet: Double = 0.35, timeout: Double = 10) throws -> ShowcaseLayout {
        let deadline = Date().addingTimeInterval(timeout)
        var watch = QuietLine(kind: "layout", quiet: quiet)
        while Date() < deadline {
            if let line = watch.settled(in: self), line["pane"] as? String == pane, let layout = parseLayout(line) {
                return layout
            }
            usleep(20_000)
        }
        throw DriverError("The layout of '\(pane)' did not settle within \(timeout) s. Last lines:\n\(recentLines())")
    }

    private func parseLayout(_ object: JSONObject) -> ShowcaseLayout? {
        // The layout is in window coordinates: on X11 the X window plus the offset of the content
        // in its surface (a compositing window manager's shadow); on Wayland where the content
        // was found (GTK's shadow changes with the focus, the content stays put).
        let surface = object["surface"] as? [Double] ?? [0, 0]
        let origin =
            display.backend == .wayland
            ? (x: content.x, y: content.y) : (x: window.x + (surface.first ?? 0), y: window.y + (surface.last ?? 0))
        func rects(_ value: Any?) -> [String: ScreenRect] {
            (value as? [String: Any] ?? [:]).compactMapValues { ScreenRect(printed: $0, from: origin) }
        }
        guard let pane = object["pane"] as? String, let rows = ScreenRect.rows(printed: object["rows"], from: origin)
        else { return nil }
        var layout = ShowcaseLayout(pane: pane, window: window)
        layout.sidebar = rects(object["sidebar"])
        layout.buttons = rects(object["buttons"])
        layout.lists = rects(object["lists"])
        layout.targets = object["targets"] as? [String: String] ?? [:]
        layout.rows = rows
        return layout
    }
}
