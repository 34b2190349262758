import DragDropGTK
import Foundation
import DriverProtocol
import WindowDriver
import Testing

/// The HIG check of live windows (`HIGCheck`): the K1 title rule on its own, then a deliberately
/// wrong window (`dragdrop-gtk-fixture --scene hig`) that must yield one finding per breach and
/// none for its correct controls.
@Suite(
    "GTK: the HIG check of live windows", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct ControlsHIGCheckTests {
    @Test("K1 (the rule itself): short title-case verbs pass; sentences, lower case, nouns and punctuation fail")
    func titleRule() {
        #expect(HIGCheck.titleProblems("Cancel Upload", use: .command).isEmpty)
        #expect(HIGCheck.titleProblems("Move To\u{2026}", use: .command).isEmpty)
        #expect(HIGCheck.titleProblems("Turn On", use: .command).isEmpty)
        #expect(HIGCheck.titleProblems("Week", use: .segment).isEmpty)
        #expect(!HIGCheck.titleProblems("Week", use: .command).isEmpty, "a noun is not a verb")
        #expect(HIGCheck.titleProblems("cancel", use: .command).count == 1, "lower case (still a verb)")
        #expect(!HIGCheck.titleProblems("Cancel upload", use: .command).isEmpty, "sentence case")
        #expect(!HIGCheck.titleProblems("Upload the video now", use: .command).isEmpty, "too long")
        #expect(!HIGCheck.titleProblems("Upload.", use: .command).isEmpty, "punctuation")
        #expect(!HIGCheck.titleProblems(nil, use: .command).isEmpty, "no title")
        for problem in HIGCheck.titleProblems("upload the video now.", use: .command) {
            #expect(problem.hasSuffix(".") && !problem.hasSuffix(".."), "every message ends with one full stop")
        }
    }

    @Test("K10: a switch row's label may not say on or off")
    func onOffWords() {
        #expect(HIGCheck.statesOnOff("Wi-Fi On"))
        #expect(HIGCheck.statesOnOff("Bluetooth (off)"))
        #expect(!HIGCheck.statesOnOff("Airplane Mode"))
        #expect(!HIGCheck.statesOnOff("Location Services"), "'on' inside a word is no state")
    }

    @Test(
        "K1, K3, K7, K9, K10, K11, K12: a deliberately wrong window yields each finding, its correct controls none")
    func wrongWindow() async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(
            on: display, size: (900, 640), arguments: ["--scene", "hig"], environment: ["GTK_A11Y": "test"])
        defer { app.stop() }
        let line = try await app.waitFor(HIGLine.self, "the HIG check", after: 0)
        #expect(line.namesReadable == true)
        let findings = line.findings.map {
            "\($0.rule) \($0.widget)"
        }
        let expected = [
            "K1 GtkButton 'cancel upload'",  // lower case
            "K1 GtkButton 'Upload the video right now'",  // too long (and a lower-case word)
            "K1 GtkButton 'Upload the video right now'",
            "K1 GtkButton 'Week'",  // a noun outside a segmented control
            "K12 GtkButton",  // an icon button without a name
            "K12 GtkButton 'Open'",  // not reachable by keyboard
            "K3 GtkLabel 'Static text nobody can copy'",
            "K10 GtkSwitch",  // in a toolbar
            "K10 GtkListBoxRow 'Wi-Fi On'",  // a row saying on
            "K12 GtkSwitch",  // a switch without a name
            "K7 GtkDrawingArea",  // twelve pages
            "K9 GtkScale",  // volume
            "K11 GtkEntry",  // neither hint nor label
            "K11 GtkEntry 'Password'",  // a secret shown as typed
        ]
        #expect(findings.sorted() == expected.sorted(), "\(line.findings)")
        let census = line.census ?? [:]
        #expect(census["switches"] == 4 && census["fields"] == 4 && census["pageControls"] == 1)
        for finding in line.findings {
            let message = finding.message
            #expect(message.hasSuffix(".") && !message.hasSuffix(".."), "one full stop: \(message)")
        }
    }

    @Test("K12: without an accessibility context the check says it could not read names instead of passing them")
    func withoutAccessibility() async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        // The private display's environment has GTK_A11Y=none.
        let app = try await FixtureApp.launch(on: display, size: (900, 640), arguments: ["--scene", "hig"])
        defer { app.stop() }
        let line = try await app.waitFor(HIGLine.self, "the HIG check", after: 0)
        #expect(line.namesReadable == false)
        let findings = line.findings
        let k12 = findings.filter { $0.rule == "K12" }.map(\.message)
        #expect(k12.contains { $0.hasPrefix("Accessible names could not be read") }, "\(k12)")
        #expect(!k12.contains { $0.contains("has no accessible name") }, "no name was judged unread")
        #expect(findings.contains { $0.rule == "K1" }, "the other rules still run")
    }
}
