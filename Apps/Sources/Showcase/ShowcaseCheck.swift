import CGtk4
import DragDropGTK
import Foundation

/// `showcase --check`: shows every pane in turn, runs the HIG check of live windows
/// (``HIGCheck``) on the window once the pane is laid out, and prints its findings:
///
/// ```
/// 01 notes: no findings (buttons 3, fields 0, labels 4, pageControls 0, sliders 0, switches 0)
/// 14 settings: 1 finding (buttons 6, …)
///     K1: The button title 'turn on' is not in title case ('turn'). [GtkButton 'turn on']
/// HIG check: 15 panes, no findings
/// ```
///
/// The app then quits: with status 0 when no pane has a finding, 1 otherwise.
@MainActor
enum ShowcaseCheck {
    /// Checks each pane of `showcase` in the order of the situations, then calls `done` with
    /// the exit status.
    static func run(_ showcase: ShowcaseWindow, done: @escaping @MainActor (Int32) -> Void) {
        var remaining = Situation.all
        var total = 0
        func next() {
            guard let situation = remaining.first else {
                say("HIG check: \(Situation.all.count) panes, \(total == 0 ? "no findings" : "\(total) findings")")
                done(total == 0 ? 0 : 1)
                return
            }
            remaining.removeFirst()
            showcase.select(situation.slug)
            whenLaidOut(showcase, attempts: 100) {
                guard let window = showcase.window else { return }
                var options = HIGCheck.Options()
                options.titleContainers = showcase.titleContainers()
                let findings = HIGCheck.findings(in: window, options: options)
                let census = HIGCheck.census(in: window, options: options).sorted { $0.key < $1.key }
                    .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                total += findings.count
                let head = String(format: "%02d %@", situation.number, situation.slug)
                let count =
                    findings.isEmpty ? "no findings" : "\(findings.count) finding\(findings.count == 1 ? "" : "s")"
                say("\(head): \(count) (\(census))")
                for finding in findings { say("    \(finding) [\(finding.widget)]") }
                next()
            }
        }
        next()
    }

    /// Runs `body` once the shown pane reports a layout and GTK painted twice more (the pane's
    /// widgets are mapped and sized), polling every 50 ms, at most `attempts` times.
    private static func whenLaidOut(
        _ showcase: ShowcaseWindow, attempts: Int, settled: Int = 0, _ body: @escaping @MainActor () -> Void
    ) {
        GLibSource.once(afterMilliseconds: 50) {
            let ready = showcase.activePane?.layout() != nil
            if (ready && settled >= 3) || attempts <= 0 {
                body()
            } else {
                whenLaidOut(showcase, attempts: attempts - 1, settled: ready ? settled + 1 : 0, body)
            }
        }
    }

    private static func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
}
