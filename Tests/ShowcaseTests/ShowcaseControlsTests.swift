import Foundation
import ShowcaseDriver
import ShowcaseModel
import Testing

/// The standard controls of every pane (K1, K3), as the showcase reports them in its
/// `controls` lines, visiting the twelve panes with the keyboard (Up and Down in the sidebar).
@Suite(
    "Showcase: standard controls", .serialized,
    .enabled(
        if: Tools.xvfb != nil && Tools.xdotool != nil,
        "Xvfb or xdotool is not installed (run `make deps`): showcase tests skipped.")
)
struct ShowcaseControlsTests: ShowcaseTesting {
    /// Verbs a button may start with (K1). "Back" is the standard title of the navigation
    /// button that returns to the parent; a segmented control's segments name views instead.
    static let verbs: Set<String> = [
        "Undo", "Redo", "Edit", "Select", "Done", "Cancel", "Back", "Stop", "Open", "Share", "Upload", "Delete",
        "Copy", "Move", "Paste", "Cut", "Drop", "Pick",
    ]

    /// The problems with a button title, per K1: empty, more than three words, a word not in
    /// title case, closing punctuation, or (unless `segment`) not starting with a verb.
    static func problems(withTitle title: String?, segment: Bool) -> [String] {
        guard let title, !title.isEmpty else { return ["a button without a title"] }
        var problems: [String] = []
        let words = title.split(separator: " ").map(String.init)
        if words.count > 3 { problems.append("'\(title)' is longer than three words") }
        let minor: Set<String> = ["to", "a", "an", "the", "of", "in", "on", "and", "or", "for"]
        for (index, word) in words.enumerated() {
            let letters = word.trimmingCharacters(in: .punctuationCharacters)
            guard let first = letters.first else { continue }
            let isMinor = index > 0 && minor.contains(letters.lowercased())
            if !first.isUppercase && !isMinor { problems.append("'\(title)' is not in title case ('\(word)')") }
        }
        if title.hasSuffix(".") || title.hasSuffix("!") || title.hasSuffix(":") {
            problems.append("'\(title)' ends with punctuation")
        }
        if !segment, let first = words.first, !verbs.contains(first) {
            problems.append("'\(title)' does not start with a verb")
        }
        return problems
    }

    @Test("K1 (the rule itself): short title-case verbs pass, sentences, lower case and nouns fail")
    func titleRule() {
        #expect(Self.problems(withTitle: "Cancel Upload", segment: false).isEmpty)
        #expect(Self.problems(withTitle: "Move To\u{2026}", segment: false).isEmpty)
        #expect(Self.problems(withTitle: "Week", segment: true).isEmpty)
        #expect(!Self.problems(withTitle: "Week", segment: false).isEmpty, "a noun is not a verb")
        #expect(!Self.problems(withTitle: "cancel", segment: false).isEmpty, "lower case")
        #expect(!Self.problems(withTitle: "Cancel upload", segment: false).isEmpty, "sentence case")
        #expect(!Self.problems(withTitle: "Upload the video now", segment: false).isEmpty, "too long")
        #expect(!Self.problems(withTitle: "Upload.", segment: false).isEmpty, "punctuation")
        #expect(!Self.problems(withTitle: nil, segment: false).isEmpty, "no title")
    }

    @Test(
        "K1, K3: in every pane, buttons are short title-case verbs, static labels can be selected and copied, and text fields show a placeholder hint"
    )
    func everyPanesControls() throws {
        try withShowcase(pane: "notes") { app, keys, _ in
            // Into the sidebar ("1. Notes"), then Down through the other eleven situations.
            try press("Tab", untilFocusOn: "1. Notes", app, keys)
            var reports: [String: JSONObject] = [:]
            let slugs = [
                "notes", "reminders", "web-mail", "home-screen", "photos", "mail", "calendar", "files", "contacts-mail",
                "charts", "drawing", "upload",
            ]
            for (index, slug) in slugs.enumerated() {
                if index > 0 {
                    let mark = app.lineCount
                    try keys.key("Down")
                    try app.waitForState("the \(slug) pane", after: mark) { $0.pane == slug }
                }
                _ = try app.settledLayout(pane: slug)
                reports[slug] = try app.waitFor("the \(slug) pane's controls", after: 0, timeout: 5) {
                    $0["kind"] as? String == "controls" && $0["pane"] as? String == slug
                }
            }
            var fieldsSeen = 0
            for slug in slugs {
                let report = try #require(reports[slug])
                let buttons = report["buttons"] as? [JSONObject] ?? []
                let titles = buttons.map { $0["title"] as? String }
                #expect(titles.contains("Undo") && titles.contains("Redo"), "\(slug): the toolbar's Undo and Redo")
                for button in buttons {
                    let problems = Self.problems(
                        withTitle: button["title"] as? String, segment: button["segment"] as? Bool ?? false)
                    #expect(problems.isEmpty, "K1 in \(slug): \(problems)")
                }
                for label in report["labels"] as? [JSONObject] ?? [] {
                    #expect(
                        label["selectable"] as? Bool == true,
                        "K3 in \(slug): the label '\(label["text"] as? String ?? "")' cannot be selected to copy it")
                }
                for field in report["fields"] as? [JSONObject] ?? [] {
                    fieldsSeen += 1
                    #expect(!(field["placeholder"] as? String ?? "").isEmpty, "K3 in \(slug): a field without a hint")
                    #expect(field["secure"] as? Bool == false, "no showcase field takes a secret")
                }
            }
            #expect(fieldsSeen >= 1, "the Contacts and Mail pane's To field was seen")
        }
    }
}
