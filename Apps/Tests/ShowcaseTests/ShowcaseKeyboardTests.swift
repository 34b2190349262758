import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel
import Testing

/// Everything without a pointer (C4, K2): the showcase driven by keys only (XTEST key events
/// through xdotool), with the store read back from the database file.
@Suite(
    "Showcase: without a pointer", .serialized,
    .enabled(
        if: Tools.xvfb != nil && Tools.xdotool != nil,
        "Xvfb or xdotool is not installed (run `make deps`): showcase tests skipped.")
)
struct ShowcaseKeyboardTests: ShowcaseTesting {
    @Test(
        "C4, S4, U1: keys only — Tab into the list, Down to a reminder, Ctrl+Shift+D, Tab to Home, Return: it moves there in the store; Ctrl+Z puts it back at its place, Ctrl+Shift+Z moves it again"
    )
    func keyboardDragMovesAReminder() throws {
        try withShowcase(pane: "reminders") { app, keys, data in
            let before = try stored(data)
            let original = titles(before)
            let groceries = try #require(original["Groceries"])
            let lemons = groceries[1]

            try press("Tab", untilFocusOn: groceries[0], app, keys)
            try press("Down", untilFocusOn: lemons, app, keys, limit: 1)
            try app.waitForState("'\(lemons)' selected", after: 0) { $0.selected["Groceries"] == [lemons] }
            try press(
                "ctrl+shift+d", expecting: "Picked up '\(lemons)'. 3 drop points; press Tab to choose one.", app, keys)
            try press("Tab", untilStatus: "Over Home, will move.", app, keys)
            var mark = app.lineCount
            try keys.key("Return")
            var expected = original
            expected["Groceries"] = groceries.filter { $0 != lemons }
            expected["Home"] = original["Home"]! + [lemons]
            try app.waitForState("'\(lemons)' at the end of Home", after: mark) { $0.lists == expected }
            try waitForStatus("Moved '\(lemons)' to Home.", after: mark, app)
            let moved = try stored(data)
            #expect(titles(moved) == expected, "the store holds what the window shows")
            #expect(moved["Home"]?.last?.id == before["Groceries"]?[1].id, "the same row moved (no copy)")
            #expect(app.state?.undo == "Undo Move Reminder")

            // Keys sent while the drop is still being drawn were seen to go missing now and then
            // (X11, no window manager): wait for the window to settle, as a person does.
            _ = try app.settledLayout(pane: "reminders")
            mark = app.lineCount
            try keys.key("ctrl+z")
            try app.waitForState("the undone move", after: mark) { $0.lists == original }
            #expect(ids(try stored(data)) == ids(before), "undo restores every row at its place")
            _ = try app.settledLayout(pane: "reminders")
            mark = app.lineCount
            try keys.key("ctrl+shift+z")
            try app.waitForState("the redone move", after: mark) { $0.lists == expected }
            #expect(ids(try stored(data)) == ids(moved))
        }
    }

    @Test(
        "C1, C4, K2: the list's edit menu (Menu key) lists only what applies; Copy To… copies a reminder to another list by keyboard and leaves the original; Delete removes one in one undo step; Undo restores both"
    )
    func editMenuCopyToAndDelete() throws {
        try withShowcase(pane: "reminders") { app, keys, data in
            let before = try stored(data)
            let original = titles(before)
            let groceries = try #require(original["Groceries"])
            let work = try #require(original["Work"])

            try press("Tab", untilFocusOn: groceries[0], app, keys)
            try keys.key("space")  // selects the focused row
            try app.waitForState("'\(groceries[0])' selected", after: 0) { $0.selected["Groceries"] == [groceries[0]] }
            var menu = try openEditMenu(app, keys)
            #expect(menu.owner == "Groceries")
            #expect(
                menu.items == ["Copy", "Move To\u{2026}", "Copy To\u{2026}", "Delete", "Select All"],
                "C1: nothing to undo yet, a selection, not everything selected")

            var mark = app.lineCount
            try choose("Copy To\u{2026}", in: menu.items, app, keys)
            try waitForStatus("Picked up '\(groceries[0])'. 3 drop points; press Tab to choose one.", after: mark, app)
            try press("Tab", untilStatus: "Over Work, will copy.", app, keys)
            mark = app.lineCount
            try keys.key("Return")
            var copied = original
            copied["Work"] = work + [groceries[0]]
            try app.waitForState("a copy in Work", after: mark) { $0.lists == copied }
            try waitForStatus("Copied '\(groceries[0])' to Work.", after: mark, app)
            let afterCopy = try stored(data)
            #expect(titles(afterCopy) == copied, "S2: Copy To… copies, the original stays in Groceries")
            #expect(afterCopy["Work"]?.last?.id != before["Groceries"]?[0].id, "a copy is a new row")
            #expect(app.state?.undo == "Undo Copy Reminder")

            // The focus is on the picked-up row again (the list keeps its rows: no focus line
            // since the menu closed onto it). Delete the next one through the menu: one undo step.
            #expect(app.lines(FocusLine.self).last?.text == groceries[0])
            try press("Down", untilFocusOn: groceries[1], app, keys, limit: 1)
            try app.waitForState("'\(groceries[1])' selected", after: mark) {
                $0.selected["Groceries"] == [groceries[1]]
            }
            menu = try openEditMenu(app, keys)
            #expect(menu.items.first == "Undo Copy Reminder", "K2: the edit menu offers the named undo")
            mark = app.lineCount
            try choose("Delete", in: menu.items, app, keys)
            var deleted = copied
            deleted["Groceries"] = groceries.filter { $0 != groceries[1] }
            try app.waitForState("'\(groceries[1])' deleted", after: mark) { $0.lists == deleted }
            #expect(titles(try stored(data)) == deleted)
            #expect(app.state?.undo == "Undo Delete Reminder")

            _ = try app.settledLayout(pane: "reminders")
            mark = app.lineCount
            try keys.key("ctrl+z")
            try app.waitForState("the undone delete", after: mark) { $0.lists == copied }
            _ = try app.settledLayout(pane: "reminders")
            mark = app.lineCount
            try keys.key("ctrl+z")
            try app.waitForState("the undone copy", after: mark) { $0.lists == original }
            #expect(ids(try stored(data)) == ids(before), "U1: both undone, every row at its place, same ids")
        }
    }

    @Test(
        "C4, M1: on the Home Screen, Edit ▸ Move To… in the toolbar (F10) moves the focused icon into the Utilities folder by keyboard; Ctrl+Z brings it back"
    )
    func toolbarMoveToIntoAFolder() throws {
        try withShowcase(pane: "home-screen") { app, keys, data in
            let before = titles(try stored(data, pane: .homeScreen))
            let home = try #require(before["Home"])
            let icon = home[0]

            try press("Tab", untilFocusOn: icon, app, keys)
            var mark = app.lineCount
            try keys.key("F10")
            try app.waitFor(FocusLine.self, "the Edit menu", after: mark)
            mark = app.lineCount
            try keys.key("Return")  // "Move To…" is the menu's first command
            try waitForStatus("Picked up '\(icon)'.", after: mark, app, prefix: true)
            #expect(
                app.messages(from: mark).contains("action dd.move-to window=showcase"))
            try press("Tab", untilStatus: "Over Utilities, will move.", app, keys, limit: 30)
            mark = app.lineCount
            try keys.key("Return")
            var expected = before
            expected["Home"] = home.filter { $0 != icon }
            expected["Utilities"] = (before["Utilities"] ?? []) + [icon]
            try app.waitFor("'\(icon)' in Utilities", after: mark) { _ in
                (try? titles(stored(data, pane: .homeScreen))) == expected
            }
            try app.waitForState("the grid without '\(icon)'", after: mark) { $0.lists["Home"] == expected["Home"] }

            _ = try app.settledLayout(pane: "home-screen")
            mark = app.lineCount
            try keys.key("ctrl+z")
            try app.waitForState("the undone move", after: mark) { $0.lists["Home"] == home }
            #expect(titles(try stored(data, pane: .homeScreen)) == before)
        }
    }
}

/// One pane's keyboard drag: what to focus, where to drop, what must then be true.
struct KeyboardDragCase: CustomTestStringConvertible, Sendable {
    var pane: String
    /// The focused source's text, or nil for the first text view with its first word selected.
    var source: String?
    /// The announcement of the drop point to stop on.
    var over: String
    /// The undo step the drop makes.
    var undo: String
    /// Holds on the pane's state line after the drop.
    var arrived: @Sendable (StateLine) -> Bool

    var testDescription: String { "\(pane): \(source ?? "a selected word") → \(over)" }

    static func lists(_ object: StateLine) -> [String: [String]] { object.lists ?? [:] }

    static let all: [KeyboardDragCase] = [
        .init(pane: "notes", source: nil, over: "Over Sourdough, will copy.", undo: "Undo Copy Text") {
            (lists($0)["Sourdough"]?.first ?? "").contains("We")
        },
        .init(pane: "photos", source: "Tram 28.jpg", over: "Over Trip to Lisbon, will copy.", undo: "Undo Copy Photo") {
            lists($0)["Trip to Lisbon"] == ["Tram 28.jpg"] && lists($0)["Library"]?.contains("Tram 28.jpg") == true
        },
        .init(pane: "mail", source: "Dinner on Friday?", over: "Into Archive. Will move.", undo: "Undo Move Message") {
            lists($0)["Archive"]?.contains("Dinner on Friday?") == true
                && lists($0)["Inbox"]?.contains("Dinner on Friday?") == false
        },
        .init(
            pane: "calendar", source: "Team stand-up", over: "Over Tuesday 10 March, will move.",
            undo: "Undo Move Event"
        ) {
            lists($0)["2026-03-10"]?.contains("Team stand-up") == true && lists($0)["2026-03-09"] == ["Dentist"]
        },
        .init(pane: "files", source: "Budget 2026.csv", over: "Over Pictures, will copy.", undo: "Undo Copy File") {
            lists($0)["Pictures"]?.contains("Budget 2026.csv") == true
                && lists($0)["Documents"]?.contains("Budget 2026.csv") == true
        },
        .init(pane: "contacts-mail", source: "Ana Sousa", over: "Over To, will copy.", undo: "Undo Copy Contact") {
            lists($0)["To"] == ["Ana Sousa <ana@example.org>"]
        },
        .init(pane: "charts", source: "Sales 2026", over: "Over Slides, will copy.", undo: "Undo Copy Chart") {
            $0.receivedBy?["Slides"] != nil
        },
        .init(
            pane: "upload", source: "Kayaking.mov", over: "Over Upload to Channel, will copy.", undo: "Undo Copy Video"
        ) {
            lists($0)["Channel"] == ["Kayaking.mov"]
        },
    ]
}

extension ShowcaseKeyboardTests {
    @Test(
        "C4, U1: in each pane a keyboard drag (Tab to the source, Ctrl+Shift+D, Tab to the destination, Return) does what the pointer drag does, as one named undo step that Ctrl+Z reverts",
        arguments: KeyboardDragCase.all)
    func keyboardDragInEveryPane(_ drag: KeyboardDragCase) throws {
        try withShowcase(pane: drag.pane) { app, keys, _ in try playKeyboardDrag(drag, app, keys) }
    }

    private func playKeyboardDrag(_ drag: KeyboardDragCase, _ app: ShowcaseProcess, _ keys: Pointer) throws {
        let arrived = drag.arrived
        guard let original = app.last(StateLine.self) else {
            throw DriverError("no state line")
        }
        if let source = drag.source {
            try press("Tab", untilFocusOn: source, app, keys, limit: 20)
        } else {
            try press("Tab", untilFocusOnA: "GtkTextView", app, keys)
            try keys.key("ctrl+Home")
            let mark = app.lineCount
            try keys.key("ctrl+shift+Right")
            // The selection becomes a drag source once the view has seen it.
            try app.waitForState("a word selected", after: mark) { _ in true }
            _ = try app.settledLayout(pane: drag.pane)
        }
        try press("ctrl+shift+d", expecting: "Picked up", app, keys, prefix: true)
        try press("Tab", untilStatus: drag.over, app, keys)
        var mark = app.lineCount
        try keys.key("Return")
        // Deferred drops (data read after the drop) show their content before their undo step.
        let undo = drag.undo
        try app.waitFor(StateLine.self, "the drop in \(drag.pane), undone by '\(undo)'", after: mark) {
            arrived($0) && $0.undo == undo
        }

        let before = KeyboardDragCase.lists(original)
        // Keys typed while the drop's last frames are drawn were seen to be lost on X11 with no
        // window manager: wait for the window to settle, as a person does.
        _ = try app.settledLayout(pane: drag.pane)
        mark = app.lineCount
        try keys.key("ctrl+z")
        try app.waitFor(StateLine.self, "the undone drop in \(drag.pane)", after: mark) {
            $0.undo == "" && !arrived($0)
                && KeyboardDragCase.lists($0) == before
        }
    }
}

extension ShowcaseKeyboardTests {
    @Test(
        "C4, S2 (situation 3 without a pointer): in the Web Page, another process, Tab to a photo and Ctrl+C; in the message, Tab to the body and Ctrl+V: the photo arrives as image/png, decoded, as one undo step 'Paste Photo' that Ctrl+Z takes back"
    )
    func copyAPhotoFromThePageAndPasteIt() throws {
        try withShowcase(pane: "web-mail") { app, keys, data in
            let display = keys.display
            let page = try ShowcaseProcess.launch(
                executable: try Self.showcaseExecutable(), dataDirectory: data, display: display, size: (300, 520),
                at: (820, 60), extraArguments: ["--role", "page"], windowName: "Web Page")
            defer { _ = page.quit() }
            _ = try page.settledLayout(pane: "page")

            // The page's window gets the keyboard (as clicking its title bar would).
            try page.focusWindow()
            try press("Tab", untilFocusOn: "Mountains", page, keys)
            var mark = page.lineCount
            try keys.key("ctrl+c")
            try page.waitFor(CopiedLine.self, "the photo copied", after: mark) {
                $0.title == "Mountains"
            }

            try app.focusWindow()
            try press("Tab", untilFocusOnA: "DDFocusBox", app, keys)
            mark = app.lineCount
            try keys.key("ctrl+v")
            try app.waitFor(StateLine.self, "the photo in the message", after: mark) {
                guard let received = $0.received else { return false }
                return received.type == "image/png" && received.operation == "paste"
                    && $0.undo == "Undo Paste Photo"
            }
            _ = try app.settledLayout(pane: "web-mail")
            mark = app.lineCount
            try keys.key("ctrl+z")
            try app.waitFor(StateLine.self, "the paste undone", after: mark) {
                $0.received == nil
                    && $0.redo == "Redo Paste Photo"
            }
        }
    }
}

extension ShowcaseKeyboardTests {
    @Test(
        "C1, C4: the Upload pane's lists are the store's videos: their edit menu offers Copy and the keyboard drags Move To… and Copy To… (which go through the store as drops do), never Cut, Paste or Delete, so no edit can show a row the store does not hold"
    )
    func uploadListsOnlyCopy() throws {
        try withShowcase(pane: "upload") { app, keys, _ in
            try press("Tab", untilFocusOn: "Kayaking.mov", app, keys)
            try keys.key("space")  // selects it: the menu's Copy needs a selection
            let menu = try openEditMenu(app, keys)
            #expect(menu.owner == "Uploads")
            #expect(
                menu.items == ["Copy", "Move To\u{2026}", "Copy To\u{2026}"],
                "one video, selected: Copy and the keyboard drags only (no Select All either)")
        }
    }
}

extension ShowcaseKeyboardTests {
    @Test(
        "C1, S2, S4: a sent message (read-only Sent) can be dragged out, as a copy: Archive gets one, Sent keeps its message, in the store too; Ctrl+Z takes the copy back"
    )
    func sentMessagesDragOutAsCopies() throws {
        try withShowcase(pane: "mail") { app, keys, data in
            let original = titles(try stored(data, pane: .mail))
            let sent = try #require(original["Sent"]?.first)
            try press("Tab", untilFocusOn: "Inbox", app, keys)
            try press("Down", untilFocusOn: "Sent", app, keys, limit: 3)
            try app.waitForState("Sent shown", after: 0) { $0.mailbox == "Sent" }
            try press("Tab", untilFocusOn: sent, app, keys)
            try press("ctrl+shift+d", expecting: "Picked up '\(sent)'.", app, keys, prefix: true)
            try press("Tab", untilStatus: "Into Archive. Will copy.", app, keys)
            var mark = app.lineCount
            try keys.key("Return")
            var expected = original
            expected["Archive"] = (original["Archive"] ?? []) + [sent]
            try app.waitForState("a copy in Archive, undone by 'Undo Copy Message'", after: mark) {
                $0.lists == expected && $0.undo == "Undo Copy Message"
            }
            #expect(titles(try stored(data, pane: .mail)) == expected, "Sent keeps its message; Archive has a copy")
            _ = try app.settledLayout(pane: "mail")
            mark = app.lineCount
            try keys.key("ctrl+z")
            try app.waitForState("the copy undone", after: mark) { $0.lists == original }
            #expect(titles(try stored(data, pane: .mail)) == original)
        }
    }
}
