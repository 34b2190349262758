// Fuzzes the reader of gettext message catalogs (Sources/DragDrop/Localization/MessageCatalog.swift):
// a `.mo` file in an app's catalog directory or under $XDG_DATA_DIRS is read as it is found, so
// a broken or hostile one must be refused, never crash or hang the program that speaks.
//
// The input is the file's bytes. Oracles: no crash, no hang; a refused file gives a typed error
// whose offsets lie inside it; an accepted catalog has no more entries than its tables can hold,
// every entry is found again by its context and id, and its plural rule answers every count with
// a form inside nplurals or none.
@testable import DragDrop
import Foundation
import FuzzSupport

func fuzzMO(_ raw: Data) {
    let (data, _) = FuzzInput.expand(raw)
    let bytes = [UInt8](data)
    let catalog: MessageCatalog
    do {
        catalog = try MessageCatalog(bytes: bytes)
    } catch {
        switch error {
        case .tooShort(let size): check(size == bytes.count && size < 28, "tooShort(\(size)) for \(bytes.count) bytes")
        case .outOfBounds(let offset), .notUTF8(let offset):
            check(offset >= 0, "a negative offset \(offset)")
            if case .notUTF8 = error { check(offset < bytes.count, "notUTF8 at \(offset) past the end") }
        default: break
        }
        check(!error.description.isEmpty, "an error without a description")
        return
    }
    check(catalog.count * 16 <= bytes.count, "\(catalog.count) entries from \(bytes.count) bytes")
    for entry in catalog.allEntries {
        check(
            catalog.translations(of: entry.id, context: entry.context) == entry.forms,
            "the entry \(excerpt(entry.id)) is not found again")
        check(!entry.forms.isEmpty, "an entry without forms")
    }
    let rule = catalog.pluralRule
    check((1...100).contains(rule.count), "nplurals \(rule.count)")
    for n in [0, 1, 2, 3, 5, 11, 21, 101, 1_000_000, Int.max, -1] {
        if let form = rule.form(for: n) { check(form >= 0 && form < rule.count, "form \(form) of \(rule.count) for \(n)") }
    }
}

runFuzzer { pointer, count in
    fuzzMO(fuzzData(pointer, count))
    return 0
}
