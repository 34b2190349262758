import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel
import Testing

/// What the showcase suites share: finding the built app, a fresh data directory, reading the
/// store back, and driving the keyboard while watching the app's `focus`, `status` and `menu`
/// lines.
protocol ShowcaseTesting {}

extension ShowcaseTesting {
    /// Expects that `app` printed no GLib, GDK or GTK critical or warning (issue 26: a drag
    /// with another app is clean, not only successful).
    func expectNoGLibProblems(_ app: AppProcess, sourceLocation: SourceLocation = #_sourceLocation) {
        let problems = app.glibProblems()
        #expect(problems.isEmpty, "\(app.name) reported: \(problems.prefix(5))", sourceLocation: sourceLocation)
    }

    /// The regular files under `directory`, at any depth, sorted by path.
    func regularFiles(in directory: URL) -> [URL] {
        guard
            let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        return walker.compactMap { $0 as? URL }.filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }.sorted { $0.path < $1.path }
    }

    /// An executable of this package: `showcase` (or `$SHOWCASE_BIN`), `showcase-tour`…, as
    /// `swift build` / `make test` leave it.
    static func showcaseExecutable(named name: String = "showcase", filePath: String = #filePath) throws -> String {
        var root = URL(fileURLWithPath: filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }  // file, ShowcaseTests/, Tests/
        let variable = name.uppercased().replacingOccurrences(of: "-", with: "_") + "_BIN"
        return try Tools.built(name, variable: variable, packageRoot: root)
    }

    /// A fresh data directory, removed afterwards.
    func withDataDirectory(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "showcase-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory.path)
    }

    /// A private display and the showcase on a fresh data directory showing `pane`.
    func withShowcase(
        pane: String, _ body: (_ app: ShowcaseProcess, _ pointer: Pointer, _ data: String) throws -> Void
    ) throws {
        try withDataDirectory { data in
            let display = try XDisplay.startPrivate()
            defer { display.stop() }
            let app = try ShowcaseProcess.launch(
                executable: try Self.showcaseExecutable(), dataDirectory: data, display: display, pane: pane)
            defer { app.stop() }
            _ = try app.settledLayout(pane: pane)
            try body(app, Pointer(display: display), data)
        }
    }

    /// A pane's collections as stored: name → [(id, title)] in position order.
    func stored(_ dataDirectory: String, pane: ShowcasePane = .reminders) throws -> [String: [(
        id: ItemID, title: String
    )]] {
        let store = try ShowcaseStore(path: dataDirectory + "/showcase.sqlite", seed: false)
        #expect(try store.integrityProblems() == [])
        var lists: [String: [(id: ItemID, title: String)]] = [:]
        for collection in try store.collections(in: pane) {
            lists[collection.name] = try store.items(in: collection.id ?? 0).map { ($0.id ?? 0, $0.title) }
        }
        return lists
    }

    func titles(_ lists: [String: [(id: ItemID, title: String)]]) -> [String: [String]] {
        lists.mapValues { $0.map(\.title) }
    }

    func ids(_ lists: [String: [(id: ItemID, title: String)]]) -> [String: [ItemID]] {
        lists.mapValues { $0.map(\.id) }
    }

    // MARK: Keyboard

    /// Presses `key` until a line of `kind` printed after the press matches (at most `limit`
    /// presses); returns how many presses it took. `what` completes "never …" in the error.
    @discardableResult
    private func press<E: AppEvent>(
        _ key: String, untilA type: E.Type, _ what: String, _ app: ShowcaseProcess, _ pointer: Pointer, limit: Int,
        where matches: (E) -> Bool
    ) throws -> Int {
        for count in 1...limit {
            let mark = app.lineCount
            try pointer.key(key)
            let line = try app.waitFor(type, "a \(E.kind) line after \(key)", after: mark, timeout: 5)
            if matches(line) { return count }
        }
        throw DriverError("\(limit) presses of \(key) never \(what). Last lines:\n\(app.recentLines())")
    }

    /// Presses `key` until the keyboard focus is on a widget showing `text`; returns how many
    /// presses it took.
    @discardableResult
    func press(_ key: String, untilFocusOn text: String, _ app: ShowcaseProcess, _ pointer: Pointer, limit: Int = 12)
        throws -> Int
    {
        try press(key, untilA: FocusLine.self, "focused '\(text)'", app, pointer, limit: limit) { $0.text == text }
    }

    /// Presses `key` until the keyboard focus is on a widget of GTK type `type`.
    func press(_ key: String, untilFocusOnA type: String, _ app: ShowcaseProcess, _ pointer: Pointer, limit: Int = 12)
        throws
    {
        try press(key, untilA: FocusLine.self, "focused a \(type)", app, pointer, limit: limit) { $0.widget == type }
    }

    /// Presses `key` until the status line says `text` (a keyboard drag's drop point).
    func press(_ key: String, untilStatus text: String, _ app: ShowcaseProcess, _ pointer: Pointer, limit: Int = 12)
        throws
    {
        try press(key, untilA: StatusLine.self, "announced '\(text)'", app, pointer, limit: limit) { $0.text == text }
    }

    /// Presses `key` and waits for the status line (the spoken announcement) to say `text`
    /// (or, with `prefix`, to start with it).
    func press(_ key: String, expecting text: String, _ app: ShowcaseProcess, _ pointer: Pointer, prefix: Bool = false)
        throws
    {
        let mark = app.lineCount
        try pointer.key(key)
        try waitForStatus(text, after: mark, app, prefix: prefix)
    }

    /// Waits for the status line to say `text` (or, with `prefix`, to start with it).
    func waitForStatus(_ text: String, after mark: Int, _ app: ShowcaseProcess, prefix: Bool = false) throws {
        try app.waitFor(StatusLine.self, "the status '\(text)'", after: mark) {
            prefix ? $0.text.hasPrefix(text) : $0.text == text
        }
    }

    /// Opens the focused list's edit menu with the Menu key and returns its commands.
    func openEditMenu(_ app: ShowcaseProcess, _ pointer: Pointer) throws -> (owner: String, items: [String]) {
        let mark = app.lineCount
        try pointer.key("Menu")
        let menu = try app.waitFor(MenuLine.self, "an edit menu", after: mark)
        // The menu's first command takes the focus once the popover is shown.
        try app.waitFor(FocusLine.self, "the menu's focus", after: mark)
        return (menu.owner, menu.items)
    }

    /// Chooses `command` in the open edit menu by keyboard (Down to it, Return).
    func choose(_ command: String, in items: [String], _ app: ShowcaseProcess, _ pointer: Pointer) throws {
        guard let index = items.firstIndex(of: command) else {
            throw DriverError("The menu has no '\(command)': \(items)")
        }
        for _ in 0..<index {
            let mark = app.lineCount
            try pointer.key("Down")
            try app.waitFor(FocusLine.self, "the menu's next command", after: mark)
        }
        let mark = app.lineCount
        try pointer.key("Return")
        try app.waitFor(FocusLine.self, "the menu to close", after: mark) {
            $0.widget != "GtkButton"
        }
    }
}
