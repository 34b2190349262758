import Foundation
import Testing

@testable import DragDropGTK

/// How another app is named in announcements (S4): by the name the desktop gives it when its
/// window class is an application ID or a command, without a display.
@Suite("Other apps: their names")
@MainActor
struct OtherAppNamesTests {
    nonisolated static func installed(_ id: String) -> Bool {
        FileManager.default.fileExists(atPath: "/usr/share/applications/\(id).desktop")
    }

    @Test(
        "S4: a GTK 4 app's application ID is named as the desktop names it (org.gnome.Nautilus is Files)",
        .enabled(if: installed("org.gnome.Nautilus"), "Nautilus is not installed (apt-get install nautilus).")
    )
    func applicationIDs() {
        #expect(DesktopAppNames.name(forWindowClass: "org.gnome.Nautilus") == "Files")
    }

    @Test(
        "S4: a lower-case command is named as the desktop names it (firefox-esr is Firefox ESR)",
        .enabled(if: installed("firefox-esr"), "Firefox is not installed (apt-get install firefox-esr).")
    )
    func commands() {
        #expect(DesktopAppNames.name(forWindowClass: "firefox-esr") == "Firefox ESR")
    }

    @Test("S4: a class written as a name is kept; unknown IDs and paths name nothing")
    func namesKept() {
        #expect(DesktopAppNames.name(forWindowClass: "Thunar") == nil)
        #expect(DesktopAppNames.name(forWindowClass: "Chromium") == nil)
        #expect(DesktopAppNames.name(forWindowClass: "org.example.NoSuchApp") == nil)
        #expect(DesktopAppNames.name(forWindowClass: "../../etc/passwd") == nil)
        #expect(DesktopAppNames.name(forWindowClass: ".hidden") == nil)
    }
}
