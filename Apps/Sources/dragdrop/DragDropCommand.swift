import ArgumentParser
import DragDrop
import DragDropTesting
import Foundation

/// The `dragdrop` command: replays and audits drag-and-drop scenario files
/// (see `docs/scenarios.md`).
///
/// Exit codes: 0 success; 1 a rule was broken or `expect` did not match; 2 a scenario file is
/// bad (the message on standard error names the place); 64 wrong command-line usage.
@main
struct DragDropCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dragdrop",
        abstract: "Replay and audit drag-and-drop scenarios.",
        discussion: """
            Exit codes: 0 ok; 1 a rule was broken or the final data did not match "expect"; \
            2 a scenario file is invalid (the error names the place); 64 usage error.
            The scenario format is described in docs/scenarios.md.
            """,
        subcommands: [Replay.self, Audit.self, Check.self, Rules.self, Soak.self])
}

/// Exit status for a scenario file that cannot be used.
let badInputExitCode: Int32 = 2

/// Writes a line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Loads a scenario, or reports why not on standard error.
func loadScenario(_ file: String) -> Scenario? {
    do {
        return try Scenario(contentsOfFile: file)
    } catch {
        printError("error: " + error.formatted(file: file))
        return nil
    }
}

/// `dragdrop replay FILE`: the timeline as JSON lines, then a summary line.
struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay a scenario and print its timeline as JSON lines.",
        discussion: """
            Prints one JSON object per timeline entry, then a final {"kind":"summary",...} line with \
            the final snapshot and whether "expect" matched. Exits 1 if it did not, 2 if the file is invalid.
            """)

    @Argument(help: "The scenario file (JSON).")
    var file: String

    func run() throws {
        guard let scenario = loadScenario(file) else { throw ExitCode(badInputExitCode) }
        let result: ScenarioRun
        do { result = try scenario.run() } catch {
            printError("error: " + error.formatted(file: file))
            throw ExitCode(badInputExitCode)
        }
        for line in result.jsonLines { print(line) }
        if result.expectationMet == false { throw ExitCode(1) }
    }
}

/// `dragdrop audit FILE...`: the rules each timeline breaks.
struct Audit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay scenarios with the timeline auditor and report broken rules.",
        discussion: """
            Prints each violation as "RULE at Ts: message" (prefixed with the file name when several \
            files are given), each "expect" mismatch, and a final line "ok" or "N violations". Exits 1 \
            if a rule was broken or "expect" did not match, 2 if a file is invalid (the other files \
            are still audited).
            """)

    @Argument(help: "One or more scenario files (JSON).")
    var files: [String]

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Give at least one scenario file.") }
    }

    func run() throws {
        var violations = 0
        var mismatches = 0
        var invalid = 0
        let several = files.count > 1
        for file in files {
            let prefix = several ? "\(file): " : ""
            guard let scenario = loadScenario(file) else {
                invalid += 1
                continue
            }
            let result: ScenarioRun
            do { result = try scenario.audit() } catch {
                printError("error: " + error.formatted(file: file))
                invalid += 1
                continue
            }
            for v in result.violations { print(prefix + v.description) }
            for m in result.mismatches { print(prefix + "expect: " + m.description) }
            for p in result.pending { print(prefix + "note: left pending at the end: " + p) }
            violations += result.violations.count
            mismatches += result.mismatches.count
        }
        var summary: [String] = []
        if violations > 0 { summary.append("\(violations) violation\(violations == 1 ? "" : "s")") }
        if mismatches > 0 { summary.append("\(mismatches) expectation\(mismatches == 1 ? "" : "s") not met") }
        if invalid > 0 { summary.append("\(invalid) invalid file\(invalid == 1 ? "" : "s")") }
        print(summary.isEmpty ? "ok" : summary.joined(separator: ", "))
        if invalid > 0 { throw ExitCode(badInputExitCode) }
        if violations > 0 || mismatches > 0 { throw ExitCode(1) }
    }
}

/// `dragdrop rules`: the rule IDs the audit checks.
struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the rules the audit checks.")

    /// One-line reminders of the rules (HIG-REQUIREMENTS.md has the full text).
    static let summaries: [String: String] = [
        "S2": "Same container moves, another container copies, another app always copies; modifiers force.",
        "S3": "The badge says what a drop would do: plus for copy, not-allowed when impossible, none for move.",
        "S4": "A move removes the source only after the destination committed it; a failed drop changes nothing.",
        "F1": "A pointer drag starts only after moving about 3 points; touch lifts after press-and-hold.",
        "F4": "A destination is highlighted only if it accepts the content, and only while the content is over it.",
        "F5": "Exactly one destination is indicated at a time: the innermost.",
        "F6": "No highlight over the source container until the content has left it completely.",
        "F7": "A failed or invalid drop flies back to a visible source or evaporates, and says why.",
        "SP1": "Spring-loaded controls flash, then activate after a pause; leaving first cancels.",
        "A1": "Dragging near the edge of a scroll view scrolls it; scrolling stops when the drag leaves.",
        "A4": "Placeholders appear where a slow drop lands, show progress, then become the content.",
        "A6": "A transfer that fails removes its placeholders, says why, and loses nothing.",
        "U1": "Undo reverses a drop exactly; redo applies it again; the command is named.",
    ]

    func run() {
        for rule in TimelineAuditor.rules {
            print(Self.summaries[rule].map { "\(rule)\t\($0)" } ?? rule)
        }
    }
}
