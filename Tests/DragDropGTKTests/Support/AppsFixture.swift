import Foundation
import DriverProtocol
import WindowDriver

/// The `--scene apps` fixture: a draggable text item and an Inbox taking text (AppsScene.swift).
extension FixtureApp {
    /// The apps scene's window size.
    static let appsSize = (420, 260)

    /// Launches `dragdrop-gtk-fixture --scene apps --name <name>` with its window at `at`.
    static func launchApps(
        _ name: String, on display: XDisplay, at: (Int, Int), extra: [String] = []
    ) async throws -> FixtureApp {
        try await launch(
            on: display, size: appsSize, at: at, arguments: ["--scene", "apps", "--name", name] + extra,
            windowName: "DragDrop apps \(name)")
    }

    /// The item's and the Inbox's frames on the screen, from the latest layout line.
    func appsFrames() throws -> (item: ScreenRect, inbox: ScreenRect) {
        guard let layout = last(AppsLayoutLine.self) else { throw DriverError("The apps fixture printed no layout.") }
        return (ScreenRect(layout.item, from: origin), ScreenRect(layout.inbox, from: origin))
    }

    /// The latest `apps-state` line.
    var appsState: AppsStateLine? { last(AppsStateLine.self) }

    /// Texts the Inbox received so far.
    var received: [String] { appsState?.received ?? [] }

    /// Waits for an `apps-state` line at or after `index` matching `predicate`.
    @discardableResult
    func waitForAppsState(
        _ what: String, after index: Int, timeout: Double = 10, where predicate: @escaping (AppsStateLine) -> Bool
    ) async throws -> AppsStateLine {
        try await waitFor(AppsStateLine.self, what, after: index, timeout: timeout, where: predicate)
    }

    /// Sends a signal to the fixture process (SIGKILL to make it vanish mid-transfer).
    func kill(_ signal: Int32) { process.send(signal) }
}
