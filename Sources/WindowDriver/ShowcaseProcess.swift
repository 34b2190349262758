import DriverProtocol
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
    /// The whole line, with each pane's own fields.
    public var line: StateLine

    init?(_ line: StateLine) {
        guard let pane = line.pane else { return nil }
        self.pane = pane
        lists = line.lists ?? [:]
        selected = line.selected ?? [:]
        undo = line.undo ?? ""
        redo = line.redo ?? ""
        mailbox = line.mailbox
        self.line = line
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
    /// `screenReader`: listens to the app on its accessibility bus. `environment`: merged over
    /// the display's.
    public static func launch(
        executable: String, dataDirectory: String, display: XDisplay, pane: String? = nil,
        size: (Int, Int) = (1100, 720), at: (Int, Int) = (0, 0), stderrPath: String? = nil, timeout: Double = 30,
        extraArguments: [String] = [], windowName: String = ShowcaseProcess.windowName,
        screenReader: ScreenReader? = nil, environment: [String: String] = [:]
    ) throws -> ShowcaseProcess {
        var arguments = ["--tour", "--data-dir", dataDirectory, "--size", "\(size.0)x\(size.1)"]
        if let pane { arguments += ["--pane", pane] }
        return try ShowcaseProcess(
            executable: executable, arguments: arguments + extraArguments, display: display, environment: environment,
            stderrPath: stderrPath, timeout: timeout, at: at, windowName: windowName, screenReader: screenReader)
    }

    /// The latest state line.
    public var state: ShowcaseState? {
        lines().reversed().lazy.compactMap { $0.decode(StateLine.self).flatMap(ShowcaseState.init) }.first
    }

    /// Waits for a state line at or after `index` where `predicate` holds.
    @discardableResult
    public func waitForState(
        _ what: String, after index: Int, timeout: Double = 10, where predicate: (ShowcaseState) -> Bool
    ) throws -> ShowcaseState {
        let line = try waitFor(StateLine.self, what, after: index, timeout: timeout) { line in
            ShowcaseState(line).map(predicate) ?? false
        }
        guard let state = ShowcaseState(line) else { throw DriverError("The showcase's state line names no pane.") }
        return state
    }

    /// The latest layout line's frames as they are now (not waiting for them to settle).
    public var latestLayout: ShowcaseLayout? {
        last(LayoutLine.self).flatMap(parseLayout)
    }

    /// The latest layout of `pane`, once no new layout line arrived for `quiet` seconds (rows
    /// making room have settled), in screen coordinates.
    public func settledLayout(pane: String, quiet: Double = 0.35, timeout: Double = 10) throws -> ShowcaseLayout {
        let deadline = Date().addingTimeInterval(timeout)
        var watch = QuietLine(LayoutLine.self, quiet: quiet)
        while Date() < deadline {
            if let line = watch.settled(in: self), line.pane == pane, let layout = parseLayout(line) {
                return layout
            }
            usleep(20_000)
        }
        throw DriverError("The layout of '\(pane)' did not settle within \(timeout) s. Last lines:\n\(recentLines())")
    }

    private func parseLayout(_ line: LayoutLine) -> ShowcaseLayout? {
        // The layout is in window coordinates: on X11 the X window plus the offset of the content
        // in its surface (a compositing window manager's shadow); on Wayland where the content
        // was found (GTK's shadow changes with the focus, the content stays put).
        let surface = line.surface ?? [0, 0]
        let origin =
            display.backend == .wayland
            ? (x: content.x, y: content.y) : (x: window.x + (surface.first ?? 0), y: window.y + (surface.last ?? 0))
        guard let pane = line.pane, let rows = ScreenRect.rows(line.rows, from: origin) else { return nil }
        var layout = ShowcaseLayout(pane: pane, window: window)
        layout.sidebar = ScreenRect.frames(line.sidebar, from: origin)
        layout.buttons = ScreenRect.frames(line.buttons, from: origin)
        layout.lists = ScreenRect.frames(line.lists, from: origin)
        layout.targets = line.targets ?? [:]
        layout.rows = rows
        return layout
    }
}
