/// Bidirectional formatting characters in text from other apps. A name that holds them can
/// show other characters than it has: U+202E (right-to-left override) followed by "gnp.exe"
/// reads "exe.png". Names from other apps (file names, app names, paths quoted in messages)
/// are neutralised before they are shown or used: these characters are removed, so a name
/// reads in the order its characters are stored, and its real extension shows.
///
/// The characters: U+200E and U+200F (left-to-right and right-to-left marks), U+061C (Arabic
/// letter mark), U+202A to U+202E (embeddings, overrides and their pop) and U+2066 to U+2069
/// (isolates and their pop).
public enum BidiControls {
    /// Whether `scalar` is one of the bidirectional formatting characters.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Whether `text` holds any of them.
    public static func contains(_ text: String) -> Bool { text.unicodeScalars.contains(where: isControl) }

    /// `text` without them (the same string when it has none).
    public static func neutralized(_ text: String) -> String {
        guard contains(text) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.filter { !isControl($0) }))
    }

    /// `text` as a sentence to show: without the controls that can reorder what is around them
    /// (embeddings, overrides, marks), keeping isolates (U+2066 to U+2068) that are closed by
    /// their pop (U+2069). A sentence of the catalogs isolates a name that reads the other way
    /// (L2: an English file name in a Hebrew sentence); a balanced isolate only keeps its own
    /// text apart, and every unbalanced one is removed.
    public static func keepingIsolates(_ text: String) -> String {
        guard contains(text) else { return text }
        let scalars = Array(text.unicodeScalars)
        var kept = [Bool](repeating: false, count: scalars.count)
        var open: [Int] = []
        for (index, scalar) in scalars.enumerated() {
            switch scalar.value {
            case 0x2066...0x2068: open.append(index)
            case 0x2069:
                if let start = open.popLast() {
                    kept[start] = true
                    kept[index] = true
                }
            default: kept[index] = !isControl(scalar)
            }
        }
        var result = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() where kept[index] { result.append(scalar) }
        return String(result)
    }
}
