/// Insertion indexes from ordered item frames, by binary search (F8).
///
/// The engine applies the same rule to a container's registered children on its own
/// (``DragEngine/insertionIndex(in:at:)``); call this from a delegate whose items are not all
/// registered (a virtualized list computing its rows' frames from its model).
public enum InsertionIndex {
    /// The index at which a drop at `point` lands among `frames` (in list order) laid out as
    /// `layout`: before the first item whose centre lies after the point. O(log n).
    public static func compute<C: RandomAccessCollection>(
        layout: InsertionLayout, frames: C, point: Point
    ) -> Int where C.Element == Rect, C.Index == Int {
        var low = frames.startIndex
        var high = frames.endIndex
        while low < high {
            let mid = (low + high) / 2
            if isBefore(frames[mid], point, layout) { low = mid + 1 } else { high = mid }
        }
        return low - frames.startIndex
    }

    /// Whether the item at `frame` comes before the insertion point for `point`.
    static func isBefore(_ frame: Rect, _ point: Point, _ layout: InsertionLayout) -> Bool {
        switch layout {
        case .vertical: return frame.midY <= point.y
        case .horizontal: return frame.midX <= point.x
        case .grid:
            if frame.maxY <= point.y { return true }
            if frame.minY > point.y { return false }
            return frame.midX <= point.x
        }
    }
}
