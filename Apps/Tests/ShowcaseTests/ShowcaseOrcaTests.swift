import DragDrop
import Foundation
import DriverProtocol
import WindowDriver
import Testing

/// A keyboard drag as Orca, the desktop's screen reader, speaks it to a person using the
/// showcase in Korean or Russian (C4, L1): Orca itself runs in the app's private D-Bus session
/// beside a window manager and logs what it speaks (`ScreenReader.orca()`). Every sentence of
/// ours it speaks is in the person's language: the keyboard-drag help read on a focused row,
/// the pick-up, each drop point Tab reaches, the cancel.
@Suite(
    "Showcase: Orca speaking a keyboard drag in Korean and Russian", .serialized,
    .enabled(
        if: Tools.xvfb != nil && Tools.xdotool != nil,
        "Xvfb or xdotool is not installed (run `make deps`): showcase tests skipped."),
    .enabled(if: ScreenReader.orcaMissing == nil, "\(ScreenReader.orcaMissing ?? ""): Orca tests skipped.")
)
struct ShowcaseOrcaTests: ShowcaseTesting {
    /// Whether `text` holds a letter of the language's script (Hangul, Cyrillic).
    static func written(_ text: String, in language: String) -> Bool {
        let range: ClosedRange<UInt32> = language == "ko" ? 0xAC00...0xD7A3 : 0x0400...0x04FF
        return text.unicodeScalars.contains { range.contains($0.value) }
    }

    @Test(
        "C4, L1: Orca speaks the showcase's keyboard drag in the person's language: the drag help on the focused reminder, 'Picked up', the list Tab reaches ('Work 위: 놓으면 이동됩니다.'), and the cancel, none of it in English",
        arguments: [("ko", "ko_KR"), ("ru", "ru_RU")])
    func keyboardDragSpokenByOrca(_ language: String, _ locale: String) throws {
        let orca = try ScreenReader.orca()
        try withDataDirectory { data in
            let display = try XDisplay.startPrivate()
            defer { display.stop() }
            let app = try ShowcaseProcess.launch(
                executable: try Self.showcaseExecutable(), dataDirectory: data, display: display, pane: "reminders",
                screenReader: orca,
                environment: ["LANGUAGE": language, "LANG": "\(locale).UTF-8", "LC_ALL": "", "LC_MESSAGES": ""])
            defer { app.stop() }
            let layout = try app.settledLayout(pane: "reminders")
            let pointer = Pointer(display: display)
            let said = { (words: () -> String) in Localization.withLanguage(language) { words() } }
            let overWork = said { Announcements.over("Work", .move) }

            // The focused reminder: its name, then how to drag it from the keyboard.
            var mark = app.lineCount
            try pointer.click(at: try layout.row("Lemons", in: "Groceries").center)
            let chosen = try app.waitForState("a reminder selected", after: mark) {
                $0.selected["Groceries"]?.count == 1
            }
            let name = try #require(chosen.selected["Groceries"]?.first)
            let item = DragItem(id: "chosen", name: name, types: [], app: AppID("showcase"))
            let pickedUp = said { Announcements.pickedUp([item]) }
            try orca.waitUntil("the drag help on the focused row", timeout: 20) { lines in
                lines.contains { $0.text.contains("Control+Shift+D") && Self.written($0.text, in: language) }
            }
            mark = app.lineCount
            try pointer.key("ctrl+shift+d")
            try orca.waitUntil("'\(pickedUp)…'", timeout: 10) { lines in
                // The keyboard's pick-up goes on to count the drop points after the sentence.
                lines.contains { $0.text.hasPrefix(pickedUp.hasSuffix(".") ? String(pickedUp.dropLast()) : pickedUp) }
            }
            for _ in 0..<6 where !orca.heard.contains(overWork) {
                let before = orca.heard.count
                try pointer.key("Tab")
                // Orca echoes the key ("tab"), then speaks where the drag is (a sentence).
                try orca.waitUntil("a drop point after Tab", timeout: 10) { lines in
                    lines.filter { $0.kind == "heard" }.dropFirst(before).contains { $0.text.hasSuffix(".") }
                }
            }
            #expect(orca.heard.contains(overWork), "Tab reached Work: \(orca.heard)")
            let beforeEscape = orca.heard.count
            try pointer.key("Escape")
            try orca.waitUntil("the cancel", timeout: 10) { lines in
                lines.filter { $0.kind == "heard" }.dropFirst(beforeEscape).contains {
                    Self.written($0.text, in: language)
                }
            }
            // Orca's own words (key names) aside, nothing of ours was spoken in English.
            let ours = orca.heard.filter { $0.count > 20 }
            #expect(
                !ours.contains { $0.hasPrefix("Press ") || $0.hasPrefix("Picked up") || $0.hasPrefix("Over ") },
                "\(ours)")
        }
    }
}
