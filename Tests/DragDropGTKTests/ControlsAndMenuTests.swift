import DragDropGTK
import Foundation
import DriverProtocol
import WindowDriver
import Testing

/// The segmented control and the edit menus of the grid and the list (`--scene grid`).
@Suite(
    "GTK: segmented control and edit menus", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct ControlsAndMenuTests {
    static let size = GridWidgetTests.size

    @Test("SP2: a click selects a segment")
    func segmentByClick() async throws {
        try await FixtureApp.withScene("grid", size: Self.size) { app, pointer in
            let month = try await app.settledSceneLayout().frame("views/Month")
            let mark = app.lineCount
            try pointer.click(at: (month.midX, month.midY))
            let segment = try await app.waitFor(SegmentLine.self, "Month selected", after: mark)
            #expect(segment.selected == "Month")
            #expect(segment.by == "click")
        }
    }

    @Test("SP1: content held over a segment selects it after a flash; passing over another one briefly does not")
    func segmentBySpringLoading() async throws {
        try await FixtureApp.withScene("grid", size: Self.size) { app, pointer in
            let layout = try await app.settledSceneLayout()
            let mail = try layout.frame("home/Mail")
            let week = try layout.frame("views/Week")
            let year = try layout.frame("views/Year")
            let mark = app.lineCount
            // Briefly over Year (armed, then disarmed), then held over Week, then released
            // outside every window.
            try pointer.drag(
                from: (mail.midX, mail.midY), to: (year.midX, year.midY), pause: 0.2,
                then: ["mousemove"] + Pointer.at((week.midX, week.midY)) + ["sleep", "0.05"]
                    + ["mousemove"] + Pointer.at((week.midX + 1, week.midY)) + ["sleep", "1.2"]
                    + ["mousemove", "1000", "700", "sleep", "0.1", "mousemove", "1001", "700", "sleep", "0.1"])
            let segment = try await app.waitFor(SegmentLine.self, "Week selected by spring loading", after: mark)
            #expect(segment.selected == "Week")
            #expect(segment.by == "springLoading")
            try await app.waitForDragEnd(after: mark)
            let events = app.events(from: mark)
            func index(_ name: String, _ target: String) -> Int? {
                events.firstIndex { $0.event == name && $0.target == target }
            }
            #expect(index("springDisarmed", "views.3") != nil, "leaving Year before the pause disarms it")
            #expect(index("springActivated", "views.3") == nil)
            #expect(try #require(index("springFlash", "views.1")) < #require(index("springActivated", "views.1")))
            #expect(
                !app.lines(SegmentLine.self, from: mark).contains { $0.selected == "Year" })
        }
    }

    @Test(
        "C1, K2: the grid's edit menu lists only what applies: no Paste before a copy, no Select All when all is selected, Undo after a change"
    )
    func gridEditMenu() async throws {
        try await FixtureApp.withScene("grid", size: Self.size) { app, pointer in
            let layout = try await app.settledSceneLayout()
            let mail = try layout.frame("home/Mail")
            let home = try layout.frame("home")
            let games = try layout.frame("home/Games")  // the last tile
            let empty = (home.midX, games.maxY + 40)  // inside the grid, below the tiles

            // Nothing selected, empty clipboard: only Select All.
            var menu = try await app.openMenu(at: empty, pointer: pointer, owner: "Home")
            #expect(menu.items == ["Select All"])
            try pointer.key("Escape")

            // A secondary click on a tile selects it first.
            try await Task.sleep(for: .milliseconds(200))
            try await app.chooseMenuItem("Copy", at: (mail.midX, mail.midY), pointer: pointer, owner: "Home")
            try await app.waitFor(GridLine.self, "Mail selected", after: 0) { GridWidgetTests.selected($0) == ["Mail"] }
            try await Task.sleep(for: .milliseconds(200))
            menu = try await app.openMenu(at: empty, pointer: pointer, owner: "Home")
            // A grid is a collection view: Move To… and Copy To… start a keyboard drag (C4).
            #expect(menu.items == ["Cut", "Copy", "Paste", "Move To\u{2026}", "Copy To\u{2026}", "Delete", "Select All"])
            guard let selectAll = menu.frames["Select All"] else { throw DriverError("no Select All") }
            var mark = app.lineCount
            try pointer.click(at: (selectAll.midX, selectAll.midY))
            try await app.waitFor(GridLine.self, "everything selected", after: mark) {
                GridWidgetTests.selected($0) == GridWidgetTests.tiles
            }
            try await Task.sleep(for: .milliseconds(200))
            menu = try await app.openMenu(at: empty, pointer: pointer, owner: "Home")
            #expect(menu.items == ["Cut", "Copy", "Paste", "Move To\u{2026}", "Copy To\u{2026}", "Delete"])
            guard let delete = menu.frames["Delete"] else { throw DriverError("no Delete") }
            mark = app.lineCount
            try pointer.click(at: (delete.midX, delete.midY))
            try await app.waitFor(GridLine.self, "an empty grid", after: mark) { GridWidgetTests.tiles($0).isEmpty }
            try await Task.sleep(for: .milliseconds(300))

            menu = try await app.openMenu(at: empty, pointer: pointer, owner: "Home")
            #expect(menu.items == ["Undo Delete", "Paste"])
            try pointer.key("Escape")
            try await Task.sleep(for: .milliseconds(200))
            mark = app.lineCount
            try pointer.key("ctrl+z")
            try await app.waitFor(GridLine.self, "the tiles back", after: mark) {
                GridWidgetTests.tiles($0) == GridWidgetTests.tiles
            }
        }
    }

    @Test("C1, K2, U1: the list's edit menu cuts a row and pastes it after another; Ctrl+Z undoes both in turn")
    func listEditMenu() async throws {
        try await FixtureApp.withScene("grid", size: Self.size) { app, pointer in
            let layout = try await app.settledSceneLayout()
            let lunch = try layout.frame("inbox/Lunch")
            let report = try layout.frame("inbox/Report")
            let menu = try await app.openMenu(at: (lunch.midX, lunch.midY), pointer: pointer, owner: "Inbox")
            // A list is a collection view: Move To… and Copy To… start a keyboard drag (C4).
            #expect(menu.items == ["Cut", "Copy", "Move To\u{2026}", "Copy To\u{2026}", "Delete", "Select All"])
            guard let cut = menu.frames["Cut"] else { throw DriverError("no Cut") }
            var mark = app.lineCount
            try pointer.click(at: (cut.midX, cut.midY))
            try await app.waitFor(ListLine.self, "Lunch cut", after: mark) { $0.items == ["Report"] }
            _ = try await app.settledSceneLayout()
            try await Task.sleep(for: .milliseconds(200))
            mark = app.lineCount
            try await app.chooseMenuItem("Paste", at: (report.midX, lunch.midY), pointer: pointer, owner: "Inbox")
            try await app.waitFor(ListLine.self, "Lunch pasted after Report", after: mark) {
                $0.items == ["Report", "Lunch"]
            }
            try await Task.sleep(for: .milliseconds(300))
            mark = app.lineCount
            try pointer.key("ctrl+z")
            try await app.waitFor(ListLine.self, "the paste undone", after: mark) {
                $0.items == ["Report"]
            }
            mark = app.lineCount
            try pointer.key("ctrl+z")
            try await app.waitFor(ListLine.self, "the cut undone", after: mark) {
                $0.items == ["Lunch", "Report"]
            }
        }
    }
}
