// Fuzzes the parser and evaluator of gettext plural expressions
// (Sources/DragDrop/Localization/PluralRule.swift): a catalog's `Plural-Forms` line is text from
// whoever wrote the catalog, and it is evaluated for every count the engine says.
//
// The input is the line's value (`nplurals=3; plural=...;`) or, when it has no `plural=`, the
// expression alone. Oracles: no crash, no hang, no stack overflow (the depth is bounded); an
// error's offset lies inside the expression; an accepted expression printed back (its
// description, fully parenthesized) parses again to the same tree, and every count gives a form
// inside nplurals or none.
@testable import DragDrop
import Foundation
import FuzzSupport

func fuzzPlural(_ raw: Data) {
    let (data, _) = FuzzInput.expand(raw)
    let text = String(decoding: data, as: UTF8.self)
    let header = text.contains("plural=") ? text : "nplurals=3; plural=\(text);"
    let rule: PluralRule
    do {
        rule = try PluralRule(header: header)
    } catch {
        switch error {
        case .unexpectedCharacter(let offset), .unexpectedToken(let offset), .numberTooLarge(let offset):
            check(offset >= 0 && offset <= header.utf8.count, "offset \(offset) outside \(header.utf8.count) bytes")
        default: break
        }
        return
    }
    // The printed form adds parentheses, so it may nest deeper than the limit: only a reparse
    // that succeeds is compared.
    if let again = try? PluralExpression(parsing: rule.expression.description) {
        check(again == rule.expression, "\(excerpt(rule.expression.description)) does not parse back to itself")
    }
    for n in [0, 1, 2, 3, 4, 5, 7, 11, 12, 21, 22, 100, 101, 111, 1_000_000, Int.max, -1] {
        if let form = rule.form(for: n) { check(form >= 0 && form < rule.count, "form \(form) of \(rule.count) for \(n)") }
    }
}

runFuzzer { pointer, count in
    fuzzPlural(fuzzData(pointer, count))
    return 0
}
