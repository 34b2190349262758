extension String {
    /// The string with each scalar found in `replacements` replaced by its text, looked for
    /// scalar by scalar. Foundation's `replacingOccurrences(of:with:)` compares characters, so it
    /// misses a quote, a '<' or a comma that a combining mark (U+0301, U+06D6) or a prepended
    /// one (U+0600) joins into one character with its neighbour; escaping that misses them lets
    /// a name end a quoted string, or a text open an attribute. Use this to escape data from
    /// other apps.
    public func replacingScalars(_ replacements: [Unicode.Scalar: String]) -> String {
        var result = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if let replacement = replacements[scalar] {
                result.append(contentsOf: replacement.unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
