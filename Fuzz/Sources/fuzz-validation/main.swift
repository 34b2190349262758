// Fuzzes the checks every piece of data from another app passes before a destination uses it
// (ContentValidation, Sources/DragDrop/Transfer/ContentValidation.swift): UTF-8 for text,
// the PNG, JPEG and PDF signatures, and the same checks made on a stream as it arrives in
// chunks (ValidatingSink, DropDataAccess.swift). The project decodes no image itself (GDK
// does): its own image code is these header checks.
//
// The first byte picks the declared type, the rest is the data. Oracles: no crash, no hang;
// an image passes exactly when it starts with its signature; text passes exactly when it is
// valid UTF-8, and the byte an error names is where the bytes stop being UTF-8; the streaming
// check agrees with the whole check (same verdict, and for text the same byte offset).
@testable import DragDrop
import Foundation
import FuzzSupport

let types: [ContentType] = [
    "image/png", "image/jpeg", "image/jpg", "application/pdf", "text/plain", "text/plain;charset=utf-8",
    "text/html", "text/vcard", "application/json", "image/svg+xml", "application/octet-stream", "image/gif",
    "TEXT/CSV", "application/x-dragdrop-chart",
]
let signatures: [String: [UInt8]] = [
    "image/png": [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
    "image/jpeg": [0xFF, 0xD8, 0xFF],
    "application/pdf": Array("%PDF-".utf8),
]

/// The byte offset an "invalid UTF-8 near byte N" message names, if any.
func offset(in error: any Error) -> Int? {
    let text = "\(error)"
    guard let range = text.range(of: "invalid UTF-8 near byte ") else { return nil }
    return Int(text[range.upperBound...].prefix { $0.isNumber })
}

func fuzzValidation(_ raw: Data) {
    let (input, _) = FuzzInput.expand(raw)
    guard let selector = input.first else { return }
    let type = types[Int(selector) % types.count]
    let data = Data(input.dropFirst())
    let conformance = TypeConformance()
    let essence = conformance.canonical(type.essence)
    let isText = type.mediaType == "text" || conformance.conforms(type, to: .plainText)
    let validUTF8 = String(validating: data, as: UTF8.self) != nil

    var whole: TransferError?
    do { try ContentValidation.validate(data, as: type, conformance: conformance) } catch { whole = error }
    if let whole { check(endsWithOneFullStop(whole.description), "an error without one full stop: \(whole)") }
    if let signature = signatures[essence] {
        check(
            (whole == nil) == data.starts(with: signature),
            "\(type): verdict \(whole.map { "\($0)" } ?? "accepted") for \(data.prefix(12).map { $0 })")
    } else if isText {
        check(
            (whole == nil) == validUTF8,
            "\(type): verdict \(whole.map { "\($0)" } ?? "accepted") for UTF-8 valid: \(validUTF8)")
    } else {
        check(whole == nil, "\(type) has no check but was refused: \(whole.map { "\($0)" } ?? "")")
    }

    // UTF-8: utf8() and the offset of the first bad byte.
    let bad = ContentValidation.firstInvalidUTF8Offset(data)
    check(
        (bad == nil) == validUTF8,
        "firstInvalidUTF8Offset is \(bad.map(String.init) ?? "nil") but valid is \(validUTF8)")
    if let bad {
        check(
            String(validating: data.prefix(bad), as: UTF8.self) != nil,
            "the bytes before offset \(bad) are not valid UTF-8")
        check(
            String(validating: data.dropFirst(bad), as: UTF8.self) == nil,
            "the bytes from offset \(bad) are valid UTF-8")
    }
    check(((try? ContentValidation.utf8(data, type)) != nil) == validUTF8, "utf8() disagrees with String(validating:)")

    // The same check on a stream cut into chunks of 1 to 32 bytes.
    var random = InputRandom(raw)
    let memory = MemorySink()
    let sink = ValidatingSink(memory, type: type, conformance: conformance)
    var streamed: (any Error)?
    do {
        for chunk in random.chunks(of: data, maxChunk: 32) { try sink.write(chunk) }
        try sink.finish()
    } catch {
        streamed = error
    }
    check(
        (whole == nil) == (streamed == nil),
        "\(type): whole \(whole.map { "\($0)" } ?? "accepted"), streamed \(streamed.map { "\($0)" } ?? "accepted")")
    if streamed == nil { check(memory.data == data, "the stream passed on different bytes") }
    if let whole, let streamed, let expected = offset(in: whole), let got = offset(in: streamed) {
        check(expected == got, "\(type): the whole check names byte \(expected), the streaming check byte \(got)")
    }
}

runFuzzer { pointer, count in
    fuzzValidation(fuzzData(pointer, count))
    return 0
}
