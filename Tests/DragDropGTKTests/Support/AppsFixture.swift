import Foundation
import ShowcaseDriver

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
        guard let layout = objects().last(where: { $0["kind"] as? String == "apps-layout" }),
            let item = ScreenRect(printed: layout["item"], from: origin),
            let inbox = ScreenRect(printed: layout["inbox"], from: origin)
        else { throw DriverError("The apps fixture printed no layout.") }
        return (item, inbox)
    }

    /// The latest `apps-state` line.
    var appsState: JSONObject? { objects().last { $0["kind"] as? String == "apps-state" } }

    /// Texts the Inbox received so far.
    var received: [String] { appsState?["received"] as? [String] ?? [] }

    /// Waits for an `apps-state` line at or after `index` matching `predicate`.
    @discardableResult
    func waitForAppsState(
        _ what: String, after index: Int, timeout: Double = 10, where predicate: @escaping (JSONObject) -> Bool
    ) async throws -> JSONObject {
        try await waitFor(what, after: index, timeout: timeout) {
            $0["kind"] as? String == "apps-state" && predicate($0)
        }
    }

    /// The GTK diagnostic messages printed at or after `index`.
    func messages(from index: Int = 0) -> [String] {
        objects(from: index).filter { $0["kind"] as? String == "gtk" }.compactMap { $0["message"] as? String }
    }

    /// Sends a signal to the fixture process (SIGKILL to make it vanish mid-transfer).
    func kill(_ signal: Int32) { process.send(signal) }
}
