import DragDropGTK
import Foundation
import DriverProtocol
import WindowDriver
import Testing

/// Keyboard-only dragging and assistive technology (C4) in a real GTK window: the fixture's
/// `--a11y` scene (an Edit menu, the two lists, an announcement status line) driven with real
/// X key presses. `GTK_A11Y=test` gives GTK an in-process accessibility context, so the
/// fixture can print the accessible properties GTK holds without any accessibility bus.
@Suite(
    "GTK: keyboard dragging and accessibility", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct KeyboardDragTests {
    static let original = ["groceries": ["Milk", "Eggs", "Bread", "Apples"], "work": ["Report", "Slides"]]
    static let outline = KeyboardStyles.focusOutline

    func withFixture(
        environment: [String: String] = [:], _ body: (FixtureApp, Pointer) async throws -> Void
    ) async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(
            on: display, arguments: ["--a11y"], environment: ["GTK_A11Y": "test"].merging(environment) { $1 })
        defer { app.stop() }
        try await body(app, Pointer(display: display))
    }

    /// Waits for the status line to show `text`, and checks GTK holds it as the status line's
    /// accessible label too (screen readers hear it through the focused widget's description:
    /// ShowcaseScreenReaderTests).
    @discardableResult
    func waitForLive(_ app: FixtureApp, _ text: String, after mark: Int) async throws -> LiveLine {
        let live = try await app.waitFor(LiveLine.self, "the status line '\(text)'", after: mark) {
            $0.text == text
        }
        #expect(live.shown == text, "the label widget shows the sentence")
        #expect(live.label == text, "GTK's accessible label of the status line")
        #expect(live.description == nil, "no description: the sentence is spoken once, from the focused widget")
        #expect(live.role == "status")
        return live
    }

    /// Clicks a row (selecting and focusing it) and waits until the fixture reports the selection.
    func select(_ title: String, in list: String, _ app: FixtureApp, _ pointer: Pointer) async throws {
        let layout = try await app.settledLayout()
        let row = try layout.row(title, in: list)
        let mark = app.lineCount
        try pointer.click(at: (row.midX, row.midY))
        try await app.waitForState("\(title) selected", after: mark) { _, selected in selected[list] == [title] }
    }

    /// Presses `key` and waits for the status line that follows.
    func press(_ key: String, expecting sentence: String, _ app: FixtureApp, _ pointer: Pointer) async throws {
        let mark = app.lineCount
        try pointer.key(key)
        try await waitForLive(app, sentence, after: mark)
    }

    func outlinePixels(_ shot: Screenshot, around rect: ScreenRect) -> Int {
        shot.count(
            Self.outline,
            in: ScreenRect(x: rect.x - 8, y: rect.y - 8, width: rect.width + 16, height: rect.height + 16))
    }

    @Test(
        "C4, L1: the keyboard pick-up with nothing selected says so in the person's language (Korean, Japanese, Russian)",
        arguments: [
            ("ko", "ko_KR.UTF-8", "집어 들 항목이 없습니다. 먼저 항목을 선택하세요."),
            ("ja", "ja_JP.UTF-8", "持ち上げる項目がありません。先に項目を選択してください。"),
            ("ru", "ru_RU.UTF-8", "Нечего взять: сначала выберите элемент."),
        ])
    func nothingToPickUpInTheirLanguage(language: String, locale: String, sentence: String) async throws {
        try await withFixture(environment: ["LANGUAGE": language, "LANG": locale]) { app, pointer in
            _ = try await app.waitFor(AccessibleLine.self, "the accessible properties")
            let mark = app.lineCount
            try pointer.key("ctrl+shift+d")
            try await waitForLive(app, sentence, after: mark)
            #expect(!app.events(from: mark).contains { $0.event == "lifted" })
        }
    }

    @Test("C4: every list and row carries its name as accessible label; rows name the pick-up shortcut")
    func accessibleNames() async throws {
        try await withFixture { app, pointer in
            let dump = try await app.waitFor(AccessibleLine.self, "the accessible properties")
            let targets = dump.targets
            #expect(targets.count == 8, "2 lists and 6 rows")
            for target in targets {
                let id = target.id
                #expect(target.label == target.name, "accessible label of \(id)")
                let isList = !id.contains(".")
                #expect((target.shortcuts) == (isList ? nil : "Control+Shift+D"), "shortcuts of \(id)")
                #expect(
                    (target.description) == (isList ? nil : GtkDragHost.sourceAccessibleDescription),
                    "description of \(id)")
            }
            let live = try #require(app.lines(LiveLine.self).first)
            #expect(live.role == "status", "the live region is a status (AT-SPI status bar)")

            // With nothing focused, the shortcut picks up nothing and says so.
            let mark = app.lineCount
            try pointer.key("ctrl+shift+d")
            try await waitForLive(app, "Nothing to pick up: select an item first.", after: mark)
            #expect(!app.events(from: mark).contains { $0.event == "lifted" })

            // Rows rebuilt after a change are labelled too.
            try await select("Milk", in: "groceries", app, pointer)
            let beforeMove = app.lineCount
            try await press(
                "ctrl+shift+d", expecting: "Picked up 'Milk'. 2 drop points; press Tab to choose one.", app, pointer)
            try await press("Tab", expecting: "Over Groceries, will move.", app, pointer)
            try await press("Tab", expecting: "Over Work, will move.", app, pointer)
            try pointer.key("Return")
            let after = try await app.waitFor(AccessibleLine.self, "the labels after the move", after: beforeMove) {
                $0.targets.contains { $0.id == "work.3" }
            }
            let moved = try #require(after.targets.first { $0.id == "work.3" })
            #expect(moved.label == "Milk")
            #expect(moved.shortcuts == "Control+Shift+D")
        }
    }

    @Test(
        "C4, F4, F8, U1: Ctrl+Shift+D picks up the selected row, Tab shows an outlined drop point, Return moves there, Ctrl+Z undoes"
    )
    func pickUpTabDrop() async throws {
        try await withFixture { app, pointer in
            try await select("Milk", in: "groceries", app, pointer)
            let layout = try await app.settledLayout()
            let groceries = try layout.list("groceries")
            let work = try layout.list("work")
            let before = try Screenshot.capture(app.display)
            #expect(outlinePixels(before, around: groceries) == 0)
            #expect(outlinePixels(before, around: work) == 0)

            let mark = app.lineCount
            try await press(
                "ctrl+shift+d", expecting: "Picked up 'Milk'. 2 drop points; press Tab to choose one.", app, pointer)
            let lifted = try #require(app.events(from: mark).first { $0.event == "lifted" })
            #expect(lifted.mode == "keyboard")
            #expect(lifted.items == ["groceries.1"])

            try await press("Tab", expecting: "Over Groceries, will move.", app, pointer)
            let toWork = app.lineCount
            try await press("Tab", expecting: "Over Work, will move.", app, pointer)
            let events = app.events(from: toWork)
            #expect(events.contains { $0.event == "keyboardFocus" && $0.target == "work" })
            #expect(
                events.contains { $0.event == "insertion" && $0.index == 2 },
                "the drop lands at Work's end")

            try await Task.sleep(for: .milliseconds(250))  // let GTK paint
            let during = try Screenshot.capture(app.display)
            let inWork = outlinePixels(during, around: work)
            // A 4-pixel outline around a 292×290 list is about 4 × 2 × (300 + 298) pixels.
            #expect(inWork > 3000, "outline pixels around Work: \(inWork)")
            #expect(outlinePixels(during, around: groceries) == 0, "one focused drop point at a time")
            // The insertion line below Slides, inside Work.
            let slides = try layout.row("Slides", in: "work")
            let line = during.count(
                Self.outline, in: ScreenRect(x: slides.x + 20, y: slides.maxY - 6, width: slides.width - 40, height: 12)
            )
            #expect(line > Int(slides.width - 40) * 3, "insertion line pixels: \(line)")

            let drop = app.lineCount
            try pointer.key("Return")
            try await app.waitForState("Milk in Work", after: drop) { lists, _ in
                lists["work"] == ["Report", "Slides", "Milk"] && lists["groceries"] == ["Eggs", "Bread", "Apples"]
            }
            try await waitForLive(app, "Moved 'Milk' to Work.", after: drop)
            let committed = try #require(app.events(from: drop).first { $0.event == "committed" })
            #expect(committed.operation == "move")
            try await Task.sleep(for: .milliseconds(250))
            let after = try Screenshot.capture(app.display)
            #expect(outlinePixels(after, around: work) == 0, "the focus outline goes with the drag")

            let undo = app.lineCount
            try pointer.key("ctrl+z")
            try await app.waitForState("the move undone", after: undo) { lists, _ in lists == Self.original }
        }
    }

    @Test("C4, M1: a multiple selection is picked up together; Shift+Tab goes backwards, wrapping")
    func multipleAndBackwards() async throws {
        try await withFixture { app, pointer in
            try await select("Eggs", in: "groceries", app, pointer)
            let layout = try await app.settledLayout()
            let apples = try layout.row("Apples", in: "groceries")
            let mark = app.lineCount
            try pointer.click(at: (apples.midX, apples.midY), holding: ["ctrl"])
            try await app.waitForState("Eggs and Apples selected", after: mark) { _, selected in
                selected["groceries"] == ["Eggs", "Apples"]
            }
            try await press(
                "ctrl+shift+d", expecting: "Picked up 2 items. 2 drop points; press Tab to choose one.", app, pointer)
            try await press("shift+Tab", expecting: "Over Work, will move.", app, pointer)
            try await press("shift+Tab", expecting: "Over Groceries, will move.", app, pointer)
            try await press("Up", expecting: "Over Work, will move.", app, pointer)
            let drop = app.lineCount
            try pointer.key("Return")
            try await app.waitForState("Eggs and Apples in Work", after: drop) { lists, _ in
                lists["work"] == ["Report", "Slides", "Eggs", "Apples"] && lists["groceries"] == ["Milk", "Bread"]
            }
            try await waitForLive(app, "Moved 2 items to Work.", after: drop)
        }
    }

    @Test("C4: Escape cancels a keyboard drag (no GDK grab is involved): nothing changes and the outline goes")
    func escapeCancels() async throws {
        try await withFixture { app, pointer in
            try await select("Eggs", in: "groceries", app, pointer)
            let layout = try await app.settledLayout()
            try await press(
                "ctrl+shift+d", expecting: "Picked up 'Eggs'. 2 drop points; press Tab to choose one.", app, pointer)
            try await press("Tab", expecting: "Over Groceries, will move.", app, pointer)
            try await press("Tab", expecting: "Over Work, will move.", app, pointer)
            let cancel = app.lineCount
            try pointer.key("Escape")
            try await waitForLive(app, "Not dropped: The drag was cancelled.", after: cancel)
            let outcome = try #require(app.events(from: cancel).first { $0.event == "outcome" })
            #expect(outcome.failure == "cancelled")
            #expect(!app.events(from: cancel).contains { $0.event == "committed" })
            try await Task.sleep(for: .milliseconds(250))
            #expect(app.lists == Self.original)
            let shot = try Screenshot.capture(app.display)
            #expect(outlinePixels(shot, around: try layout.list("work")) == 0)

            // Keys go back to GTK once the drag is over: Tab moves GTK's focus, not a drop point.
            let tab = app.lineCount
            try pointer.key("Tab")
            try await Task.sleep(for: .milliseconds(300))
            #expect(!app.messages(from: tab).contains { $0.hasPrefix("keyboard key") })
        }
    }

    @Test("C4: Edit ▸ Move To… (F10 opens the menu) starts a keyboard move; Edit ▸ Copy To… a keyboard copy")
    func menuCommands() async throws {
        try await withFixture { app, pointer in
            try await select("Bread", in: "groceries", app, pointer)
            var mark = app.lineCount
            try pointer.key("F10")  // opens the Edit menu with "Move To…" first
            try await Task.sleep(for: .milliseconds(400))
            try pointer.key("Return")
            try await waitForLive(app, "Picked up 'Bread'. 2 drop points; press Tab to choose one.", after: mark)
            #expect(app.messages(from: mark).contains("action dd.move-to window=window"))
            try await press("Tab", expecting: "Over Groceries, will move.", app, pointer)
            try await press("Tab", expecting: "Over Work, will move.", app, pointer)
            mark = app.lineCount
            try pointer.key("Return")
            try await app.waitForState("Bread in Work", after: mark) { lists, _ in
                lists["work"] == ["Report", "Slides", "Bread"] && lists["groceries"] == ["Milk", "Eggs", "Apples"]
            }
            #expect(
                app.events(from: mark).first { $0.event == "committed" }?.operation
                    == "move")

            try await select("Milk", in: "groceries", app, pointer)
            mark = app.lineCount
            try pointer.key("F10")
            try await Task.sleep(for: .milliseconds(400))
            try pointer.key("Down")
            try await Task.sleep(for: .milliseconds(100))
            try pointer.key("Return")
            try await waitForLive(app, "Picked up 'Milk'. 2 drop points; press Tab to choose one.", after: mark)
            #expect(app.messages(from: mark).contains("action dd.copy-to window=window"))
            try await press("Tab", expecting: "Over Groceries, will copy.", app, pointer)
            try await press("Tab", expecting: "Over Work, will copy.", app, pointer)
            mark = app.lineCount
            try pointer.key("Return")
            try await app.waitForState("a copy of Milk in Work", after: mark) { lists, _ in
                lists["work"] == ["Report", "Slides", "Bread", "Milk"]
                    && lists["groceries"] == ["Milk", "Eggs", "Apples"]
            }
            try await waitForLive(app, "Copied 'Milk' to Work.", after: mark)
        }
    }
}
