import DragDropGTK
import Foundation
import DriverProtocol
import WindowDriver
import Testing

/// Switch rows, the slider, the detail, info and contact-add buttons (`--scene settings`), driven
/// with real pointer and key events.
@Suite(
    "GTK: switch rows, slider, detail, info and contact-add buttons", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct SettingsControlsTests {
    static let size = (900, 640)

    static func withSettings(_ body: (FixtureApp, Pointer, SceneLayout) async throws -> Void) async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(
            on: display, size: size, arguments: ["--scene", "settings"], environment: ["GTK_A11Y": "test"])
        defer { app.stop() }
        let layout = try await app.settledSceneLayout()
        #expect(
            app.lines(HIGLine.self).first?.findings == [],
            "the scene's controls pass the HIG check")
        try await body(app, Pointer(display: display), layout)
    }

    static func switches(_ line: SwitchesLine) -> (states: [String: Bool], enabled: [String: Bool], undo: String) {
        (line.states, line.enabled, line.undo)
    }

    /// The frame of a contact in an opened contact list, in screen coordinates.
    static func pickerFrame(_ name: String, in picker: PickerLine, _ app: FixtureApp) throws -> ScreenRect {
        guard let frame = ScreenRect.frames(picker.frames, from: app.origin)[name] else {
            throw DriverError("No '\(name)' in the contact list: \(picker)")
        }
        return frame
    }

    /// Pixels of dark text inside `rect` (a row's title as people read it: greyed rows have none).
    static func darkTextPixels(_ shot: Screenshot, in rect: ScreenRect) -> Int {
        shot.count(in: rect.insetBy(4, 4), where: { $0.red < 90 && $0.green < 90 && $0.blue < 90 })
    }

    /// Pixels of the greyed (disabled) label colour inside `rect`.
    static func greyedPixels(_ shot: Screenshot, in rect: ScreenRect) -> Int {
        shot.count(in: rect, where: near((165, 162, 170), 30))
    }

    /// How far the slider's track is filled, from its drawn pixels along `scale`'s middle row:
    /// 0 (nothing filled) to 1 (filled to the end).
    static func filledFraction(_ shot: Screenshot, scale: ScreenRect) -> Double {
        let y = Int(scale.midY.rounded(.down))
        var troughStart: Int?, troughEnd = 0, fillEnd: Int?
        for x in Int(scale.x)...Int(scale.maxX) {
            let pixel = shot.pixel(x, y)
            let fill = near(ControlStyles.sliderFill, 20)(pixel)
            if fill || near(ControlStyles.sliderTrack, 12)(pixel) {
                if troughStart == nil { troughStart = x }
                troughEnd = x
            }
            if fill { fillEnd = x }
        }
        guard let start = troughStart, troughEnd > start else { return -1 }
        guard let fillEnd else { return 0 }
        return Double(fillEnd - start) / Double(troughEnd - start)
    }

    @Test(
        "K10, U1: Airplane Mode turns Wi-Fi and Bluetooth off and greys them (and the networks) at once; one undo step 'Turn On Airplane Mode' restores all; a click anywhere on a row, or Space on it, toggles its switch"
    )
    func airplaneMode() async throws {
        try await Self.withSettings { app, pointer, layout in
            let wifiRow = try layout.frame("row/wifi")
            let homeRow = try layout.frame("row/Home")
            let before = try Screenshot.capture(app.display)
            // The titles only: the switch's own colours change with its state.
            let wifiTitle = ScreenRect(x: wifiRow.x, y: wifiRow.y, width: wifiRow.width / 2, height: wifiRow.height)
            let homeTitle = ScreenRect(x: homeRow.x, y: homeRow.y, width: homeRow.width / 2, height: homeRow.height)
            #expect(Self.darkTextPixels(before, in: wifiTitle) > 20, "Wi-Fi's title reads dark at first")

            var mark = app.lineCount
            try pointer.click(at: try layout.frame("switch/airplane").center)
            let on = Self.switches(
                try await app.waitFor(SwitchesLine.self, "Airplane Mode on", after: mark) {
                    Self.switches($0).states["airplane"] == true
                })
            #expect(on.states == ["airplane": true, "wifi": false, "bluetooth": false])
            #expect(on.enabled["wifi"] == false && on.enabled["bluetooth"] == false, "greyed: \(on.enabled)")
            #expect(on.enabled["network-Home"] == false, "the networks grey with Wi-Fi")
            #expect(on.enabled["airplane"] == true)
            #expect(on.undo == "Undo Turn On Airplane Mode", "one named step: \(on.undo)")
            try await Task.sleep(for: .milliseconds(300))
            let after = try Screenshot.capture(app.display)
            for (name, title) in [("Wi-Fi", wifiTitle), ("Home", homeTitle)] {
                #expect(Self.darkTextPixels(after, in: title) < 3, "K10: no dark text left in \(name)'s row")
                #expect(Self.greyedPixels(after, in: title) > 20, "K10: \(name)'s row is visibly grey")
            }

            mark = app.lineCount
            try pointer.key("ctrl+z")
            let undone = Self.switches(
                try await app.waitFor(SwitchesLine.self, "Airplane Mode undone", after: mark) {
                    Self.switches($0).states["airplane"] == false
                })
            #expect(undone.states == ["airplane": false, "wifi": true, "bluetooth": true], "all back at once")
            #expect(undone.enabled.values.allSatisfy { $0 }, "nothing greyed: \(undone.enabled)")

            // A click anywhere on the row toggles its switch; then Space on the focused row (K12).
            let bluetooth = try layout.frame("row/bluetooth")
            mark = app.lineCount
            try pointer.click(at: (bluetooth.x + 40, bluetooth.midY))
            try await app.waitFor(SwitchesLine.self, "Bluetooth off", after: mark) {
                Self.switches($0).states["bluetooth"] == false
            }
            mark = app.lineCount
            try pointer.key("space")
            let back = Self.switches(
                try await app.waitFor(SwitchesLine.self, "Bluetooth on by Space", after: mark) {
                    Self.switches($0).states["bluetooth"] == true
                })
            #expect(back.undo == "Undo Turn On Bluetooth")
        }
    }

    @Test(
        "K9, U1: the track is filled from the minimum to the value; keys step it; one undo step per adjustment; the thumb never drags its draggable card; content dropped on the slider is refused with a reason"
    )
    func slider() async throws {
        try await Self.withSettings { app, pointer, layout in
            let scale = try layout.frame("brightness")
            var fraction = Self.filledFraction(try Screenshot.capture(app.display), scale: scale)
            #expect(abs(fraction - 0.7) < 0.08, "filled to 70 of 100: \(fraction)")

            // Focus the slider (a click on its thumb leaves the value), then Home and End.
            let thumbX = scale.x + 12 + (scale.width - 24) * 0.7
            try pointer.click(at: (thumbX, scale.midY))
            var mark = app.lineCount
            try pointer.key("Home")
            try await app.waitFor(SliderLine.self, "Brightness at 0", after: mark) {
                $0.id == "brightness" && $0.value == 0
            }
            try await Task.sleep(for: .milliseconds(200))
            fraction = Self.filledFraction(try Screenshot.capture(app.display), scale: scale)
            #expect(fraction < 0.05, "nothing filled at the minimum: \(fraction)")
            mark = app.lineCount
            for _ in 0..<3 { try pointer.key("Right") }
            try await app.waitFor(SliderLine.self, "Brightness at 15", after: mark) {
                $0.id == "brightness" && $0.value == 15
            }
            try await Task.sleep(for: .milliseconds(200))
            fraction = Self.filledFraction(try Screenshot.capture(app.display), scale: scale)
            #expect(abs(fraction - 0.15) < 0.08, "filled to 15: \(fraction)")
            // Home then three Rights came within 0.8 s of each other: one adjustment, one step.
            mark = app.lineCount
            try pointer.key("ctrl+z")
            try await app.waitFor(SliderLine.self, "Brightness back at 70", after: mark) {
                $0.id == "brightness" && $0.value == 70
            }

            // The draggable card's slider: its thumb moves the value, never the card.
            let size = try layout.frame("size")
            let thumb = (size.x + 12 + (size.width - 24) * 0.2, size.midY)
            mark = app.lineCount
            try pointer.drag(from: thumb, to: (thumb.0 + 120, thumb.1), steps: 6)
            try await app.waitFor(SliderLine.self, "Size moved", after: mark) {
                $0.id == "size" && $0.value > 4
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(!app.eventNames(from: mark).contains("lifted"), "the thumb never drags the card")

            // Text dropped on Brightness: not-allowed while over it, refused with the reason.
            let sunset = try layout.frame("notes/Sunset")
            mark = app.lineCount
            try pointer.drag(from: sunset.center, to: scale.center, pause: 0.3)
            try await app.waitForDragEnd(after: mark)
            let events = app.events(from: mark)
            #expect(
                events.contains {
                    $0.event == "proposal" && $0.destination == "brightness"
                        && $0.operation == "forbidden"
                }, "a not-allowed proposal over the slider")
            let outcome = events.last { $0.event == "outcome" }
            #expect(outcome?.reason == "Brightness takes no content; drag its thumb to change it.")
            #expect(!events.contains { $0.event == "committed" })
        }
    }

    @Test(
        "K4, K5: a detail button opens its network's details while a click elsewhere selects the row; the info button shows the app's details; contact-add adds 'Name <email>' (by pointer or keyboard) while the field still takes typing"
    )
    func buttons() async throws {
        try await Self.withSettings { app, pointer, layout in try await Self.useButtons(app, pointer, layout) }
    }

    static func useButtons(_ app: FixtureApp, _ pointer: Pointer, _ layout: SceneLayout) async throws {
        do {
            var mark = app.lineCount
            try pointer.click(at: try layout.frame("detail/Café Rosa").center)
            try await app.waitFor(DetailsLine.self, "Café Rosa's details", after: mark) {
                $0.network == "Café Rosa"
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(!app.lines(NetworkLine.self, from: mark).contains { _ in true }, "no selection change")
            mark = app.lineCount
            let office = try layout.frame("row/Office")
            try pointer.click(at: (office.x + 60, office.midY))
            try await app.waitFor(NetworkLine.self, "Office selected", after: mark) {
                $0.selected == "Office"
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(!app.lines(DetailsLine.self, from: mark).contains { _ in true }, "no details opened")

            mark = app.lineCount
            try pointer.click(at: try layout.frame("info").center)
            try await app.waitFor(InfoLine.self, "the app's details", after: mark)
            try pointer.key("Escape")
            try await Task.sleep(for: .milliseconds(300))

            // Typing, then a contact from the button: both in the field, the pick one undo step.
            let field = try layout.frame("to")
            try pointer.click(at: field.center)
            try pointer.type("sam@example.org")
            try await app.waitFor(EntryLine.self, "the typed address", after: mark) {
                $0.text == "sam@example.org"
            }
            mark = app.lineCount
            try pointer.click(at: try layout.frame("contact-add").center)
            let picker = try await app.waitFor(PickerLine.self, "the contact list", after: mark)
            #expect(picker.rows == ["Ana Sousa", "Priya Shah"])
            let ana = try Self.pickerFrame("Ana Sousa", in: picker, app)
            mark = app.lineCount
            try pointer.click(at: ana.center)
            try await app.waitFor(EntryLine.self, "Ana added", after: mark) {
                $0.text == "sam@example.org, Ana Sousa <ana@example.org>"
            }
            // The field still takes typing after a pick (the button never replaces the keyboard).
            mark = app.lineCount
            try pointer.type(", tom@example.org")
            try await app.waitFor(EntryLine.self, "more typing", after: mark) {
                $0.text == "sam@example.org, Ana Sousa <ana@example.org>, tom@example.org"
            }
            mark = app.lineCount
            try pointer.key("ctrl+z")
            try pointer.key("ctrl+z")
            try await app.waitFor(EntryLine.self, "the pick undone", after: mark) {
                $0.text == "sam@example.org"
            }

            // K12: the same by keyboard: Tab from the field to the button, Return opens the list
            // with its first contact focused, Down and Return pick the second.
            try pointer.click(at: field.center)
            try pointer.key("End")
            mark = app.lineCount
            try pointer.key("Tab")
            try pointer.key("Return")
            try await app.waitFor(PickerLine.self, "the contact list by keyboard", after: mark)
            mark = app.lineCount
            try pointer.key("Down")
            try pointer.key("Return")
            try await app.waitFor(EntryLine.self, "Priya added by keyboard", after: mark) {
                $0.text == "sam@example.org, Priya Shah <priya@example.org>"
            }
        }
    }
}
