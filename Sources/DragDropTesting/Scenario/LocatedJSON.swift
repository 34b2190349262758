// A strict JSON parser (RFC 8259) that remembers where every value starts, so scenario errors can
// name both the JSON path and the line and column. Foundation's JSONSerialization on Linux reports
// only a character offset, silently keeps the last of two duplicate keys, and reads `1` as `true`;
// scenarios need all three to be errors.

/// A position in a text: 1-based line and column (columns count Unicode scalars).
public struct JSONLocation: Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1, in Unicode scalars.
    public var column: Int

    /// Creates a location.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "line \(line), column \(column)" }
}

/// A parsed JSON value with the location where it starts.
struct LocatedJSON: Sendable {
    /// The kinds of JSON values, with object members in document order.
    indirect enum Value: Sendable {
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
        case array([LocatedJSON])
        case object([Member])
    }

    /// One `"key": value` pair of an object.
    struct Member: Sendable {
        var key: String
        var keyLocation: JSONLocation
        var value: LocatedJSON
    }

    var value: Value
    var location: JSONLocation

    /// "a string", "a number"…: for "expected X, found Y" messages.
    var kindName: String {
        switch value {
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Parses `text`, reporting the first syntax error with the JSON path reached so far.
    static func parse(_ text: String) throws(ScenarioError) -> LocatedJSON {
        var parser = Parser(bytes: Array(text.utf8))
        return try parser.parseDocument()
    }
}

/// A recursive-descent parser over UTF-8 bytes.
private struct Parser {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var column = 1
    /// The JSON path of the value being parsed, for error messages.
    var path: [String] = []
    var depth = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark is allowed and skipped.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    var location: JSONLocation { JSONLocation(line: line, column: column) }

    var pathString: String { ScenarioPath.join(path) }

    func error(_ message: String, at location: JSONLocation? = nil) -> ScenarioError {
        ScenarioError(.malformedJSON, path: pathString, message, at: location ?? self.location)
    }

    mutating func parseDocument() throws(ScenarioError) -> LocatedJSON {
        skipWhitespace()
        guard index < bytes.count else { throw error("the file is empty; expected a JSON object") }
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count {
            throw error("unexpected \(describeCurrent()) after the end of the JSON document")
        }
        return value
    }

    mutating func advance() {
        let b = bytes[index]
        index += 1
        if b == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if b & 0xC0 != 0x80 {
            // Count scalars, not bytes: continuation bytes do not start a new column.
            column += 1
        }
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: advance()
            default: return
            }
        }
    }

    /// "unexpected X; expected Y", with a hint for comments and single quotes.
    func unexpected(_ expected: String, after context: String = "") -> ScenarioError {
        if index < bytes.count, bytes[index] == UInt8(ascii: "/") {
            return error("comments are not allowed in JSON; use a \"note\" field instead")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "'") {
            return error("strings must use double quotes, not single quotes")
        }
        return error("unexpected \(describeCurrent())\(context); expected \(expected)")
    }

    func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let b = bytes[index]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        if b == 0x20 || b == 0x09 { return "whitespace" }
        if b == 0x0A || b == 0x0D { return "end of line" }
        if b < 0x20 { return "control character U+\(String(b, radix: 16, uppercase: true))" }
        return "non-ASCII character"
    }

    mutating func parseValue() throws(ScenarioError) -> LocatedJSON {
        guard index < bytes.count else { throw error("unexpected end of file; expected a value") }
        let start = location
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return LocatedJSON(value: .string(try parseString()), location: start)
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw unexpected("a value")
        }
    }

    mutating func enter() throws(ScenarioError) {
        depth += 1
        if depth > 256 { throw error("nesting deeper than 256 levels") }
    }

    mutating func parseObject() throws(ScenarioError) -> LocatedJSON {
        let start = location
        try enter()
        defer { depth -= 1 }
        advance()  // {
        var members: [LocatedJSON.Member] = []
        // The keys seen so far, so a duplicate is found in O(1): an object with many keys
        // parses in linear time.
        var keys = Set<String>()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            advance()
            return LocatedJSON(value: .object([]), location: start)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                if index < bytes.count, bytes[index] == UInt8(ascii: "}"), !members.isEmpty {
                    throw error("trailing comma before '}'")
                }
                throw unexpected("a key in double quotes")
            }
            let keyLocation = location
            let key = try parseString()
            if !keys.insert(key).inserted {
                throw error("duplicate key \"\(key)\"", at: keyLocation)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw unexpected("':'", after: " after key \"\(key)\"")
            }
            advance()
            skipWhitespace()
            path.append(ScenarioPath.key(key))
            let value = try parseValue()
            path.removeLast()
            members.append(LocatedJSON.Member(key: key, keyLocation: keyLocation, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file; expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") {
                advance()
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                advance()
                return LocatedJSON(value: .object(members), location: start)
            }
            throw unexpected("',' or '}'", after: " after the value of \"\(key)\"")
        }
    }

    mutating func parseArray() throws(ScenarioError) -> LocatedJSON {
        let start = location
        try enter()
        defer { depth -= 1 }
        advance()  // [
        var items: [LocatedJSON] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            advance()
            return LocatedJSON(value: .array([]), location: start)
        }
        while true {
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                throw error("trailing comma before ']'")
            }
            path.append("[\(items.count)]")
            items.append(try parseValue())
            path.removeLast()
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file; expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") {
                advance()
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                advance()
                return LocatedJSON(value: .array(items), location: start)
            }
            throw unexpected("',' or ']'", after: " after an array element")
        }
    }

    mutating func parseLiteral(_ word: String, _ value: LocatedJSON.Value) throws(ScenarioError) -> LocatedJSON {
        let start = location
        for expected in word.utf8 {
            guard index < bytes.count, bytes[index] == expected else {
                throw error("invalid literal; expected \(word)", at: start)
            }
            advance()
        }
        return LocatedJSON(value: value, location: start)
    }

    mutating func parseNumber() throws(ScenarioError) -> LocatedJSON {
        let start = location
        let from = index
        func digits(_ p: inout Parser) -> Int {
            var n = 0
            while p.index < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.index]) {
                p.advance()
                n += 1
            }
            return n
        }
        if bytes[index] == UInt8(ascii: "-") { advance() }
        guard index < bytes.count else { throw error("invalid number: no digits", at: start) }
        if bytes[index] == UInt8(ascii: "0") {
            advance()
            if index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                throw error("invalid number: leading zeros are not allowed", at: start)
            }
        } else if digits(&self) == 0 {
            throw error("invalid number: no digits", at: start)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            advance()
            if digits(&self) == 0 { throw error("invalid number: no digits after the decimal point", at: start) }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            advance()
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { advance() }
            if digits(&self) == 0 { throw error("invalid number: no digits in the exponent", at: start) }
        }
        let text = String(decoding: bytes[from..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error("invalid number \(text): out of range", at: start)
        }
        return LocatedJSON(value: .number(value), location: start)
    }

    mutating func parseString() throws(ScenarioError) -> String {
        let start = location
        advance()  // opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flush(_ p: Parser, _ upTo: Int, into s: inout String.UnicodeScalarView) {
            if runStart < upTo { s.append(contentsOf: String(decoding: p.bytes[runStart..<upTo], as: UTF8.self).unicodeScalars) }
        }
        while true {
            guard index < bytes.count else { throw error("unterminated string (it starts at \(start))") }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                flush(self, index, into: &scalars)
                advance()
                return String(scalars)
            }
            if b < 0x20 {
                throw error(
                    b == 0x0A
                        ? "unterminated string (it starts at \(start)); a line break inside a string must be written \\n"
                        : "control character U+\(String(b, radix: 16, uppercase: true)) inside a string; escape it")
            }
            if b == UInt8(ascii: "\\") {
                flush(self, index, into: &scalars)
                let escapeLocation = location
                advance()
                guard index < bytes.count else { throw error("unterminated string (it starts at \(start))") }
                let e = bytes[index]
                advance()
                switch e {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try parseHex4(escapeLocation)
                    if (0xD800..<0xDC00).contains(code) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error("unpaired surrogate in \\u escape", at: escapeLocation) }
                        advance()
                        advance()
                        let low = try parseHex4(escapeLocation)
                        guard (0xDC00..<0xE000).contains(low) else {
                            throw error("unpaired surrogate in \\u escape", at: escapeLocation)
                        }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(code) {
                        throw error("unpaired surrogate in \\u escape", at: escapeLocation)
                    }
                    guard let scalar = Unicode.Scalar(code) else {
                        throw error("invalid \\u escape", at: escapeLocation)
                    }
                    scalars.append(scalar)
                default:
                    throw error("invalid escape \\\(Character(Unicode.Scalar(e))) in a string", at: escapeLocation)
                }
                runStart = index
                continue
            }
            advance()
        }
    }

    mutating func parseHex4(_ escapeLocation: JSONLocation) throws(ScenarioError) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = hexValue(bytes[index]) else {
                throw error("invalid \\u escape: expected four hexadecimal digits", at: escapeLocation)
            }
            code = code << 4 | digit
            advance()
        }
        return code
    }

    func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}

/// Builds the JSON paths used in scenario error messages: `scene[0].children[2].frame`.
enum ScenarioPath {
    /// The path component for an object key: `.key`, or `["odd key"]` when it is not a plain word.
    static func key(_ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
        return plain ? "." + key : "[\"\(key)\"]"
    }

    /// Joins components into a path; the empty path is the whole document.
    static func join(_ components: [String]) -> String {
        var s = components.joined()
        if s.hasPrefix(".") { s.removeFirst() }
        return s
    }

    /// `base` followed by `key`.
    static func child(_ base: String, _ key: String) -> String { join([base, Self.key(key)]) }

    /// `base` followed by `[index]`.
    static func element(_ base: String, _ index: Int) -> String { base + "[\(index)]" }
}
