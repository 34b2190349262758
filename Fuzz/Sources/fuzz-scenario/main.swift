// Fuzzes the scenario parser (Sources/DragDropTesting/Scenario): the located JSON parser and
// the validating decoder behind `Scenario(json:)` and `dragdrop replay FILE`.
//
// Oracles: no crash, no hang (a 1 MiB document parses in linear time); what LocatedJSON
// accepts is JSON (JSONSerialization reads it too); every error names a kind and says what
// was wrong, with a location inside the document.
import DragDrop
@testable import DragDropTesting
import Foundation
import FuzzSupport

func fuzzScenario(_ raw: Data) {
    let (data, big) = FuzzInput.expand(raw)
    let text = String(decoding: data, as: UTF8.self)
    let lineCount = text.utf8.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }

    func checkError(_ error: ScenarioError) {
        check(!error.message.isEmpty, "an error with no message: \(error)")
        if let location = error.location {
            check(
                location.line >= 1 && location.line <= lineCount,
                "error at line \(location.line) of \(lineCount): \(error)")
            check(location.column >= 1, "error at column \(location.column): \(error)")
        }
        _ = error.formatted(file: "fuzz.json")
    }

    do {
        _ = try LocatedJSON.parse(text)
        if !big {
            let reread = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            check(reread != nil, "LocatedJSON accepted what JSONSerialization rejects: \(excerpt(text))")
        }
    } catch {
        checkError(error)
    }

    do {
        let scenario = try Scenario(json: text)
        check(!scenario.name.isEmpty, "a scenario without a name was accepted")
        check(!scenario.scene.isEmpty, "a scenario with an empty scene was accepted")
        for (a, b) in zip(scenario.events, scenario.events.dropFirst()) {
            check(a.time.seconds <= b.time.seconds, "events out of order were accepted: \(excerpt(text))")
        }
    } catch {
        checkError(error)
    }
}

runFuzzer { pointer, count in
    fuzzScenario(fuzzData(pointer, count))
    return 0
}
