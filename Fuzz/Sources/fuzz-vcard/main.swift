// Fuzzes the vCard reader and email address check (RelevantParts, Sources/DragDrop/Transfer/
// RelevantParts.swift): what the "To:" field takes from a contact dropped from another app (A3).
//
// Oracles: no crash, no hang (a 1 MiB card reads in linear time); the recipient is one line
// with no control character; it is `email`, `Name <email>` or `"Name" <email>`, where the
// email has one `@` with something on both sides and nothing that would split or confuse an
// address field (spaces, commas, angle brackets…); a name with such characters is quoted;
// errors end with a full stop.
import DragDrop
import Foundation
import FuzzSupport

/// Characters that must not appear in an unquoted address or name.
let specials: Set<Character> = [",", ";", ":", "<", ">", "@", "(", ")", "[", "]", "\\", "\""]

func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.properties.generalCategory == .lineSeparator
        || scalar.properties.generalCategory == .paragraphSeparator
}

/// The same, as scalars.
let specialScalars: Set<Unicode.Scalar> = [",", ";", ":", "<", ">", "@", "(", ")", "[", "]", "\\", "\""]

func checkEmail(_ email: Substring, in recipient: String) {
    let scalars = Array(email.unicodeScalars)
    let parts = scalars.split(separator: "@", omittingEmptySubsequences: false)
    check(
        parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty,
        "not one local part and one domain: \(excerpt(recipient))")
    check(
        !scalars.contains(where: { $0.properties.isWhitespace || (specialScalars.contains($0) && $0 != "@") }),
        "an email that would split or confuse an address field: \(excerpt(recipient))")
}

func fuzzVCard(_ raw: Data) {
    let (data, _) = FuzzInput.expand(raw)
    let text = String(decoding: data, as: UTF8.self)
    do {
        let recipient = try RelevantParts.recipient(fromVCard: text)
        check(!recipient.unicodeScalars.contains(where: isControl), "a control character in \(excerpt(recipient))")
        // Taken apart by scalars, as an address field would: a character of the name or the
        // email may join a neighbouring "<", ">" or quote into one grapheme.
        let scalars = Array(recipient.unicodeScalars)
        let text = { (slice: ArraySlice<Unicode.Scalar>) in String(String.UnicodeScalarView(slice)) }
        let open = scalars.indices.dropLast().last { scalars[$0] == " " && scalars[$0 + 1] == "<" }
        if scalars.last == ">", let open {
            let name = scalars[..<open]
            checkEmail(Substring(text(scalars[(open + 2)..<(scalars.count - 1)])), in: recipient)
            if name.first == "\"" {
                check(name.count >= 2 && name.last == "\"", "an unterminated quoted name: \(excerpt(recipient))")
                var escaped = false
                for scalar in name.dropFirst().dropLast() {
                    check(escaped || scalar != "\"", "a quote inside a quoted name: \(excerpt(recipient))")
                    escaped = !escaped && scalar == "\\"
                }
                check(!escaped, "a quoted name ending in a lone backslash: \(excerpt(recipient))")
            } else {
                check(!name.isEmpty, "an empty name: \(excerpt(recipient))")
                check(
                    !name.contains(where: { specialScalars.contains($0) }),
                    "an unquoted name with specials: \(excerpt(recipient))")
            }
        } else {
            checkEmail(Substring(recipient), in: recipient)
        }
    } catch {
        check(
            endsWithOneFullStop(error.description),
            "an error that does not end with one full stop: \(excerpt(error.description))")
    }
    // Through the extractor a destination uses: the bytes are checked as UTF-8 first.
    _ = try? RelevantParts.recipient(ContentType("text/vcard"), data)
}

runFuzzer { pointer, count in
    fuzzVCard(fuzzData(pointer, count))
    return 0
}
