/// A piece of text with one style: the unit ``DragTextView`` copies, drags and restores.
public struct StyledRun: Hashable, Sendable {
    /// The characters.
    public var text: String
    /// Whether the run is bold.
    public var bold: Bool
    /// Whether the run is italic.
    public var italic: Bool

    /// Creates a run.
    public init(_ text: String, bold: Bool = false, italic: Bool = false) {
        self.text = text
        self.bold = bold
        self.italic = italic
    }

    /// The length in Unicode scalars, the unit of GTK text offsets.
    var length: Int { text.unicodeScalars.count }
}

/// Styled runs to and from the small HTML subset text views exchange (P1, A7): `<b>`/`<strong>`,
/// `<i>`/`<em>`, `<br>` and paragraph ends as line breaks, character references; other tags
/// are dropped and keep their text.
public enum StyledHTML {
    /// HTML for `runs`: bold as `<b>`, italic as `<i>`, line breaks as `<br>`.
    public static func html(from runs: [StyledRun]) -> String { markup(runs, lineBreak: "<br>") }

    /// Pango markup for `runs` (for labels showing styled text): as HTML, with line breaks kept.
    public static func pangoMarkup(from runs: [StyledRun]) -> String { markup(runs, lineBreak: "\n") }

    private static func markup(_ runs: [StyledRun], lineBreak: String) -> String {
        var out = ""
        for run in runs where !run.text.isEmpty {
            var body = ""
            for ch in run.text {
                switch ch {
                case "&": body += "&amp;"
                case "<": body += "&lt;"
                case ">": body += "&gt;"
                case "\n", "\r\n": body += lineBreak
                default: body.append(ch)
                }
            }
            if run.italic { body = "<i>\(body)</i>" }
            if run.bold { body = "<b>\(body)</b>" }
            out += body
        }
        return out
    }

    /// The runs of `html`, adjacent runs of one style merged.
    public static func runs(fromHTML html: String) -> [StyledRun] {
        var runs: [StyledRun] = []
        var bold = 0
        var italic = 0
        var text = ""
        func flush() {
            guard !text.isEmpty else { return }
            append(StyledRun(text, bold: bold > 0, italic: italic > 0), to: &runs)
            text = ""
        }
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            text += decode(String(rest[..<open]))
            if rest[open...].hasPrefix("<!--") {
                // A comment: nothing of it is text, up to its end.
                let end = rest[open...].range(of: "-->")
                rest = end.map { rest[$0.upperBound...] } ?? ""
                continue
            }
            guard let close = rest[open...].firstIndex(of: ">") else {
                text += decode(String(rest[open...]))
                rest = ""
                break
            }
            let tag = rest[rest.index(after: open)..<close].lowercased()
            rest = rest[rest.index(after: close)...]
            let closing = tag.hasPrefix("/")
            let name = tag.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }
            switch name {
            case "b", "strong":
                flush()
                bold = max(0, bold + (closing ? -1 : 1))
            case "i", "em":
                flush()
                italic = max(0, italic + (closing ? -1 : 1))
            case "br":
                text += "\n"
            case "p", "div", "li", "h1", "h2", "h3":
                if closing { text += "\n" }
            case "script", "style", "title", "head", "template":
                // Not text: code, styles, the page's title. Skipped up to the closing tag.
                guard !closing, !tag.hasSuffix("/") else { break }
                let end = rest.range(of: "</\(name)", options: .caseInsensitive)
                rest = end.map { rest[$0.lowerBound...] } ?? ""
            default:
                break
            }
        }
        text += decode(String(rest))
        flush()
        // Trailing line breaks go, however many there are: each run is trimmed once, in place.
        while let last = runs.indices.last {
            var trailing = 0
            for character in runs[last].text.reversed() {
                guard character == "\n" else { break }
                trailing += 1
            }
            guard trailing > 0 else { break }
            runs[last].text.removeLast(trailing)
            if runs[last].text.isEmpty { runs.removeLast() }
        }
        return runs
    }

    /// The characters of `runs`.
    public static func plainText(of runs: [StyledRun]) -> String { runs.map(\.text).joined() }

    /// Appends `run`, merging it into the last run when their styles match.
    /// The last run is changed in place (no copy of it is held meanwhile), so appending many
    /// short runs of one style costs their total length, not its square.
    static func append(_ run: StyledRun, to runs: inout [StyledRun]) {
        guard !run.text.isEmpty else { return }
        if let last = runs.indices.last, runs[last].bold == run.bold, runs[last].italic == run.italic {
            runs[last].text += run.text
        } else {
            runs.append(run)
        }
    }

    private static let entities: [Substring: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
    ]

    /// Decodes character references; raw line breaks are HTML whitespace and become spaces, and
    /// so does a carriage return however it is written (raw or `&#13;`), so that a `<br>` after
    /// one still reads as one line break (not "\r\n", which a text view writes back as `<br>`
    /// and reads as "\n").
    static func decode(_ text: String) -> String {
        var out = ""
        var rest = Substring(String(text.map { $0 == "\n" || $0 == "\r\n" || $0 == "\r" ? " " : $0 }))
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            rest = rest[amp...]
            if let semicolon = rest.prefix(12).firstIndex(of: ";") {
                let name = rest[rest.index(after: rest.startIndex)..<semicolon]
                var decoded: String?
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
                } else if name.hasPrefix("#") {
                    decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
                } else {
                    decoded = entities[name]
                }
                if let decoded, decoded != "\0" {
                    out += decoded == "\r" ? " " : decoded
                    rest = rest[rest.index(after: semicolon)...]
                    continue
                }
            }
            out += "&"
            rest = rest.dropFirst()
        }
        return out + rest
    }
}
