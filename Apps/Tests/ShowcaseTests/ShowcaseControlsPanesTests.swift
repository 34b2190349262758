import Foundation
import GRDB
import DriverProtocol
import WindowDriver
import ShowcaseModel
import Testing

/// Situations 13 to 15 beyond the tour: their settings in the store (a database made before them
/// gets them; a relaunch shows what was set), and the Settings pane by keyboard alone (K12).
@Suite(
    "Showcase: the controls panes (situations 13-15)", .serialized,
    .enabled(
        if: Tools.xvfb != nil && Tools.xdotool != nil,
        "Xvfb or xdotool is not installed (run `make deps`): showcase tests skipped.")
)
struct ShowcaseControlsPanesTests: ShowcaseTesting {
    @Test(
        "A database seeded before situations 13-15 gets their collections, settings table and seed once on opening; setSettings commits several values together"
    )
    func migration() throws {
        try withDataDirectory { data in
            let path = data + "/showcase.sqlite"
            do {
                let store = try ShowcaseStore(path: path)
                // Make it look like a database from before the controls panes.
                try store.database.write { db in
                    try db.execute(sql: "DROP TABLE setting")
                    try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v2-settings'")
                    try db.execute(sql: "DELETE FROM showcaseMeta WHERE key = 'seeded-controls'")
                    try db.execute(sql: "DELETE FROM collection WHERE pane IN ('settings', 'inbox') OR key = 'page-3'")
                }
            }
            let store = try ShowcaseStore(path: path)
            #expect(try store.integrityProblems() == [])
            #expect(
                try store.collections(in: .homeScreen).filter { $0.kind == .grid }.map(\.name) == [
                    "Home", "Page 2", "Page 3",
                ])
            let networks = try #require(try store.collection(pane: .settings, key: "networks"))
            #expect(try store.items(in: networks.id ?? 0).map(\.title) == ["Home", "Café Rosa", "Office"])
            #expect(try store.settings(prefix: "settings.")["settings.airplane"] == "false")
            #expect(try store.collections(in: .inbox).map(\.name) == ["Inbox", "Archive", "Server"])
            try store.setSettings(["settings.airplane": "true", "settings.wifi": "false"])
            let reopened = try ShowcaseStore(path: path)
            #expect(try reopened.settings(prefix: "settings.")["settings.wifi"] == "false")
            #expect(try reopened.collections(in: .settings).count == 1, "seeded once")
        }
    }

    /// The latest state line of the shown pane, whole.
    @discardableResult
    func stateObject(_ app: ShowcaseProcess, after mark: Int = 0, where predicate: (StateLine) -> Bool) throws
        -> StateLine
    {
        try app.waitFor(StateLine.self, "a state line", after: mark, where: predicate)
    }

    @Test(
        "K12, K10, K9, K7: Settings by keyboard alone (Tab to Airplane Mode's switch, Space; Tab to the slider, arrows), and the switches, brightness and page shown survive a relaunch"
    )
    func keyboardAndRelaunch() throws {
        try withDataDirectory { data in try keyboardAndRelaunch(data) }
    }

    func keyboardAndRelaunch(_ data: String) throws {
        do {
            let display = try XDisplay.startPrivate()
            defer { display.stop() }
            do {
                let app = try ShowcaseProcess.launch(
                    executable: try Self.showcaseExecutable(), dataDirectory: data, display: display, pane: "settings")
                defer { app.stop() }
                _ = try app.settledLayout(pane: "settings")
                let keys = Pointer(display: display)
                try press("Tab", untilFocusOnA: "GtkSwitch", app, keys, limit: 20)
                var mark = app.lineCount
                try keys.key("space")
                try stateObject(app, after: mark) { $0.switches?["airplane"] == true }
                try press("Tab", untilFocusOnA: "GtkScale", app, keys, limit: 20)
                mark = app.lineCount
                try keys.key("Right")
                try stateObject(app, after: mark) { $0.brightness == 75 }

                // The page control of situation 13 by keyboard: Down in the sidebar, Tab to it.
                try press("Tab", untilFocusOn: "14. Settings", app, keys, limit: 20)
                mark = app.lineCount
                try keys.key("Up")
                try app.waitForState("the home-pages pane", after: mark) { $0.pane == "home-pages" }
                try press("Tab", untilFocusOnA: "GtkDrawingArea", app, keys, limit: 20)
                mark = app.lineCount
                try keys.key("Right")
                try stateObject(app, after: mark) { $0.page == 1 && $0.how == "pageControl" }
            }
            let app = try ShowcaseProcess.launch(
                executable: try Self.showcaseExecutable(), dataDirectory: data, display: display, pane: "settings")
            defer { app.stop() }
            _ = try app.settledLayout(pane: "settings")
            guard
                let state = app.lines(StateLine.self).last(where: { $0.pane == "settings" })
            else { throw DriverError("no settings state after the relaunch") }
            #expect(state.switches == ["airplane": true, "wifi": false, "bluetooth": false])
            #expect(state.brightness == 75)
            #expect((state.enabled)?["wifi"] == false, "still greyed after the relaunch")
            let mark = app.lineCount
            let layout = try app.settledLayout(pane: "settings")
            guard let row = layout.sidebar["home-pages"] else { throw DriverError("no home-pages row") }
            try Pointer(display: display).click(at: row.center)
            let pages = try stateObject(app, after: mark) { $0.pane == "home-pages" }
            #expect(pages.page == 1, "the page shown was saved")
        }
    }
}
