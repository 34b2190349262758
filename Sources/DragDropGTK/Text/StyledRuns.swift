import DragDrop
import Foundation

/// A piece of text with one style: the unit ``DragTextView`` copies, drags and restores.
public struct StyledRun: Hashable, Sendable {
    /// The characters.
    public var text: String
    /// Whether the run is bold.
    public var bold: Bool
    /// Whether the run is italic.
    public var italic: Bool
    /// The address the run links to (`https://…`), already checked by ``StyledHTML/safeLink(_:)``.
    public var link: String?

    /// Creates a run.
    public init(_ text: String, bold: Bool = false, italic: Bool = false, link: String? = nil) {
        self.text = text
        self.bold = bold
        self.italic = italic
        self.link = link
    }

    /// Whether `other` has the same style (bold, italic, link).
    func sameStyle(as other: StyledRun) -> Bool { bold == other.bold && italic == other.italic && link == other.link }

    /// The length in Unicode scalars, the unit of GTK text offsets.
    public var length: Int { text.unicodeScalars.count }
}

/// Styled runs to and from the small HTML subset text views exchange (P1, A7): `<b>`/`<strong>`,
/// `<i>`/`<em>`, bold and italic given as CSS in a `style` attribute (`font-weight: 600`,
/// `font-style: italic`: how Qt, LibreOffice and browsers write them), `<a href>` (links to
/// `http`, `https`, `mailto` and local `file` addresses only, ``safeLink(_:)``), `<br>` and
/// paragraph ends as line breaks, character references; other tags are dropped and keep their text.
public enum StyledHTML {
    /// HTML for `runs`: bold as `<b>`, italic as `<i>`, line breaks as `<br>`, every other
    /// character as it is (read back exactly by ``runs(fromHTML:collapsingWhiteSpace:)``
    /// without collapsing; for other apps, ``exportedHTML(from:)``).
    public static func html(from runs: [StyledRun]) -> String { markup(runs, lineBreak: "<br>") }

    /// `runs` as HTML for other apps (a drag's or the clipboard's `text/html`): ``html(from:)``,
    /// and when spaces would collapse in a browser (two in a row, a tab, a space at the start or
    /// end of a line) the whole wrapped in `white-space: pre-wrap`, which browsers, LibreOffice
    /// and ``runs(fromHTML:collapsingWhiteSpace:)`` honour, so they arrive as they were.
    public static func exportedHTML(from runs: [StyledRun]) -> String {
        let body = html(from: runs)
        let text = plainText(of: runs)
        let collapsible =
            text.contains("  ") || text.contains("\t") || text.hasPrefix(" ") || text.hasSuffix(" ")
            || text.contains("\n ") || text.contains(" \n")
        return collapsible ? "<span style=\"white-space: pre-wrap\">\(body)</span>" : body
    }

    /// Pango markup for `runs` (for labels showing styled text): as HTML, with line breaks kept.
    public static func pangoMarkup(from runs: [StyledRun]) -> String { markup(runs, lineBreak: "\n") }

    private static func markup(_ runs: [StyledRun], lineBreak: String) -> String {
        var out = ""
        for run in runs where !run.text.isEmpty {
            // Scalar by scalar: a '<' that a combining mark joins into one character with it is
            // still a '<' to an HTML or Pango parser.
            var body = String.UnicodeScalarView()
            let scalars = Array(run.text.unicodeScalars)
            for (index, scalar) in scalars.enumerated() {
                switch scalar {
                case "&": body.append(contentsOf: "&amp;".unicodeScalars)
                case "<": body.append(contentsOf: "&lt;".unicodeScalars)
                case ">": body.append(contentsOf: "&gt;".unicodeScalars)
                case "\n": body.append(contentsOf: lineBreak.unicodeScalars)
                case "\r" where index + 1 < scalars.count && scalars[index + 1] == "\n": break
                default: body.append(scalar)
                }
            }
            var markup = String(body)
            if run.italic { markup = "<i>\(markup)</i>" }
            if run.bold { markup = "<b>\(markup)</b>" }
            if let link = run.link {
                let address = escaped(link)
                markup =
                    lineBreak == "<br>"
                    ? "<a href=\"\(address)\">\(markup)</a>"
                    : "<span foreground=\"#1a5fb4\" underline=\"single\">\(markup)</span>"
            }
            out += markup
        }
        return out
    }

    /// The runs of `html`, adjacent runs of one style merged.
    ///
    /// `collapsingWhiteSpace` (for other apps' HTML): white space is collapsed as a browser
    /// collapses it: a run of spaces, tabs and line breaks in the source is one space, none at
    /// the start or end of a line; inside `<pre>`, `<textarea>` or an element styled
    /// `white-space: pre`, `pre-wrap` or `pre-line` it is kept. Otherwise (HTML written by
    /// ``html(from:)``, which keeps every space) a raw line break is a space and every other
    /// character is kept.
    public static func runs(fromHTML html: String, collapsingWhiteSpace: Bool = false) -> [StyledRun] {
        var runs: [StyledRun] = []
        var bold = 0
        var italic = 0
        /// The open `<a>` elements' addresses (nil: no address, or one refused).
        var links: [String?] = []
        var text = ""
        /// Open elements that keep their white space (all of it, without collapsing).
        var keeping = collapsingWhiteSpace ? 0 : 1
        /// A collapsed space waits for the next word (none comes at the end of a line).
        var pendingSpace = false
        /// Whether the last character given out is a word's (so a space may follow it).
        var afterWord = false
        func flush() {
            if pendingSpace, afterWord, keeping == 0 {
                text += " "
                afterWord = false
            }
            pendingSpace = false
            guard !text.isEmpty else { return }
            append(StyledRun(text, bold: bold > 0, italic: italic > 0, link: links.last ?? nil), to: &runs)
            text = ""
        }
        func addText(_ raw: Substring) {
            guard !raw.isEmpty else { return }
            if keeping > 0 {
                let kept = decode(String(raw), keepingLineBreaks: collapsingWhiteSpace)
                text += kept
                if let last = kept.last { afterWord = !last.isNewline && last != " " }
                pendingSpace = false
                return
            }
            var word = ""
            func giveWord() {
                guard !word.isEmpty else { return }
                if pendingSpace, afterWord { text += " " }
                pendingSpace = false
                text += decode(word)
                afterWord = true
                word = ""
            }
            for character in raw {
                if collapsible.contains(character) {
                    giveWord()
                    pendingSpace = true
                } else {
                    word.append(character)
                }
            }
            giveWord()
        }
        /// A line ends: the space before it goes.
        func lineBreak() {
            pendingSpace = false
            if keeping > 0 {
                text += "\n"
                afterWord = false
                return
            }
            if text.last == " " {
                text.removeLast()
            } else if text.isEmpty, let last = runs.indices.last, runs[last].text.last == " " {
                runs[last].text.removeLast()
                if runs[last].text.isEmpty { runs.removeLast() }
            }
            text += "\n"
            afterWord = false
        }
        // Open elements with the bold and italic their `style` attribute added, and whether
        // they keep their white space.
        var open: [(name: Substring, bold: Int, italic: Int, keeps: Bool)] = []
        var rest = Substring(html)
        while let start = rest.firstIndex(of: "<") {
            addText(rest[..<start])
            if rest[start...].hasPrefix("<!--") {
                // A comment: nothing of it is text, up to its end.
                let end = rest[start...].range(of: "-->")
                rest = end.map { rest[$0.upperBound...] } ?? ""
                continue
            }
            guard let close = rest[start...].firstIndex(of: ">") else {
                addText(rest[start...])
                rest = ""
                break
            }
            let rawTag = rest[rest.index(after: start)..<close]
            let tag = rawTag.lowercased()
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
            case "a":
                flush()
                if closing {
                    _ = links.popLast()
                } else {
                    links.append(StyledText.attribute("href", inTag: rawTag).flatMap(safeLink))
                }
            case "br":
                lineBreak()
            case "p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "pre", "blockquote":
                if closing { lineBreak() }
            case "script", "style", "title", "head", "template":
                // Not text: code, styles, the page's title. Skipped up to the closing tag.
                guard !closing, !tag.hasSuffix("/") else { break }
                let end = rest.range(of: "</\(name)", options: .caseInsensitive)
                rest = end.map { rest[$0.lowerBound...] } ?? ""
            default:
                break
            }
            if !closing, !tag.hasSuffix("/"), !voidElements.contains(String(name)) {
                let css = cssStyles(of: Substring(tag))
                if css.bold + css.italic > 0 { flush() }
                bold += css.bold
                italic += css.italic
                let keeps = name == "pre" || name == "textarea" || keepsWhiteSpace(Substring(tag))
                if keeps { keeping += 1 }
                open.append((Substring(name), css.bold, css.italic, keeps))
            } else if closing, let index = open.lastIndex(where: { $0.name == name }) {
                // Closes the element and any left open inside it.
                for element in open[index...] {
                    if element.keeps { keeping = max(0, keeping - 1) }
                    guard element.bold + element.italic > 0 else { continue }
                    flush()
                    bold = max(0, bold - element.bold)
                    italic = max(0, italic - element.italic)
                }
                open.removeSubrange(index...)
            }
        }
        addText(rest)
        pendingSpace = false
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

    /// The white space HTML collapses (ASCII only: a no-break space is kept).
    private static let collapsible: Set<Character> = [" ", "\t", "\n", "\r", "\r\n", "\u{0C}"]

    /// Whether a start tag's `style` keeps white space (`white-space: pre`, `pre-wrap`,
    /// `pre-line` or `break-spaces`).
    static func keepsWhiteSpace(_ tag: Substring) -> Bool {
        guard let attribute = tag.range(of: "white-space") else { return false }
        let value = tag[attribute.upperBound...].drop { $0 == ":" || $0 == " " }
        return value.hasPrefix("pre") || value.hasPrefix("break-spaces")
    }

    /// Elements that have no closing tag.
    private static let voidElements: Set<String> = [
        "br", "img", "hr", "meta", "link", "input", "col", "area", "base", "wbr", "source", "embed", "param", "track",
    ]

    /// Whether a start tag's `style` attribute makes its content bold (`font-weight` 600 and
    /// more, `bold`, `bolder`) or italic (`font-style: italic` or `oblique`): 1 or 0 each.
    static func cssStyles(of tag: Substring) -> (bold: Int, italic: Int) {
        guard let attribute = tag.range(of: "style=") else { return (0, 0) }
        var value = tag[attribute.upperBound...]
        if let quote = value.first, quote == "\"" || quote == "'" {
            value = value.dropFirst().prefix { $0 != quote }
        } else {
            value = value.prefix { !$0.isWhitespace }
        }
        var bold = 0
        var italic = 0
        for declaration in value.split(separator: ";") {
            let pair = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            switch pair[0] {
            case "font-weight":
                bold = ["bold", "bolder"].contains(pair[1]) || (Int(pair[1]) ?? 0) >= 600 ? 1 : 0
            case "font-style":
                italic = ["italic", "oblique"].contains(pair[1]) ? 1 : 0
            default:
                break
            }
        }
        return (bold, italic)
    }

    /// The characters of `runs`.
    public static func plainText(of runs: [StyledRun]) -> String { runs.map(\.text).joined() }

    /// The address `raw` (character references decoded, spaces trimmed) if a person may follow
    /// it from a note: `http`, `https` and `mailto` addresses, and `file` addresses of this
    /// computer that pass the project's checks for dropped files (absolute, no `.` or `..`
    /// segment); nil for anything else (`javascript:`, `data:`, relative addresses).
    public static func safeLink(_ raw: String) -> String? {
        let address = decode(raw).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !address.isEmpty, address.count <= 8192, !address.contains(where: { $0.isNewline }),
            let url = URL(string: address), let scheme = url.scheme?.lowercased()
        else { return nil }
        switch scheme {
        case "http", "https":
            guard let host = url.host, !host.isEmpty else { return nil }
            return url.absoluteString
        case "mailto":
            return url.absoluteString
        case "file":
            guard (try? ContentValidation.uriList(address)) != nil,
                url.host.map({ $0.isEmpty || $0 == "localhost" }) ?? true
            else { return nil }
            return url.absoluteString
        default:
            return nil
        }
    }

    private static func escaped(_ text: String) -> String {
        text.replacingScalars(["&": "&amp;", "\"": "&quot;", "<": "&lt;", ">": "&gt;"])
    }

    /// Appends `run`, merging it into the last run when their styles match.
    /// The last run is changed in place (no copy of it is held meanwhile), so appending many
    /// short runs of one style costs their total length, not its square.
    static func append(_ run: StyledRun, to runs: inout [StyledRun]) {
        guard !run.text.isEmpty else { return }
        if let last = runs.indices.last, runs[last].sameStyle(as: run) {
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
    static func decode(_ text: String, keepingLineBreaks: Bool = false) -> String {
        // Scalar by scalar: a '&' or ';' that a combining mark joins into one character with
        // its neighbour is still a '&' or ';' to an HTML parser.
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" || scalar == "\r" {
                // "\r\n" is one space, as any other line break (one line break where white
                // space is kept).
                out.append(keepingLineBreaks ? "\n" : " ")
                index += scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n" ? 2 : 1
                continue
            }
            if scalar == "&",
                let semicolon = scalars[(index + 1)..<min(scalars.count, index + 12)].firstIndex(of: ";")
            {
                let name = String(String.UnicodeScalarView(scalars[(index + 1)..<semicolon]))
                var decoded: String?
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
                } else if name.hasPrefix("#") {
                    decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
                } else {
                    decoded = entities[Substring(name)]
                }
                if let decoded, decoded != "\0" {
                    out.append(contentsOf: (decoded == "\r" ? " " : decoded).unicodeScalars)
                    index = semicolon + 1
                    continue
                }
            }
            out.append(scalar)
            index += 1
        }
        return String(out)
    }
}
