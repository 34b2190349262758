/// A message's text cut into literal runs and placeholders (`{destination}`, `{items:을}`).
/// A brace that opens no well-formed placeholder is literal text.
struct MessageTemplate: Sendable {
    enum Piece: Sendable, Equatable {
        case literal(String)
        case placeholder(name: String, modifier: String?)
    }

    let pieces: [Piece]

    init(_ text: String) {
        var pieces: [Piece] = []
        var literal = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            let inside = after[..<close]
            let parts = inside.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0]
            guard !name.isEmpty, !inside.contains("{"),
                  name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            else {
                literal += "{"
                rest = after
                continue
            }
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            literal = ""
            pieces.append(.placeholder(name: String(name), modifier: parts.count == 2 ? String(parts[1]) : nil))
            rest = after[after.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        self.pieces = pieces
    }
}

/// Korean particles whose form depends on the syllable before them (L2): 을/를, 이/가, 은/는,
/// 와/과, 으로/로.
enum KoreanParticle {
    /// (after a final consonant, after a vowel, when it cannot be told).
    private static let pairs: [(consonant: String, vowel: String, unknown: String)] = [
        ("을", "를", "을(를)"), ("이", "가", "이(가)"), ("은", "는", "은(는)"), ("과", "와", "와(과)"),
        ("으로", "로", "(으)로"),
    ]

    /// Whether `modifier` is one of the particles.
    static func isParticle(_ modifier: String) -> Bool {
        pairs.contains { $0.consonant == modifier || $0.vowel == modifier }
    }

    /// The form of the particle `modifier` (either form names it) that follows `text`.
    static func particle(_ modifier: String, after text: String) -> String? {
        guard let pair = pairs.first(where: { $0.consonant == modifier || $0.vowel == modifier }) else { return nil }
        switch finalSound(of: text) {
        case .consonant(let rieul):
            // 으로 after a vowel or ㄹ: 서울로, 집으로.
            return pair.consonant == "으로" && rieul ? pair.vowel : pair.consonant
        case .vowel: return pair.vowel
        case .unknown: return pair.unknown
        }
    }

    enum FinalSound: Equatable { case consonant(rieul: Bool), vowel, unknown }

    /// How `text` ends when read aloud: its last Hangul syllable or digit, past closing quotes,
    /// brackets, punctuation and spaces.
    static func finalSound(of text: String) -> FinalSound {
        var digits: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars.reversed() {
            let value = scalar.value
            if (0x30...0x39).contains(value) {
                digits.append(scalar)
                continue
            }
            if !digits.isEmpty { break }
            if (0xAC00...0xD7A3).contains(value) {
                let final = (value - 0xAC00) % 28
                return final == 0 ? .vowel : .consonant(rieul: final == 8)
            }
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil { return .unknown }
            // Quotes, brackets, punctuation, spaces, isolates: look further back.
        }
        guard let last = digits.first else { return .unknown }
        // Sino-Korean reading of the last digit; a trailing zero reads 십, 백, 천 or 만 (all end
        // in a consonant other than ㄹ), a lone zero 영.
        switch last {
        case "1", "7", "8": return .consonant(rieul: true)  // 일, 칠, 팔
        case "0", "3", "6": return .consonant(rieul: false)  // 영/십/백/천/만, 삼, 육
        default: return .vowel  // 이, 사, 오, 구
        }
    }
}

/// Right-to-left text: which languages write that way, and which way a name reads (L2).
enum TextDirection: Equatable {
    case leftToRight, rightToLeft

    /// The direction of a language's sentences (`ar`, `he`, `fa`... are right to left).
    static func of(language: String) -> TextDirection {
        let base = language.prefix { $0.isLetter }.lowercased()
        return ["ar", "he", "iw", "fa", "ur", "yi", "ps", "sd", "ug", "dv", "ckb", "syr"].contains(base)
            ? .rightToLeft : .leftToRight
    }

    /// The direction of `text` by its first strongly directional character (as U+2068 first
    /// strong isolate decides), or `nil` when it has none (digits, punctuation).
    static func of(text: String) -> TextDirection? {
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if (0x0590...0x08FF).contains(value) || (0xFB1D...0xFDFF).contains(value) || (0xFE70...0xFEFF).contains(value)
                || (0x10800...0x10FFF).contains(value) || (0x1E800...0x1EFFF).contains(value) {
                return .rightToLeft
            }
            if scalar.properties.isAlphabetic { return .leftToRight }
        }
        return nil
    }
}
