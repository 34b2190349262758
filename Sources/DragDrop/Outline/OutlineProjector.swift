/// Where a drop lands in an outline (T1): between two rows, as the `index`-th child of `parent`
/// (nil: the top level) at `depth`, or on a row that holds children, as its last child.
public enum OutlineDropPoint: Sendable, Hashable {
    case between(parent: TargetID?, index: Int, depth: Int)
    case on(TargetID)

    /// The parent the dropped items go into.
    public var parent: TargetID? {
        switch self {
        case .between(let parent, _, _): parent
        case .on(let item): item
        }
    }
}

/// Where a drop between two rows of an outline lands (T1): the pointer's horizontal position
/// picks the depth among those the gap allows, no deeper than one level below the row above
/// (when that row can hold children), no shallower than the row below needs; the depth picks
/// the parent and the index. The dragged items' rows and everything inside them are left out,
/// so nothing is ever proposed inside a dragged item (T3).
///
/// Built once per drag from the rows that show (O(rows)); each pointer move then costs
/// O(depth), whatever the outline's size (T7).
public struct OutlineProjector: Sendable {
    /// The rows left once the dragged items and their subtrees are taken out, in display order.
    public let rows: [OutlineRow]
    /// For each position of the rows that show (and one past the last), the gap of ``rows`` a
    /// drop before it is in: the position of the next row left. Read in O(1) on every move, so a
    /// dragged folder of 100,000 rows costs nothing per move (T7).
    private let gaps: [Int]
    private let byID: [TargetID: Int]
    /// Every row that shows (dragged ones too): its position among them, and what it is to the
    /// drag.
    private let shown: [TargetID: (position: Int, role: Role)]

    private enum Role { case kept, dragged, insideDragged }
    /// The indentation of one level, and where depth 0 starts (the pointer's x there picks 0).
    public let indent: Double
    public let origin: Double

    /// A projector over `rows` (the rows that show, in order) for a drag of `dragging`.
    public init(rows all: [OutlineRow], dragging: Set<TargetID>, indent: Double, origin: Double = 0) {
        var rows: [OutlineRow] = []
        var kept: [Int?] = []  // each row's position in `rows`, nil when left out
        var skipBelow: Int?  // inside a dragged row: rows deeper than its depth are skipped
        var shown: [TargetID: (position: Int, role: Role)] = [:]
        shown.reserveCapacity(all.count)
        for (position, row) in all.enumerated() {
            if let depth = skipBelow, row.depth > depth {
                kept.append(nil)
                shown[row.id] = (position, .insideDragged)
                continue
            }
            skipBelow = nil
            if dragging.contains(row.id) {
                skipBelow = row.depth
                kept.append(nil)
                shown[row.id] = (position, .dragged)
                continue
            }
            shown[row.id] = (position, .kept)
            kept.append(rows.count)
            rows.append(row)
        }
        self.shown = shown
        self.rows = rows
        var gaps = [Int](repeating: rows.count, count: kept.count + 1)
        for position in stride(from: kept.count - 1, through: 0, by: -1) {
            gaps[position] = kept[position] ?? gaps[position + 1]
        }
        self.gaps = gaps
        byID = Dictionary(rows.enumerated().map { ($1.id, $0) }) { first, _ in first }
        self.indent = max(1, indent)
        self.origin = origin
    }

    /// The gap before row `position` of the rows that show (`position` = their count: after
    /// the last), as a gap of ``rows``.
    func keptGap(before position: Int) -> Int { gaps[min(max(0, position), gaps.count - 1)] }

    /// The depths a drop in the gap before row `position` (of the rows that show) may take.
    public func depths(before position: Int) -> ClosedRange<Int> {
        let gap = keptGap(before: position)
        let above = gap > 0 ? rows[gap - 1] : nil
        let below = gap < rows.count ? rows[gap] : nil
        let deepest = above.map { $0.depth + ($0.canHoldChildren ? 1 : 0) } ?? 0
        let shallowest = min(below?.depth ?? 0, deepest)
        return shallowest...deepest
    }

    /// The drop between rows, before row `position` (of the rows that show), with the pointer at
    /// horizontal position `x`.
    public func drop(before position: Int, x: Double) -> OutlineDropPoint {
        let allowed = depths(before: position)
        let wanted = Int(((x - origin) / indent).rounded(.down))
        return drop(before: position, depth: min(max(wanted, allowed.lowerBound), allowed.upperBound))
    }

    /// The drop between rows, before row `position`, at `depth` (clamped to what the gap allows).
    public func drop(before position: Int, depth: Int) -> OutlineDropPoint {
        let allowed = depths(before: position)
        let depth = min(max(depth, allowed.lowerBound), allowed.upperBound)
        let gap = keptGap(before: position)
        guard gap > 0 else { return .between(parent: nil, index: 0, depth: 0) }
        var row = rows[gap - 1]
        // One level below the row above: its first child.
        if depth == row.depth + 1 { return .between(parent: row.id, index: 0, depth: depth) }
        // Otherwise after the row above's ancestor at that depth (the row itself at its own).
        while row.depth > depth, let parent = row.parent, let position = byID[parent] { row = rows[position] }
        return .between(parent: row.parent, index: row.index + 1, depth: row.depth)
    }

    /// The drop on row `id`, into it as its last child, when it holds children; nil otherwise,
    /// or when it is dragged or inside a dragged item (T3: the caller refuses it with
    /// ``OutlineTree/refusal(dropping:into:)``'s reason).
    public func drop(on id: TargetID) -> OutlineDropPoint? {
        guard let position = byID[id], rows[position].canHoldChildren else { return nil }
        return .on(id)
    }

    /// Where row `id` stands among the rows that show, dragged rows included; nil when it does
    /// not show.
    public func position(of id: TargetID) -> Int? { shown[id]?.position }

    /// The drop for a pointer over row `id` (of the rows that show), `fraction` of the way down
    /// it (0 at its top edge, 1 at its bottom), at horizontal position `x` (T1): on the row when
    /// it holds children and the pointer is in its middle half; otherwise in the gap above it
    /// (its top half) or below it (its bottom half), at the depth `x` picks. Over a dragged row,
    /// the gap it left (the drop puts it back); over a row inside a dragged item, nil: a drop
    /// there would put the item inside itself (T3, refused by the caller with
    /// ``OutlineTree/refusal(dropping:into:)``'s reason). O(depth).
    public func drop(overRow id: TargetID, fraction: Double, x: Double) -> OutlineDropPoint? {
        guard let (position, role) = shown[id] else { return nil }
        switch role {
        case .insideDragged: return nil
        case .dragged: return drop(before: position, x: x)
        case .kept:
            if let kept = byID[id], rows[kept].canHoldChildren, fraction >= 0.25, fraction < 0.75 { return .on(id) }
            return drop(before: fraction < 0.5 ? position : position + 1, x: x)
        }
    }

    /// Every drop point the keyboard reaches (T5), in reading order: down the rows, each gap's
    /// depths from the deepest (nearest the row above) to the shallowest, then the row below
    /// the gap itself when it holds children. O(rows × depth), once per keyboard drag.
    public func dropPoints() -> [OutlineDropPoint] {
        var points: [OutlineDropPoint] = []
        var seen = Set<OutlineDropPoint>()
        var position = 0
        for gap in 0...rows.count {
            // The first position of the rows that show whose gap is `gap` of the rows left.
            while position < gaps.count - 1, gaps[position] < gap { position += 1 }
            let allowed = depths(before: position)
            for depth in allowed.reversed() {
                let point = drop(before: position, depth: depth)
                if seen.insert(point).inserted { points.append(point) }
            }
            if gap < rows.count, let on = drop(on: rows[gap].id), seen.insert(on).inserted { points.append(on) }
        }
        return points
    }
}
