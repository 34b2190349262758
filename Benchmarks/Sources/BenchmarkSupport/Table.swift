/// One line of the results table.
public struct Row: Sendable {
    /// What is measured ("Lookup, board, 100k").
    public var scenario: String
    /// Our median (or single figure).
    public var ours: String
    /// Our 99th percentile, or a second figure.
    public var oursP99: String
    /// What the baseline is.
    public var baseline: String
    /// The baseline's median.
    public var baselineMedian: String
    /// The baseline's 99th percentile.
    public var baselineP99: String
    /// How we compare: baseline / ours for times (above 1 means we are faster).
    public var ratio: String
    /// The target and whether it is met: "PASS ≤ 2 µs", "MISS ≤ 50 µs", or empty.
    public var target: String

    /// Where the row goes in the table: rows are printed by group (the scenario order),
    /// then in the order they were added.
    public var group = 0

    public init(
        scenario: String, ours: String, oursP99: String, baseline: String, baselineMedian: String, baselineP99: String,
        ratio: String, target: String = ""
    ) {
        self.scenario = scenario
        self.ours = ours
        self.oursP99 = oursP99
        self.baseline = baseline
        self.baselineMedian = baselineMedian
        self.baselineP99 = baselineP99
        self.ratio = ratio
        self.target = target
    }
}

/// The one table `make bench` prints, as Markdown.
public struct Table {
    public private(set) var rows: [Row] = []

    public init() {}

    public mutating func append(_ row: Row) { rows.append(row) }

    static let headers = [
        "Scenario", "Ours median", "Ours p99", "Baseline", "Baseline median", "Baseline p99", "Ratio", "Target",
    ]

    /// The table as aligned Markdown.
    public func markdown() -> String {
        let ordered = rows.enumerated().sorted { ($0.element.group, $0.offset) < ($1.element.group, $1.offset) }.map(\.element)
        let cells = ordered.map {
            [$0.scenario, $0.ours, $0.oursP99, $0.baseline, $0.baselineMedian, $0.baselineP99, $0.ratio, $0.target]
        }
        var widths = Self.headers.map { $0.count }
        for line in cells { for (i, cell) in line.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func line(_ values: [String]) -> String {
            "| " + values.enumerated().map { i, v in v + String(repeating: " ", count: widths[i] - v.count) }
                .joined(separator: " | ") + " |"
        }
        var out = [line(Self.headers), "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"]
        out += cells.map(line)
        return out.joined(separator: "\n")
    }
}

/// A target we hold ourselves to.
public enum Verdict {
    /// "PASS ≤ 2 µs" or "MISS ≤ 2 µs".
    public static func check(_ met: Bool, _ description: String) -> String { (met ? "PASS " : "MISS ") + description }
}
