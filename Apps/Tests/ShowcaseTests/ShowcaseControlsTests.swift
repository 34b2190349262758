import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The standard controls of every pane (K1, K3, K7, K9-K12), judged by the HIG check of live
/// windows (`HIGCheck` in DragDropGTK): through `showcase --check`, and through the `controls`
/// lines while the panes are visited with the keyboard (Down in the sidebar).
@Suite(
    "Showcase: standard controls", .serialized,
    .enabled(
        if: Tools.xvfb != nil && Tools.xdotool != nil,
        "Xvfb or xdotool is not installed (run `make deps`): showcase tests skipped.")
)
struct ShowcaseControlsTests: ShowcaseTesting {
    /// The pane slugs in sidebar order.
    static let slugs = ShowcaseTourTests.situations

    @Test("K1, K3, K7, K9-K12: `showcase --check` finds nothing in any pane, and looked at each pane's controls")
    func checkEveryPane() throws {
        try withDataDirectory { data in
            let display = try XDisplay.startPrivate()
            defer { display.stop() }
            let log = data + "/check.log"
            let fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            try #require(fd >= 0)
            let process = try ChildProcess(
                try Self.showcaseExecutable(), ["--check", "--data-dir", data],
                environment: display.appEnvironment, stdout: fd, stderr: fd)
            close(fd)
            let finished = process.wait(timeout: 90)
            if !finished { process.stop() }
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            #expect(finished && process.exitStatus == 0, "showcase --check failed:\n\(output)")
            let lines = output.split(separator: "\n").map(String.init)
            for (index, slug) in Self.slugs.enumerated() {
                let head = String(format: "%02d %@: ", index + 1, slug)
                let line = lines.first { $0.hasPrefix(head) }
                #expect(line?.hasPrefix(head + "no findings (") == true, "\(slug): \(line ?? "no line")\n\(output)")
                #expect(line?.contains("buttons ") == true, "\(slug): the check saw the pane's buttons")
            }
            #expect(lines.contains { $0.hasPrefix("HIG check: \(Self.slugs.count) panes, no findings") }, "\(output)")
        }
    }

    @Test(
        "K1, K3, K12: visited with the keyboard, every pane's controls line carries no HIG finding: short title-case verbs, copyable labels, fields with hints, named controls"
    )
    func everyPanesControls() throws {
        try withShowcase(pane: "notes") { app, keys, _ in
            // Into the sidebar ("1. Notes"), then Down through the other eleven situations.
            try press("Tab", untilFocusOn: "1. Notes", app, keys)
            var reports: [String: ControlsLine] = [:]
            let slugs = Self.slugs
            for (index, slug) in slugs.enumerated() {
                if index > 0 {
                    let mark = app.lineCount
                    try keys.key("Down")
                    try app.waitForState("the \(slug) pane", after: mark) { $0.pane == slug }
                }
                _ = try app.settledLayout(pane: slug)
                reports[slug] = try app.waitFor(ControlsLine.self, "the \(slug) pane's controls", after: 0, timeout: 5) {
                    $0.pane == slug
                }
            }
            var fieldsSeen = 0
            for slug in slugs {
                let report = try #require(reports[slug])
                let buttons = report.buttons ?? []
                let titles = buttons.map { $0.title }
                #expect(titles.contains("Undo") && titles.contains("Redo"), "\(slug): the toolbar's Undo and Redo")
                // The HIG check (the same one `--check` runs) judged every button, label and field.
                let findings = (report.findings ?? []).map {
                    "\($0.rule): \($0.message)"
                }
                #expect(findings.isEmpty, "in \(slug): \(findings)")
                for field in report.fields ?? [] {
                    fieldsSeen += 1
                    #expect(!field.placeholder.isEmpty, "K3 in \(slug): a field without a hint")
                }
            }
            #expect(fieldsSeen >= 1, "the Contacts and Mail pane's To field was seen")
        }
    }
}
