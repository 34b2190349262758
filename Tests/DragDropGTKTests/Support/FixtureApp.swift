import Foundation
import DriverProtocol
import WindowDriver

/// The fixture's frames, in screen coordinates.
struct Layout {
    var lists: [String: ScreenRect] = [:]
    var rows: [String: [(title: String, frame: ScreenRect)]] = [:]

    func row(_ title: String, in list: String) throws -> ScreenRect {
        guard let frame = rows[list]?.first(where: { $0.title == title })?.frame else {
            throw DriverError("No row '\(title)' in list '\(list)' in the layout \(rows)")
        }
        return frame
    }

    func list(_ id: String) throws -> ScreenRect {
        guard let frame = lists[id] else { throw DriverError("No list '\(id)' in the layout") }
        return frame
    }
}

/// The fixture app (`dragdrop-gtk-fixture`) running on a virtual display, its window placed
/// with xdotool; launched and read through WindowDriver's ``AppProcess``, with waits that
/// suspend the test instead of blocking its thread.
final class FixtureApp {
    let process: AppProcess

    var display: XDisplay { process.display }
    /// Where the window's coordinates start on the screen (its content: on Wayland, inside
    /// GTK's shadow).
    var origin: ScreenPoint { (process.content.x, process.content.y) }

    private init(process: AppProcess) { self.process = process }

    /// Launches the fixture, waits until its rows are laid out and moves its window to `at`.
    /// `screenReader`: listens to it on its accessibility bus.
    static func launch(
        on display: XDisplay, size: (Int, Int) = (640, 420), at: (Int, Int) = (60, 40),
        arguments: [String] = [], environment: [String: String] = [:], windowName: String = "DragDrop fixture",
        screenReader: ScreenReader? = nil
    ) async throws -> FixtureApp {
        FixtureApp(
            process: try AppProcess(
                executable: try Tools.fixture(), arguments: ["--size", "\(size.0)x\(size.1)"] + arguments,
                display: display, environment: environment, timeout: 20, at: at, windowName: windowName,
                screenReader: screenReader))
    }

    // MARK: Reading output

    /// How many lines the fixture printed so far (a cursor for ``waitFor(_:after:timeout:where:)``).
    var lineCount: Int { process.lineCount }

    /// The lines printed at or after `index`.
    func lines(from index: Int = 0) -> [AppLine] { process.lines(from: index) }

    /// The lines of `type` printed at or after `index`.
    func lines<E: AppEvent>(_ type: E.Type, from index: Int = 0) -> [E] { process.lines(type, from: index) }

    /// The newest line of `type`.
    func last<E: AppEvent>(_ type: E.Type) -> E? { process.last(type) }

    /// The feedback events printed at or after `index`.
    func events(from index: Int = 0) -> [FeedbackLine] { process.events(from: index) }

    /// The GTK diagnostic messages printed at or after `index`.
    func messages(from index: Int = 0) -> [String] { process.messages(from: index) }

    /// Waits for a line at or after `index` matching `predicate`; fails after `timeout` seconds
    /// with the lines seen.
    @discardableResult
    func waitFor(
        _ what: String, after index: Int = 0, timeout: Double = 10, where predicate: (AppLine) -> Bool
    ) async throws -> AppLine {
        let start = Date()
        var cursor = index
        while true {
            if let match = try process.look(for: what, after: &cursor, since: start, timeout: timeout, where: predicate) {
                return match
            }
            try await Task.sleep(for: .milliseconds(15))
        }
    }

    /// Waits for a line of `type` at or after `index` where `predicate` holds.
    @discardableResult
    func waitFor<E: AppEvent>(
        _ type: E.Type, _ what: String, after index: Int = 0, timeout: Double = 10,
        where predicate: (E) -> Bool = { _ in true }
    ) async throws -> E {
        let line = try await waitFor(what, after: index, timeout: timeout) { $0.decode(type).map(predicate) ?? false }
        guard let event = line.decode(type) else { throw DriverError("The fixture's \(E.kind) line does not decode.") }
        return event
    }

    /// Waits until GTK's drag that started at or after `index` ended (`drag-end`).
    func waitForDragEnd(after index: Int, timeout: Double = 10) async throws {
        try await waitFor("GTK's drag-end", after: index, timeout: timeout, where: AppProcess.isDragEnd)
    }

    /// Waits for a state line at or after `index` where `predicate` holds; returns its lists.
    @discardableResult
    func waitForState(
        _ what: String, after index: Int, timeout: Double = 10,
        where predicate: (_ lists: [String: [String]], _ selected: [String: [String]]) -> Bool
    ) async throws -> [String: [String]] {
        let line = try await waitFor(StateLine.self, what, after: index, timeout: timeout) { state in
            guard let lists = state.lists, let selected = state.selected else { return false }
            return predicate(lists, selected)
        }
        return line.lists ?? [:]
    }

    /// The latest state's lists.
    var lists: [String: [String]] {
        last(StateLine.self)?.lists ?? [:]
    }

    /// The newest layout line, once none newer arrived for `quiet` seconds (transitions of rows
    /// making room have ended).
    func settledLayoutLine(quiet: Double = 0.3, timeout: Double = 10) async throws -> LayoutLine {
        let deadline = Date().addingTimeInterval(timeout)
        var watch = QuietLine(LayoutLine.self, quiet: quiet)
        while Date() < deadline {
            if let line = watch.settled(in: process) { return line }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw DriverError("The fixture's layout did not settle within \(timeout) s.")
    }

    /// The latest layout of lists and rows, once settled, in screen coordinates.
    func settledLayout(quiet: Double = 0.3, timeout: Double = 10) async throws -> Layout {
        let line = try await settledLayoutLine(quiet: quiet, timeout: timeout)
        guard let rows = ScreenRect.rows(line.rows, from: origin) else {
            throw DriverError("The fixture's layout has a row without a frame: \(line)")
        }
        var layout = Layout(rows: rows)
        for (id, frame) in line.lists ?? [:] {
            guard let frame else { throw DriverError("The fixture's layout has a list without a frame: \(line)") }
            layout.lists[id] = ScreenRect(frame, from: origin)
        }
        return layout
    }

    // MARK: Ending

    /// Ends the fixture: closes its standard input (it quits at EOF), then SIGTERM, then SIGKILL.
    func stop() { process.quit(timeout: 3) }
}
