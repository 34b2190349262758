import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel

#if canImport(Glibc)
    import Glibc
#endif

extension Tour {
    /// 14. Settings: Airplane Mode turns Wi-Fi and Bluetooth off and greys them with the networks,
    /// saved, one undo step; a network's detail button opens its details while a click on the row
    /// joins it; the brightness slider follows a drag of its thumb, one undo step; a network
    /// dropped on the slider is refused with the reason; the info button shows the app's details.
    func settings(_ info: SituationInfo) throws -> Verdict {
        let pane = "settings"
        var layout = try open(pane)
        let start = try require(stateObject(pane), "the settings' state")
        let startSwitches = start.switches ?? [:]
        try check(
            startSwitches == ["airplane": false, "wifi": true, "bluetooth": true], "the switches: \(startSwitches)")
        let stored = try storedSettings("settings.")
        try check(stored["settings.wifi"] == "true", "the store's settings: \(stored)")

        // K10: Airplane Mode.
        var mark = app.lineCount
        try pointer.click(at: try layout.row("Airplane Mode", in: "Switches").center)
        let on = try waitForStateObject(pane, "Airplane Mode on", after: mark) {
            $0.switches?["airplane"] == true
        }
        try check(
            on.switches == ["airplane": true, "wifi": false, "bluetooth": false],
            "Wi-Fi and Bluetooth turn off: \(on.switches ?? [:])")
        let enabled = on.enabled ?? [:]
        try check(
            enabled["wifi"] == false && enabled["bluetooth"] == false && enabled["Home"] == false
                && enabled["airplane"] == true, "greyed at once: \(enabled)")
        try check(isSaid(on.undo, "Undo Turn On Airplane Mode"), "one named step: \(on.undo ?? "")")
        let saved = try storedSettings("settings.")
        try check(
            saved["settings.airplane"] == "true" && saved["settings.wifi"] == "false"
                && saved["settings.bluetooth"] == "false", "saved together: \(saved)")
        usleep(300_000)
        try screenshot(String(format: "%02d-%@", info.number, info.slug))
        mark = app.lineCount
        try pointer.key("ctrl+z")
        try waitForStateObject(pane, "Airplane Mode undone", after: mark) {
            $0.switches == ["airplane": false, "wifi": true, "bluetooth": true]
                && $0.enabled?.values.allSatisfy { $0 } == true
        }
        try check(try storedSettings("settings.")["settings.wifi"] == "true", "the undo is saved")

        // A network dragged onto the slider: not allowed, refused with the reason.
        layout = try app.settledLayout(pane: pane)
        let slider = try layout.list("Brightness")
        let home = try layout.row("Home", in: "Rows")
        mark = app.lineCount
        try pointer.drag(from: (leading(home, 80), home.midY), to: slider.center, pause: 0.3)
        try settleAfterDrag(mark, pane: pane, flewBack: true)
        let outcome = events(from: mark, named: "outcome").last
        try check(
            isSaid(outcome?.reason, "Brightness takes no content; drag its thumb to change it."),
            "the slider refused with its reason: \(outcome.map { "\($0)" } ?? "none")")

        // K4: the detail button opens details; a click elsewhere on the row joins the network.
        layout = try app.settledLayout(pane: pane)
        mark = app.lineCount
        try pointer.click(at: try layout.row("Café Rosa", in: "Details").center)
        try waitForStateObject(pane, "Café Rosa's details", after: mark) { $0.details == "Café Rosa" }
        try check(app.state?.selected["Networks"] == ["Home"], "the detail button did not join Café Rosa")
        let office = try layout.row("Office", in: "Rows")
        mark = app.lineCount
        try pointer.click(at: (leading(office, 80), office.midY))
        try waitForStateObject(pane, "Office joined", after: mark) {
            $0.selected?["Networks"] == ["Office"]
        }
        try check(try storedSettings("settings.")["settings.network"] == "Office", "the network is saved")

        // K9: the thumb dragged from 70 towards 30; one undo step.
        let track = (x: slider.x + 12, width: slider.width - 24)
        mark = app.lineCount
        try pointer.drag(
            from: (track.x + track.width * 0.7, slider.midY), to: (track.x + track.width * 0.3, slider.midY), steps: 8)
        try waitForStateObject(pane, "brightness down", after: mark) { ($0.brightness ?? 100) <= 40 }
        // The thumb settles after the last motion event and is saved when it does: wait (up to
        // 5 s) until the store holds the value the slider shows, rounded as the pane saves it.
        var value = -1.0
        var storedBrightness: String? = nil
        for _ in 0..<50 {
            value = try require(stateObject(pane)?.brightness, "the brightness")
            storedBrightness = try storedSettings("settings.")["settings.brightness"]
            if storedBrightness == String(Int(value.rounded())) { break }
            usleep(100_000)
        }
        try check(events(from: mark, named: "lifted").isEmpty, "K9: the thumb dragged no content")
        try check(
            storedBrightness == String(Int(value.rounded())),
            "the brightness is saved (shown \(value), stored \(storedBrightness ?? "nothing"))")
        try screenshot(String(format: "%02d-%@-brightness", info.number, info.slug))
        mark = app.lineCount
        try pointer.key("ctrl+z")
        try waitForStateObject(pane, "brightness back", after: mark) { $0.brightness == 70 }

        // K5: the info button (where it is now: the details beside it may have moved it).
        layout = try app.settledLayout(pane: pane)
        mark = app.lineCount
        try pointer.click(at: try layout.list("Info").center)
        try waitForStateObject(pane, "the app's details", after: mark) { $0.info == true }
        try pointer.key("Escape")
        return .ok(
            "Airplane Mode turned Wi-Fi and Bluetooth off and greyed them with the networks (saved together), "
                + "'Undo Turn On Airplane Mode' restored all; Café Rosa's detail button showed its details, a "
                + "click joined Office; the brightness went to \(Int(value)) and back with Ctrl+Z; 'Home' dropped "
                + "on the slider was refused with the reason; the info button showed the app's details")
    }
}
