// Fuzzes the HTML reader of styled text (StyledHTML, Sources/DragDropGTK/Text/StyledRuns.swift):
// what a text view makes of `text/html` dropped or pasted from another app (TextDrop.swift),
// and the HTML and Pango markup it writes for its own styled runs.
//
// Oracles: no crash, no hang (1 MiB of HTML reads in linear time); the runs are normalized
// (no empty run, neighbours differ in style, no trailing line break); and what a text view
// writes reads back as the same runs (runs → HTML → runs).
@testable import StyledHTMLUnderTest
import Foundation
import FuzzSupport

func fuzzHTML(_ raw: Data) {
    let (data, _) = FuzzInput.expand(raw)
    let html = String(decoding: data, as: UTF8.self)
    let runs = StyledHTML.runs(fromHTML: html)

    for run in runs { check(!run.text.isEmpty, "an empty run from \(excerpt(html))") }
    for (a, b) in zip(runs, runs.dropFirst()) {
        check(a.bold != b.bold || a.italic != b.italic, "two neighbouring runs of one style from \(excerpt(html))")
    }
    check(!(runs.last?.text.hasSuffix("\n") ?? false), "a trailing line break from \(excerpt(html))")

    let written = StyledHTML.html(from: runs)
    let reread = StyledHTML.runs(fromHTML: written)
    check(
        reread == runs, "runs → HTML → runs changed them: \(runs.prefix(4)) → \(excerpt(written)) → \(reread.prefix(4))"
    )
    _ = StyledHTML.pangoMarkup(from: runs)
    check(StyledHTML.plainText(of: runs) == runs.map(\.text).joined(), "plain text lost characters")
}

runFuzzer { pointer, count in
    fuzzHTML(fuzzData(pointer, count))
    return 0
}
