import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel
import Testing

/// The showcase app itself, on a private Xvfb with a temporary data directory, driven by real
/// pointer events (XTEST through xdotool); its store is read back from the database file.
@Suite(
    "Showcase: Reminders pane", .serialized,
    .enabled(
        if: Tools.xvfb != nil && Tools.xdotool != nil,
        "Xvfb or xdotool is not installed (run `make deps`): showcase tests skipped.")
)
struct ShowcaseRemindersTests: ShowcaseTesting {
    @Test(
        "S2, S4, U1: a reminder dragged to another list moves there in the store (same row, nothing lost); Ctrl+Z puts it back at its exact place, Ctrl+Shift+Z moves it again, and a relaunch shows what was saved"
    )
    func moveBetweenListsIsSavedAndUndone() throws {
        try withDataDirectory { data in
            let display = try XDisplay.startPrivate()
            defer { display.stop() }
            let executable = try Self.showcaseExecutable()
            let pointer = Pointer(display: display)
            var app = try ShowcaseProcess.launch(executable: executable, dataDirectory: data, display: display)
            defer { app.stop() }

            let before = try stored(data)
            let original = titles(before)
            #expect(app.state?.lists == original, "the window shows what the store holds")
            let groceries = try #require(before["Groceries"])
            let home = try #require(before["Home"])
            let milk = try #require(groceries.first)

            // Drag 'Oat milk' below the last row of Home.
            let layout = try app.settledLayout(pane: "reminders")
            let last = try layout.row(try #require(home.last).title, in: "Home")
            var mark = app.lineCount
            try pointer.drag(from: try layout.row(milk.title, in: "Groceries").center, to: (last.midX, last.maxY + 12))
            var expected = original
            expected["Groceries"] = Array(original["Groceries"]!.dropFirst())
            expected["Home"] = original["Home"]! + [milk.title]
            try app.waitForState("'\(milk.title)' in Home", after: mark) { $0.lists == expected }
            let committed = app.events(from: mark).filter { $0.event == "committed" }
            #expect(committed.count == 1)
            #expect(committed.first?.operation == "move", "S2: reminders move between lists")

            // The store: the same row (same id) now last in Home, every other row in place.
            let moved = try stored(data)
            #expect(titles(moved) == expected)
            #expect(moved["Home"]?.last?.id == milk.id, "a move keeps the row (no copy, no new id)")
            let countBefore: Int = before.values.map(\.count).reduce(0, +)
            let countAfter: Int = moved.values.map(\.count).reduce(0, +)
            #expect(countAfter == countBefore, "nothing lost")

            // U1: Ctrl+Z restores the exact original rows and places; Ctrl+Shift+Z moves it again.
            try app.waitForDragEnd(after: mark)
            _ = try app.settledLayout(pane: "reminders")
            mark = app.lineCount
            try pointer.key("ctrl+z")
            try app.waitForState("the undone move", after: mark) { $0.lists == original }
            #expect(ids(try stored(data)) == ids(before), "undo puts every row back at its place")
            mark = app.lineCount
            try pointer.key("ctrl+shift+z")
            try app.waitForState("the redone move", after: mark) { $0.lists == expected }
            #expect(ids(try stored(data)) == ids(moved))

            // Saved: a new launch on the same data shows the moved reminder.
            #expect(app.quit() == 0, "the showcase quits cleanly at the end of its input")
            app = try ShowcaseProcess.launch(executable: executable, dataDirectory: data, display: display)
            #expect(app.state?.lists == expected)
        }
    }

    @Test(
        "U1: each pane has its own undo history: after a move in Reminders, the Photos pane has nothing to undo and Ctrl+Z there changes nothing; back in Reminders, Ctrl+Z undoes the move"
    )
    func undoHistoryPerPane() throws {
        try withDataDirectory { data in
            let display = try XDisplay.startPrivate()
            defer { display.stop() }
            let pointer = Pointer(display: display)
            let app = try ShowcaseProcess.launch(executable: try Self.showcaseExecutable(), dataDirectory: data, display: display)
            defer { app.stop() }
            let original = try #require(app.state?.lists)
            let groceries = try #require(original["Groceries"])
            let home = try #require(original["Home"])
            let layout = try app.settledLayout(pane: "reminders")
            let last = try layout.row(try #require(home.last), in: "Home")
            var mark = app.lineCount
            try pointer.drag(from: try layout.row(try #require(groceries.first), in: "Groceries").center, to: (last.midX, last.maxY + 12))
            _ = try app.waitForState("the move", after: mark) { $0.lists != original && $0.undo == "Undo Move Reminder" }
            try app.waitForDragEnd(after: mark)

            let storedAfterMove = titles(try stored(data))
            mark = app.lineCount
            try pointer.click(at: try #require(layout.sidebar["photos"]).center)
            let photos = try app.waitForState("the Photos pane", after: mark) { $0.pane == "photos" }
            #expect(photos.undo == "", "U1: Photos has nothing to undo")
            mark = app.lineCount
            try pointer.key("ctrl+z")
            usleep(600_000)
            #expect(!app.events(from: mark).contains { $0.event == "undid" }, "nothing undone from another pane")
            #expect(titles(try stored(data)) == storedAfterMove, "Reminders' store unchanged")

            mark = app.lineCount
            try pointer.click(at: try #require(layout.sidebar["reminders"]).center)
            let back = try app.waitForState("Reminders again", after: mark) { $0.pane == "reminders" }
            #expect(back.undo == "Undo Move Reminder", "its history kept")
            _ = try app.settledLayout(pane: "reminders")
            mark = app.lineCount
            try pointer.key("ctrl+z")
            try app.waitForState("the move undone", after: mark) { $0.lists == original }
        }
    }

    @Test("M1, M3: two selected reminders dragged together move in one drop, with a count of 2 on the drag image")
    func severalRemindersMoveTogether() throws {
        try withDataDirectory { data in
            let display = try XDisplay.startPrivate()
            defer { display.stop() }
            let pointer = Pointer(display: display)
            let app = try ShowcaseProcess.launch(
                executable: try Self.showcaseExecutable(), dataDirectory: data, display: display)
            defer { app.stop() }
            let original = titles(try stored(data))
            let groceries = try #require(original["Groceries"])
            let work = try #require(original["Work"])
            let layout = try app.settledLayout(pane: "reminders")

            var mark = app.lineCount
            try pointer.click(at: try layout.row(groceries[1], in: "Groceries").center)
            try pointer.click(at: try layout.row(groceries[3], in: "Groceries").center, holding: ["ctrl"])
            try app.waitForState("two reminders selected", after: mark) {
                $0.selected["Groceries"] == [groceries[1], groceries[3]]
            }
            // Onto the top half of Work's first row: index 0.
            let first = try layout.row(work[0], in: "Work")
            mark = app.lineCount
            try pointer.drag(
                from: try layout.row(groceries[3], in: "Groceries").center, to: (first.midX, first.y + 6))
            var expected = original
            expected["Groceries"] = groceries.enumerated().filter { $0.offset != 1 && $0.offset != 3 }.map(\.element)
            expected["Work"] = [groceries[1], groceries[3]] + work
            try app.waitForState("both reminders in Work", after: mark) { $0.lists == expected }
            let events = app.events(from: mark)
            #expect(events.filter { $0.event == "committed" }.count == 1, "one drop, one transaction")
            #expect(events.contains { $0.event == "preview" && $0.count == 2 })
            #expect(titles(try stored(data)) == expected)
            #expect(app.state?.undo == "Undo Move 2 Reminders")
        }
    }
}
