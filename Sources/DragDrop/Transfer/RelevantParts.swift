import Foundation

/// Extractors that take only the part of dropped data a destination needs (A3).
public enum RelevantParts {
    /// "Name <email>" from a vCard: what a recipient field takes from a dropped contact, and
    /// nothing else (no postal address, no phone). Use as ``LoadOptions/extract``.
    public static let recipient: @Sendable (ContentType, Data) throws -> Data = { type, data in
        let text = try ContentValidation.utf8(data, type)
        return Data(try recipient(fromVCard: text).utf8)
    }

    /// "Name <email>" from vCard text; unfolds continuation lines, prefers a `PREF` email.
    public static func recipient(fromVCard text: String) throws(TransferError) -> String {
        var lines: [String] = []
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            if let first = raw.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1] += raw.dropFirst()
            } else {
                lines.append(String(raw))
            }
        }
        guard lines.contains(where: { $0.uppercased().hasPrefix("BEGIN:VCARD") }) else {
            throw .malformed(type: "text/vcard", reason: "it has no BEGIN:VCARD line")
        }
        var name: String?
        var emails: [(value: String, preferred: Bool)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].uppercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            let property = key.split(separator: ";").first.map(String.init) ?? key
            if property == "FN", !value.isEmpty { name = value }
            if property == "EMAIL", !value.isEmpty { emails.append((value, key.contains("PREF"))) }
        }
        guard let email = (emails.first { $0.preferred } ?? emails.first)?.value else {
            throw .malformed(type: "text/vcard", reason: "the contact has no email address")
        }
        guard email.contains("@"), !email.contains(where: { $0 == "<" || $0 == ">" || $0 == "\n" }) else {
            throw .malformed(type: "text/vcard", reason: "the email address '\(email)' is not valid")
        }
        let cleanName = name?.replacingOccurrences(of: "\"", with: "'")
        return cleanName.map { "\($0) <\(email)>" } ?? email
    }
}
