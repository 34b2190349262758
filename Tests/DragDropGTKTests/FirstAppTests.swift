import Foundation
import WindowDriver
import Testing

/// The first app of the DocC guide (`Examples/FirstApp`, built by this package as the
/// `FirstApp` product): run as a user would, on a private Xvfb, and dragged with the real pointer.
/// It prints both lists after every change ("To Do: Milk, Eggs | Done: Coffee"); the test reads
/// those lines, so it fails if the drag does not move the item.
@Suite(
    "GTK: the guide's first app", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct FirstAppTests {
    /// The package root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The app running with its standard output in a file (line-buffered through `stdbuf`, so
    /// each line arrives as it is printed).
    final class RunningApp {
        let process: ChildProcess
        let outputPath: String

        init(on display: XDisplay) throws {
            let executable = try Tools.built("FirstApp", variable: "DRAGDROP_FIRST_APP", packageRoot: FirstAppTests.root)
            outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("first-app-\(UUID()).out").path
            let fd = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw DriverError("Could not create \(outputPath).") }
            defer { close(fd) }
            let stdbuf = Tools.find("stdbuf") ?? "/usr/bin/stdbuf"
            process = try ChildProcess(
                stdbuf, ["-oL", executable], environment: display.appEnvironment.merging(["GTK_A11Y": "none"]) { $1 },
                stdout: fd)
        }

        var lines: [String] {
            ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        /// Waits until the app printed `line`; fails after `timeout` seconds with what it printed.
        func waitFor(line: String, timeout: Double = 10) async throws {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if lines.contains(line) { return }
                try await Task.sleep(for: .milliseconds(50))
            }
            throw DriverError("The first app did not print '\(line)' within \(timeout) s; it printed: \(lines)")
        }

        func stop() {
            process.stop()
            try? FileManager.default.removeItem(atPath: outputPath)
        }
    }

    /// The first app on a private display, its first lines printed, its window placed at
    /// (60, 40) and laid out there: the display, the app and the window's content frame.
    static func launch() async throws -> (XDisplay, RunningApp, ScreenRect) {
        let display = try XDisplay.startPrivate()
        do {
            let app = try RunningApp(on: display)
            do {
                try await app.waitFor(line: "To Do: Milk, Eggs, Bread, Tea | Done: Coffee")
                let window = try display.place(windowNamed: "^First App$", at: (60, 40)).content
                try await Task.sleep(for: .milliseconds(500))  // the first layout after the move
                return (display, app, window)
            } catch {
                app.stop()
                throw error
            }
        } catch {
            display.stop()
            throw error
        }
    }

    @Test("S2, S4: in the guide's first app a dragged item moves from To Do to Done (the lists chose move)")
    func dragMovesBetweenLists() async throws {
        let (display, app, window) = try await Self.launch()
        defer {
            app.stop()
            display.stop()
        }
        // The window (560×360, a 12-pixel margin) holds the two lists side by side above the
        // text field: To Do's first row (Milk) is about 57 pixels from the top, and Done's empty
        // space below its one row takes a drop at its end.
        let milk = (window.x + 140, window.y + 57)
        let doneEnd = (window.x + 420, window.y + 200)
        try Pointer(display: display).drag(from: milk, to: doneEnd)
        try await app.waitFor(line: "To Do: Eggs, Bread, Tea | Done: Coffee, Milk")

        // GtkApp.run quits on SIGTERM as when its window closes: the app exits by itself, with
        // status 0. (Closing the window needs a window manager's close request, which Xvfb
        // alone cannot send; destroying the X window under GTK makes it abort instead.)
        app.process.send(SIGTERM)
        #expect(app.process.wait(timeout: 5), "the first app still runs after SIGTERM")
        #expect(app.process.exitStatus == 0)
    }

    @Test(
        "S1, S2, U1, M2, A2: the first app's chores are values: one reordered in To Do and undone with Ctrl+Z, two dragged together to Done, and text typed in the field dragged to Done becomes a chore"
    )
    func choresAreValues() async throws {
        let (display, app, window) = try await Self.launch()
        defer {
            app.stop()
            display.stop()
        }
        let pointer = Pointer(display: display)
        // Rows are 37 pixels high from 36 pixels below the window's top: Milk, Eggs, Bread, Tea.
        func row(_ index: Int, x: Double = 140) -> ScreenPoint { (window.x + x, window.y + 54 + Double(index) * 37) }
        let doneEnd = (window.x + 420, window.y + 220)

        // Tea dropped on the top half of Milk's row goes before it, in the same list (a move).
        try pointer.drag(from: row(3), to: (window.x + 140, window.y + 44))
        try await app.waitFor(line: "To Do: Tea, Milk, Eggs, Bread | Done: Coffee")
        try display.xdotool(["search", "--name", "^First App$", "windowfocus", "--sync"])
        try pointer.key("ctrl+z")
        try await app.waitFor(line: "To Do: Milk, Eggs, Bread, Tea | Done: Coffee")

        // Eggs, then Bread with Ctrl: both move to Done together, in their order.
        try pointer.click(at: row(1))
        try await Task.sleep(for: .milliseconds(600))  // two clicks, not a double click
        try pointer.click(at: row(2), holding: ["ctrl"])
        try await Task.sleep(for: .milliseconds(600))
        try pointer.drag(from: row(2), to: doneEnd)
        try await app.waitFor(line: "To Do: Milk, Tea | Done: Coffee, Eggs, Bread")

        // Text typed in the field, selected and dragged onto Done: read as a chore (its proxy).
        let field = (window.x + 200, window.y + 331)
        try pointer.click(at: field)
        try pointer.type("Call Ana")
        try pointer.key("ctrl+a")
        try await Task.sleep(for: .milliseconds(300))
        try pointer.drag(from: (window.x + 40, window.y + 331), to: doneEnd)
        try await app.waitFor(line: "To Do: Milk, Tea | Done: Coffee, Eggs, Bread, Call Ana")
    }
}
