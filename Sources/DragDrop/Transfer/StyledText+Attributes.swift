import Foundation

extension StyledText {
    /// The value of attribute `name` in the inside of an HTML tag (`img src="a.png"`: quoted
    /// with " or ', or bare), as written (character references not decoded).
    public static func attribute(_ name: String, inTag tag: Substring) -> String? {
        var rest = tag
        while let found = rest.range(of: name, options: .caseInsensitive) {
            let before = found.lowerBound == rest.startIndex ? " " : rest[rest.index(before: found.lowerBound)]
            var after = rest[found.upperBound...].drop { $0 == " " }
            rest = rest[found.upperBound...]
            guard before.isWhitespace, after.first == "=" else { continue }
            after = after.dropFirst().drop { $0 == " " }
            if let quote = after.first, quote == "\"" || quote == "'" {
                let body = after.dropFirst()
                return String(body.prefix { $0 != quote })
            }
            return String(after.prefix { !$0.isWhitespace && $0 != ">" })
        }
        return nil
    }
}
