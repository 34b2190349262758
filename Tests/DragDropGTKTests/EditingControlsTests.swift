import DragDropGTK
import Foundation
import DriverProtocol
import WindowDriver
import Testing

/// The edit menu's details (K6) in a text view, a text field and a selectable label, and the
/// secure field (K11): `--scene editing`, with real pointer and key events.
@Suite(
    "GTK: edit menu details and the secure field", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct EditingControlsTests {
    static func withEditing(_ body: (FixtureApp, Pointer, SceneLayout) async throws -> Void) async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(on: display, size: (640, 420), arguments: ["--scene", "editing"])
        defer { app.stop() }
        let layout = try await app.settledSceneLayout()
        try await body(app, Pointer(display: display), layout)
    }

    static func selected(_ id: String, _ app: FixtureApp) -> String? {
        app.latest(SelectionLine.self, id: id)?.selected
    }

    static func waitForSelection(
        _ id: String, _ app: FixtureApp, after mark: Int, where predicate: @escaping (String) -> Bool
    ) async throws -> String {
        let line = try await app.waitFor(SelectionLine.self, "a selection in \(id)", after: mark) {
            $0.id == id && predicate($0.selected)
        }
        return line.selected
    }

    @Test("K6: a double click selects a whole word in a text view, a text field and a label")
    func doubleClickSelectsWords() async throws {
        try await Self.withEditing { app, pointer, layout in
            var mark = app.lineCount
            try pointer.doubleClick(at: try layout.word("tent", in: "notes").center)
            #expect(try await Self.waitForSelection("notes", app, after: mark) { !$0.isEmpty } == "tent")

            let field = try layout.frame("field")
            mark = app.lineCount
            try pointer.doubleClick(at: (field.x + 24, field.midY))
            #expect(try await Self.waitForSelection("field", app, after: mark) { !$0.isEmpty } == "Lunch")

            let label = try layout.frame("label")
            mark = app.lineCount
            try pointer.doubleClick(at: (label.x + 20, label.midY))
            #expect(try await Self.waitForSelection("label", app, after: mark) { !$0.isEmpty } == "Labels")
        }
    }

    @Test(
        "K6: Cut, Copy and Delete only with a selection, Select only without one and it takes a whole word; the menu sits beside the selection without covering it; a label's menu has Copy, never Cut, Paste or Delete"
    )
    func menuDetails() async throws {
        try await Self.withEditing { app, pointer, layout in
            let blue = try layout.word("blue", in: "notes")
            var menu = try await app.openMenu(at: blue.center, pointer: pointer, owner: "Notes")
            #expect(menu.items == ["Select", "Select All"], "no selection: no Cut, Copy or Delete")
            var mark = app.lineCount
            try pointer.click(at: try #require(menu.frames["Select"]).center)
            #expect(try await Self.waitForSelection("notes", app, after: mark) { !$0.isEmpty } == "blue")

            // The Menu key opens it again, beside "blue" now.
            try await Task.sleep(for: .milliseconds(300))
            mark = app.lineCount
            try pointer.key("Menu")
            let opened = try await app.waitFor(MenuLine.self, "the notes' menu", after: mark) {
                $0.owner == "Notes"
            }
            #expect(opened.items == ["Cut", "Copy", "Delete", "Select All"], "no Select with one")
            let frames = Array(ScreenRect.frames(opened.frames, from: app.origin).values)
            let top = frames.map(\.y).min() ?? 0, bottom = frames.map(\.maxY).max() ?? 0
            let left = frames.map(\.x).min() ?? 0, right = frames.map(\.maxX).max() ?? 0
            let covers = top < blue.maxY && bottom > blue.y && left < blue.maxX && right > blue.x
            #expect(!covers, "the menu (\(left),\(top))-(\(right),\(bottom)) does not cover 'blue' \(blue)")
            let gap = min(abs(blue.y - bottom), abs(top - blue.maxY))
            #expect(gap < 30, "the menu is beside the word: \(gap) px away")
            #expect(left < blue.maxX && right > blue.x, "and over or under it, not off to a side")
            try pointer.key("Escape")

            // A label: Select, Select All; then Copy, never Cut, Paste or Delete.
            try await Task.sleep(for: .milliseconds(300))
            let label = try layout.frame("label")
            let owner = "Labels can be copied word by word"
            menu = try await app.openMenu(at: (label.x + 60, label.midY), pointer: pointer, owner: owner)
            #expect(menu.items == ["Select", "Select All"])
            mark = app.lineCount
            try pointer.click(at: try #require(menu.frames["Select"]).center)
            let word = try await Self.waitForSelection("label", app, after: mark) { !$0.isEmpty }
            #expect(word == "can", "Select takes the word under the pointer")
            try await Task.sleep(for: .milliseconds(300))
            menu = try await app.openMenu(at: (label.x + 60, label.midY), pointer: pointer, owner: owner)
            #expect(menu.items == ["Copy", "Select All"])
            try pointer.key("Escape")
        }
    }

    @Test("L1, K6: with Korean chosen (LANGUAGE=ko), the edit menu's commands read in Korean, Select and the rest alike")
    func menuInKorean() async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(
            on: display, size: (640, 420), arguments: ["--scene", "editing"],
            environment: ["LANGUAGE": "ko", "LANG": "ko_KR.UTF-8"])
        defer { app.stop() }
        let pointer = Pointer(display: display)
        let layout = try await app.settledSceneLayout()
        let blue = try layout.word("blue", in: "notes")
        var menu = try await app.openMenu(at: blue.center, pointer: pointer, owner: "Notes")
        #expect(menu.items == ["선택", "모두 선택"])
        let mark = app.lineCount
        try pointer.click(at: try #require(menu.frames["선택"]).center)
        #expect(try await Self.waitForSelection("notes", app, after: mark) { !$0.isEmpty } == "blue")
        try await Task.sleep(for: .milliseconds(300))
        menu = try await app.openMenu(at: blue.center, pointer: pointer, owner: "Notes")
        #expect(menu.items == ["잘라내기", "복사하기", "삭제", "모두 선택"])
    }

    @Test("K11: a secure field hides what is typed and never offers Copy, Cut or dragging its text out")
    func secureField() async throws {
        try await Self.withEditing { app, pointer, layout in
            let password = try layout.frame("password")
            try pointer.click(at: password.center)
            try pointer.type("hunter2")
            try await app.waitFor(SecureLine.self, "the typed secret", after: 0) { $0.length == 7 }
            try pointer.key("ctrl+a")
            var mark = app.lineCount
            try pointer.key("Menu")
            let menu = try await app.waitFor(MenuLine.self, "the password's menu", after: mark) {
                $0.owner == "Password"
            }
            #expect(
                menu.items == ["Delete"], "no Copy, no Cut, not even Select All when all is selected")
            try pointer.key("Escape")
            // Another app owns the clipboard with a sentinel; Ctrl+C and Ctrl+X must leave it.
            let xclip = try #require(Tools.find("xclip"), "xclip is not installed (make deps installs it)")
            let input = try ProcessPipe()
            let owner = try ChildProcess(
                xclip, ["-quiet", "-selection", "clipboard", "-i"], environment: ["DISPLAY": app.display.name],
                stdin: input.read)
            close(input.read)
            _ = Array("sentinel".utf8).withUnsafeBytes { write(input.write, $0.baseAddress, $0.count) }
            close(input.write)
            defer { owner.stop() }
            try await Task.sleep(for: .milliseconds(300))
            try pointer.key("ctrl+a")
            try pointer.key("ctrl+c")
            try pointer.key("ctrl+x")
            try await Task.sleep(for: .milliseconds(300))
            let pasted = String(
                decoding: try Tools.run(
                    xclip, ["-o", "-selection", "clipboard"], environment: ["DISPLAY": app.display.name]),
                as: UTF8.self)
            #expect(pasted == "sentinel", "the clipboard never gets the secret: '\(pasted)'")
            #expect(app.last(SecureLine.self)?.length == 7, "Ctrl+X cut nothing")

            // Dragging the selected secret onto the notes drags nothing.
            let notes = try layout.frame("notes")
            mark = app.lineCount
            try pointer.drag(from: (password.x + 20, password.midY), to: notes.center, steps: 6)
            try await Task.sleep(for: .milliseconds(600))
            #expect(!app.eventNames(from: mark).contains("lifted"), "no drag out of a secure field")
            #expect(
                app.latest(SelectionLine.self, id: "notes")?.text == "Pack the blue tent before Friday")
        }
    }
}
