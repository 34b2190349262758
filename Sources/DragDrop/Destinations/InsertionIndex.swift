/// Insertion indexes from ordered item frames, by binary search (F8).
///
/// The engine applies the same rule to a container's registered children on its own
/// (``DragEngine/insertionIndex(in:at:)``); call this from a delegate whose items are not all
/// registered (a virtualized list computing its rows' frames from its model).
public enum InsertionIndex {
    /// The index at which a drop at `point` lands among `frames` (in list order) laid out as
    /// `layout` in `direction`: before the first item whose centre lies after the point in
    /// reading order (to its right, or in a right-to-left layout to its left, L3). O(log n).
    public static func compute<C: RandomAccessCollection>(
        layout: InsertionLayout, frames: C, point: Point, direction: LayoutDirection = .leftToRight
    ) -> Int where C.Element == Rect, C.Index == Int {
        var low = frames.startIndex
        var high = frames.endIndex
        while low < high {
            let mid = (low + high) / 2
            if isBefore(frames[mid], point, layout, direction) { low = mid + 1 } else { high = mid }
        }
        return low - frames.startIndex
    }

    /// Whether the item at `frame` comes before the insertion point for `point`.
    static func isBefore(
        _ frame: Rect, _ point: Point, _ layout: InsertionLayout, _ direction: LayoutDirection = .leftToRight
    ) -> Bool {
        switch layout {
        case .vertical: return frame.midY <= point.y
        case .horizontal: return isBefore(frame.midX, point.x, direction)
        case .grid:
            if frame.maxY <= point.y { return true }
            if frame.minY > point.y { return false }
            return isBefore(frame.midX, point.x, direction)
        }
    }

    /// Whether a centre at `x` comes before the pointer's `pointerX` along a row read in
    /// `direction`: to its left, or in a right-to-left row to its right.
    @inline(__always) private static func isBefore(_ x: Double, _ pointerX: Double, _ direction: LayoutDirection)
        -> Bool
    {
        direction == .leftToRight ? x <= pointerX : x >= pointerX
    }
}
