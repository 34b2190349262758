import Foundation
import DriverProtocol
import WindowDriver
import Testing

/// Frames a scene prints (`{"kind":"layout","frames":{name:[x,y,w,h]},"words":{view:{word:…}}}`),
/// in screen coordinates.
struct SceneLayout {
    var frames: [String: ScreenRect] = [:]
    var words: [String: [String: ScreenRect]] = [:]

    func frame(_ name: String) throws -> ScreenRect {
        guard let frame = frames[name] else { throw DriverError("No frame '\(name)' in \(frames.keys.sorted())") }
        return frame
    }

    func word(_ word: String, in view: String) throws -> ScreenRect {
        guard let frame = words[view]?[word] else {
            throw DriverError("No word '\(word)' in view '\(view)': \(words[view]?.keys.sorted() ?? [])")
        }
        return frame
    }
}

extension FixtureApp {
    /// Launches the fixture's `--scene NAME` on a fresh display, runs `body`, and stops both.
    static func withScene(
        _ scene: String, size: (Int, Int) = (640, 420), arguments: [String] = [],
        _ body: (FixtureApp, Pointer) async throws -> Void
    ) async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(on: display, size: size, arguments: ["--scene", scene] + arguments)
        defer { app.stop() }
        try await body(app, Pointer(display: display))
    }

    /// The newest layout line, once none arrived for `quiet` seconds, as a scene's frames.
    func settledSceneLayout(quiet: Double = 0.3, timeout: Double = 10) async throws -> SceneLayout {
        let line = try await settledLayoutLine(quiet: quiet, timeout: timeout)
        var layout = SceneLayout()
        layout.frames = ScreenRect.frames(line.frames, from: origin)
        for (view, words) in line.words ?? [:] {
            layout.words[view] = ScreenRect.frames(words, from: origin)
        }
        return layout
    }

    /// Waits until the drag that started at or after `mark` ended and the layout settled, so
    /// keys reach the window again (Ctrl+Z after a drop).
    func settleAfterDrag(from mark: Int) async throws {
        try await waitForDragEnd(after: mark)
        _ = try await settledSceneLayout()
    }

    /// Types `keys` ("ctrl+z") and waits for a line of `kind` after them where `predicate`
    /// holds; returns that line and the line count before the keys (for the events they caused).
    @discardableResult
    func press<E: AppEvent>(
        _ keys: String, with pointer: Pointer, until type: E.Type, _ what: String,
        where predicate: (E) -> Bool
    ) async throws -> (line: E, mark: Int) {
        let mark = lineCount
        try pointer.key(keys)
        return (try await waitFor(type, what, after: mark, where: predicate), mark)
    }

    /// The newest line of `type` with `id` (when given).
    func latest<E: IdentifiedLine>(_ type: E.Type, id: String? = nil) -> E? {
        process.lines(type).last { id == nil || $0.id == id }
    }

    /// The feedback event names at or after `index`.
    func eventNames(from index: Int) -> [String] { events(from: index).compactMap { $0.event } }

    /// Opens the edit menu with a secondary click at `at` and returns its items and their frames
    /// (screen coordinates).
    func openMenu(at point: ScreenPoint, pointer: Pointer, owner: String) async throws
        -> (items: [String], frames: [String: ScreenRect])
    {
        let mark = lineCount
        try pointer.click(at: point, button: 3)
        let menu = try await waitFor(MenuLine.self, "the \(owner) edit menu", after: mark) {
            $0.owner == owner
        }
        return (menu.items, ScreenRect.frames(menu.frames, from: origin))
    }

    /// Opens the edit menu at `at` and clicks its item `title`.
    func chooseMenuItem(_ title: String, at point: ScreenPoint, pointer: Pointer, owner: String) async throws {
        let menu = try await openMenu(at: point, pointer: pointer, owner: owner)
        guard let frame = menu.frames[title] else {
            throw DriverError("The \(owner) menu has no '\(title)': \(menu.items)")
        }
        try await Task.sleep(for: .milliseconds(150))
        try pointer.click(at: (frame.midX, frame.midY))
    }
}

/// A line about one widget, named by its `id`.
protocol IdentifiedLine: AppEvent { var id: String { get } }
extension TextLine: IdentifiedLine {}
extension EntryLine: IdentifiedLine {}
extension GridLine: IdentifiedLine {}
extension ListLine: IdentifiedLine {}
extension SelectionLine: IdentifiedLine {}
extension SliderLine: IdentifiedLine {}
extension SegmentLine: IdentifiedLine {}
extension CollectionLine: IdentifiedLine {}
