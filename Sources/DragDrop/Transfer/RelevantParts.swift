import Foundation

/// Extractors that take only the part of dropped data a destination needs (A3).
public enum RelevantParts {
    /// "Name <email>" from a vCard: what a recipient field takes from a dropped contact, and
    /// nothing else (no postal address, no phone). Use as ``LoadOptions/extract``.
    public static let recipient: @Sendable (ContentType, Data) throws -> Data = { type, data in
        let text = try ContentValidation.utf8(data, type)
        return Data(try recipient(fromVCard: text).utf8)
    }

    /// "Name <email>" from vCard text; unfolds continuation lines, reads grouped properties
    /// (`item1.EMAIL`), decodes vCard escapes (`\,` `\;` `\\` `\n`) and takes the most preferred email
    /// (`PREF=1` before `PREF=2`, `TYPE=pref`, then the first).
    /// A name with characters that would split or confuse an address field (a comma, say) is
    /// quoted: `"Smith, Jr. John" <john@example.com>`.
    public static func recipient(fromVCard text: String) throws(TransferError) -> String {
        var lines: [String] = []
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            if let first = raw.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1] += raw.dropFirst()
            } else {
                lines.append(String(raw))
            }
        }
        guard lines.contains(where: { $0.prefix(11).uppercased() == "BEGIN:VCARD" }) else {
            throw .malformed(type: "text/vcard", reason: Localization.format(.vcardNoBegin))
        }
        var name: String?
        var emails: [(value: String, rank: Int)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].uppercased()
            let value = unescape(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            var property = Substring(key.split(separator: ";").first ?? "")
            // A group prefix ("item1.EMAIL") names a group of related properties, not the property.
            if let dot = property.lastIndex(of: ".") { property = property[property.index(after: dot)...] }
            if property == "FN", !value.isEmpty { name = value }
            if property == "EMAIL", !value.isEmpty { emails.append((value, preference(key))) }
        }
        // The most preferred email; the first one among equals.
        guard let email = emails.min(by: { $0.rank < $1.rank })?.value else {
            throw .malformed(type: "text/vcard", reason: Localization.format(.vcardNoEmail))
        }
        guard isPlainAddress(email) else {
            let shown = email.count > 80 ? email.prefix(80) + "…" : Substring(email)
            throw .malformed(
                type: "text/vcard", reason: Localization.format(.vcardBadEmail, ["address": .name(String(shown))]))
        }
        // Control characters (a NUL, an escape) would reach the field as they are: they become
        // spaces. (Line breaks of any kind end the vCard line, so they never get here.)
        let printable = String(
            String.UnicodeScalarView(
                (name ?? "").unicodeScalars.map { Self.isControl($0) ? " " : $0 })
        )
        .trimmingCharacters(in: .whitespaces)
        guard !printable.isEmpty else { return email }
        // Quotes become apostrophes, scalar by scalar: a quote followed by a combining mark
        // (U+06D6) is one character with it, which a search for the character '"' misses.
        let cleanName = printable.replacingScalars(["\"": "'"])
        if cleanName.unicodeScalars.contains(where: { specials.contains($0) }) {
            return "\"\(cleanName.replacingScalars(["\\": "\\\\"]))\" <\(email)>"
        }
        return "\(cleanName) <\(email)>"
    }

    /// Characters that split or confuse an address field: outside quotes, a comma separates
    /// recipients, angle brackets enclose an address, parentheses a comment. Looked for among
    /// scalars, not characters: a mail client splits at a comma even when the comma shares a
    /// grapheme with the character before it (U+0600 joins what follows).
    private static let specials: Set<Unicode.Scalar> = [",", ";", ":", "<", ">", "@", "(", ")", "[", "]", "\\"]

    /// Whether `email` is one plain address a recipient field can take as it is: one `@` with
    /// something on both sides, and no space, control character, quote or special (quoted
    /// local parts, legal but rare, are refused rather than passed on half-understood).
    static func isPlainAddress(_ email: String) -> Bool {
        let scalars = email.unicodeScalars
        let parts = scalars.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return false }
        return !scalars.contains {
            $0.properties.isWhitespace || $0 == "\"" || ($0 != "@" && specials.contains($0)) || isControl($0)
        }
    }

    /// C0 and C1 control characters and the line and paragraph separators.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// How preferred a property is, lower first: `PREF=n` (vCard 4) is n, `TYPE=pref` (vCard 3)
    /// or a bare `PREF` (vCard 2.1) is 1, no preference is last.
    private static func preference(_ key: String) -> Int {
        var rank = Int.max
        for parameter in key.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == "PREF", let n = Int(parts[1]) {
                rank = min(rank, max(n, 1))
            } else if parameter == "PREF"
                || (parts.count == 2 && parts[0] == "TYPE" && parts[1].split(separator: ",").contains("PREF"))
            {
                rank = min(rank, 1)
            }
        }
        return rank
    }

    /// A vCard value with its escapes decoded; an escaped line break becomes a space.
    /// Read by scalars, so a backslash that shares a grapheme with the character before it
    /// still escapes the next one.
    private static func unescape(_ value: Substring) -> String {
        var out = String.UnicodeScalarView()
        var escaped = false
        for ch in value.unicodeScalars {
            if escaped {
                switch ch {
                case "n", "N": out.append(" ")
                default: out.append(ch)
                }
                escaped = false
            } else if ch == "\\" {
                escaped = true
            } else {
                out.append(ch)
            }
        }
        if escaped { out.append("\\") }
        return String(out)
    }
}
