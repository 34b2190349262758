/// Which plural form of a message goes with a count, from a catalog header's `Plural-Forms`
/// line (`nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : ...);`, L2).
///
/// The expression is gettext's subset of C: `n`, unsigned integers, `!`, `* / %`, `+ -`,
/// `< > <= >=`, `== !=`, `&&`, `||`, `?:` and parentheses, with C's precedence and unsigned
/// arithmetic that wraps. It is parsed once, by this type (no `eval`, no C), into a tree at
/// most ``maximumDepth`` deep; evaluating it never traps: a division by zero makes
/// ``form(for:)`` answer `nil`, as does a form number outside `0..<count`.
///
/// ```swift
/// let russian = try PluralRule(header: "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);")
/// russian.form(for: 21)  // 0: "21 файл"
/// ```
public struct PluralRule: Sendable, Hashable, CustomStringConvertible {
    /// How many forms a plural message has in the language.
    public let count: Int
    let expression: PluralExpression

    /// The deepest nesting of operators and parentheses accepted.
    public static let maximumDepth = 64
    /// The longest expression accepted, in bytes.
    public static let maximumLength = 4096

    /// English's rule (and gettext's default): `nplurals=2; plural=(n != 1);`. Made on each
    /// use (a few bytes) rather than kept in a global: a global's boxed tree reads as a leak to
    /// the fuzzers' leak checker.
    public static var english: PluralRule { PluralRule(count: 2, expression: .binary(.notEqual, .n, .constant(1))) }

    init(count: Int, expression: PluralExpression) {
        self.count = count
        self.expression = expression
    }

    /// Parses the value of a `Plural-Forms` header line: `nplurals=N; plural=EXPRESSION;`.
    public init(header: String) throws(PluralRuleError) {
        var count: Int?
        var plural: String?
        for field in header.split(separator: ";") {
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                if field.allSatisfy(\.isWhitespace) { continue }
                throw .malformedHeader(header)
            }
            switch parts[0].trimmingSpaces {
            case "nplurals":
                guard let value = Int(parts[1].trimmingSpaces), (1...100).contains(value) else {
                    throw .malformedHeader(header)
                }
                count = value
            case "plural": plural = String(parts[1])
            default: continue
            }
        }
        guard let count, let plural else { throw .malformedHeader(header) }
        self.count = count
        expression = try PluralExpression(parsing: plural)
    }

    /// The form for `n`, or `nil` when the expression divides by zero or names a form the
    /// language does not have.
    public func form(for n: Int) -> Int? {
        guard let value = expression.evaluate(n: UInt64(truncatingIfNeeded: n)), value < UInt64(count) else { return nil }
        return Int(value)
    }

    public var description: String { "nplurals=\(count); plural=\(expression);" }
}

/// Why a `Plural-Forms` line was refused.
public enum PluralRuleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line lacks `nplurals=N` (1 to 100) or `plural=...`.
    case malformedHeader(String)
    /// Something other than the accepted tokens, at this byte offset of the expression.
    case unexpectedCharacter(offset: Int)
    /// The expression ended, or went on, where it could not (`n +`, `(n`, `n n`).
    case unexpectedToken(offset: Int)
    /// A number too large for 64 bits.
    case numberTooLarge(offset: Int)
    /// Nested deeper than ``PluralRule/maximumDepth``.
    case tooDeep
    /// Longer than ``PluralRule/maximumLength`` bytes.
    case tooLong

    public var description: String {
        switch self {
        case .malformedHeader(let text): "The Plural-Forms line \"\(text)\" lacks nplurals (1 to 100) or plural."
        case .unexpectedCharacter(let offset): "The plural expression has an unexpected character at byte \(offset)."
        case .unexpectedToken(let offset): "The plural expression cannot go on as it does at byte \(offset)."
        case .numberTooLarge(let offset): "The plural expression has a number too large at byte \(offset)."
        case .tooDeep: "The plural expression nests deeper than \(PluralRule.maximumDepth)."
        case .tooLong: "The plural expression is longer than \(PluralRule.maximumLength) bytes."
        }
    }
}

/// A parsed plural expression.
indirect enum PluralExpression: Sendable, Hashable, CustomStringConvertible {
    enum Operator: String, Sendable, Hashable {
        case multiply = "*", divide = "/", remainder = "%", add = "+", subtract = "-"
        case less = "<", greater = ">", lessOrEqual = "<=", greaterOrEqual = ">="
        case equal = "==", notEqual = "!=", and = "&&", or = "||"
    }
    case n
    case constant(UInt64)
    case not(PluralExpression)
    case binary(Operator, PluralExpression, PluralExpression)
    case conditional(PluralExpression, PluralExpression, PluralExpression)

    init(parsing text: String) throws(PluralRuleError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= PluralRule.maximumLength else { throw .tooLong }
        var parser = PluralParser(bytes: bytes)
        self = try parser.parseAll()
    }

    /// The value, with C's unsigned wrapping arithmetic; `nil` on a division by zero.
    func evaluate(n: UInt64) -> UInt64? {
        switch self {
        case .n: return n
        case .constant(let value): return value
        case .not(let operand): return operand.evaluate(n: n).map { $0 == 0 ? 1 : 0 }
        case .conditional(let condition, let then, let otherwise):
            guard let test = condition.evaluate(n: n) else { return nil }
            return test != 0 ? then.evaluate(n: n) : otherwise.evaluate(n: n)
        case .binary(let op, let left, let right):
            guard let a = left.evaluate(n: n) else { return nil }
            // Short-circuit as C does: the right side of a decided && or || is not evaluated.
            if op == .and, a == 0 { return 0 }
            if op == .or, a != 0 { return 1 }
            guard let b = right.evaluate(n: n) else { return nil }
            switch op {
            case .multiply: return a &* b
            case .divide: return b == 0 ? nil : a / b
            case .remainder: return b == 0 ? nil : a % b
            case .add: return a &+ b
            case .subtract: return a &- b
            case .less: return a < b ? 1 : 0
            case .greater: return a > b ? 1 : 0
            case .lessOrEqual: return a <= b ? 1 : 0
            case .greaterOrEqual: return a >= b ? 1 : 0
            case .equal: return a == b ? 1 : 0
            case .notEqual: return a != b ? 1 : 0
            case .and, .or: return b != 0 ? 1 : 0
            }
        }
    }

    var description: String {
        switch self {
        case .n: "n"
        case .constant(let value): "\(value)"
        case .not(let operand): "!\(operand)"
        case .binary(let op, let left, let right): "(\(left) \(op.rawValue) \(right))"
        case .conditional(let condition, let then, let otherwise): "(\(condition) ? \(then) : \(otherwise))"
        }
    }
}

/// Recursive descent over the bytes, C's precedence from `?:` (lowest) to `!` (highest).
private struct PluralParser {
    let bytes: [UInt8]
    var position = 0
    var depth = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func parseAll() throws(PluralRuleError) -> PluralExpression {
        let expression = try conditional()
        skipSpaces()
        guard position == bytes.count else { throw .unexpectedToken(offset: position) }
        return expression
    }

    private mutating func skipSpaces() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    /// Consumes `token` if it comes next (and, for a one-character operator, is not the start
    /// of a longer one: `<` is not `<=`, `!` is not `!=`).
    private mutating func take(_ token: String) -> Bool {
        skipSpaces()
        let token = Array(token.utf8)
        guard position + token.count <= bytes.count, Array(bytes[position..<(position + token.count)]) == token else {
            return false
        }
        if token.count == 1, position + 1 < bytes.count, bytes[position + 1] == 0x3D,
           [0x3C, 0x3E, 0x21, 0x3D].contains(token[0]) {
            return false
        }
        position += token.count
        return true
    }

    private mutating func nested<T>(_ body: (inout PluralParser) throws(PluralRuleError) -> T) throws(PluralRuleError) -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= PluralRule.maximumDepth else { throw .tooDeep }
        return try body(&self)
    }

    private mutating func conditional() throws(PluralRuleError) -> PluralExpression {
        try nested { (p: inout PluralParser) throws(PluralRuleError) -> PluralExpression in
            let condition = try p.binary(level: 0)
            guard p.take("?") else { return condition }
            let then = try p.conditional()
            guard p.take(":") else { throw .unexpectedToken(offset: p.position) }
            let otherwise = try p.conditional()
            return .conditional(condition, then, otherwise)
        }
    }

    private static let levels: [[PluralExpression.Operator]] = [
        [.or], [.and], [.equal, .notEqual], [.lessOrEqual, .greaterOrEqual, .less, .greater],
        [.add, .subtract], [.multiply, .divide, .remainder],
    ]

    private mutating func binary(level: Int) throws(PluralRuleError) -> PluralExpression {
        guard level < Self.levels.count else { return try unary() }
        var left = try binary(level: level + 1)
        var chain = 0
        while let op = Self.levels[level].first(where: { take($0.rawValue) }) {
            chain += 1
            // A long flat chain (n+n+n...) builds a deep left-leaning tree: bound it as well.
            guard chain <= PluralRule.maximumDepth else { throw .tooDeep }
            let right = try binary(level: level + 1)
            left = .binary(op, left, right)
        }
        return left
    }

    private mutating func unary() throws(PluralRuleError) -> PluralExpression {
        if take("!") {
            return try nested { (p: inout PluralParser) throws(PluralRuleError) -> PluralExpression in .not(try p.unary()) }
        }
        return try primary()
    }

    private mutating func primary() throws(PluralRuleError) -> PluralExpression {
        skipSpaces()
        guard position < bytes.count else { throw .unexpectedToken(offset: position) }
        let byte = bytes[position]
        if byte == 0x6E {  // n
            position += 1
            return .n
        }
        if (0x30...0x39).contains(byte) {
            let start = position
            var value: UInt64 = 0
            while position < bytes.count, (0x30...0x39).contains(bytes[position]) {
                let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times.addingReportingOverflow(UInt64(bytes[position] - 0x30))
                guard !overflow1, !overflow2 else { throw .numberTooLarge(offset: start) }
                value = sum
                position += 1
            }
            return .constant(value)
        }
        if take("(") {
            let inner = try conditional()
            guard take(")") else { throw .unexpectedToken(offset: position) }
            return inner
        }
        let known: Set<UInt8> = Set("()!*/%+-<>=&|?:".utf8)
        throw known.contains(byte) ? .unexpectedToken(offset: position) : .unexpectedCharacter(offset: position)
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
