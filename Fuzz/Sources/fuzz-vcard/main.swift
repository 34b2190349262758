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

func checkEmail(_ email: Substring, in recipient: String) {
    let parts = email.split(separator: "@", omittingEmptySubsequences: false)
    check(parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty, "not one local part and one domain: \(excerpt(recipient))")
    check(
        !email.contains(where: { $0.isWhitespace || (specials.contains($0) && $0 != "@") }),
        "an email that would split or confuse an address field: \(excerpt(recipient))")
}

func fuzzVCard(_ raw: Data) {
    let (data, _) = FuzzInput.expand(raw)
    let text = String(decoding: data, as: UTF8.self)
    do {
        let recipient = try RelevantParts.recipient(fromVCard: text)
        check(!recipient.unicodeScalars.contains(where: isControl), "a control character in \(excerpt(recipient))")
        if recipient.hasSuffix(">"), let open = recipient.range(of: " <", options: .backwards) {
            let name = recipient[..<open.lowerBound]
            let email = recipient[open.upperBound..<recipient.index(before: recipient.endIndex)]
            checkEmail(email, in: recipient)
            if name.hasPrefix("\"") {
                check(name.count >= 2 && name.hasSuffix("\""), "an unterminated quoted name: \(excerpt(recipient))")
                var escaped = false
                for ch in name.dropFirst().dropLast() {
                    check(escaped || ch != "\"", "a quote inside a quoted name: \(excerpt(recipient))")
                    escaped = !escaped && ch == "\\"
                }
                check(!escaped, "a quoted name ending in a lone backslash: \(excerpt(recipient))")
            } else {
                check(!name.isEmpty, "an empty name: \(excerpt(recipient))")
                check(!name.contains(where: { specials.contains($0) }), "an unquoted name with specials: \(excerpt(recipient))")
            }
        } else {
            checkEmail(Substring(recipient), in: recipient)
        }
    } catch {
        check(endsWithOneFullStop(error.description) || error.description.hasSuffix("'."),
              "an error that does not end with one full stop: \(excerpt(error.description))")
    }
    // Through the extractor a destination uses: the bytes are checked as UTF-8 first.
    _ = try? RelevantParts.recipient(ContentType("text/vcard"), data)
}

runFuzzer { pointer, count in
    fuzzVCard(fuzzData(pointer, count))
    return 0
}
