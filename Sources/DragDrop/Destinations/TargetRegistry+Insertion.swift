extension TargetRegistry {
    /// Where a drop at `point` lands among the registered children of `container` (F8); see
    /// ``DragEngine/insertionIndex(in:at:)``. O(children), through the sibling links, with no
    /// allocation: a child counts when it is shown and (with a point) lies before the point in
    /// the container's layout, so the children need no order.
    func insertionIndex(in container: TargetID, at point: Point?) -> Int? {
        guard let s = slot(of: container), cold[Int(s)].extra >= 0,
            let layout = extras[Int(cold[Int(s)].extra)]?.insertion
        else { return nil }
        let direction = layoutDirection(ofSlot: s)
        var count = 0
        var child = nodes[Int(s)].firstChild
        while child >= 0 {
            if nodes[Int(child)].flags & Self.hiddenFlag == 0 {
                if let point {
                    if InsertionIndex.isBefore(index.frame(of: child), point, layout, direction) { count += 1 }
                } else {
                    count += 1
                }
            }
            child = nodes[Int(child)].nextSibling
        }
        return count
    }
}

extension DragEngine {
    /// Where in `container` a drop at `point` lands, from its registered children (F8): the
    /// number of its shown children that come before the point in its
    /// ``DragTarget/insertion`` layout, read in its ``DragTarget/layoutDirection`` (L3) (for laid-out items, the index ``InsertionIndex`` finds
    /// among their frames in list order), or the number of its shown children when `point` is
    /// nil (a keyboard drop lands at the end). Nil when `container` is not registered or has no
    /// insertion layout.
    ///
    /// Only the container's own children count: a nested container is one item of its parent,
    /// and its own items count only in its own index. Hidden children do not count (they are
    /// not on screen); children clipped out of view do (a row scrolled above the viewport is
    /// still before the pointer).
    ///
    /// The default of ``DragEngineDelegate/dragEngine(_:insertionIndexIn:at:)``: a container
    /// whose items are all registered needs no delegate method. A container whose items live in
    /// the app's model and are only partly registered (``DragTarget/modelItems``), or one whose
    /// children are not its items (a text view's offsets), implements it instead.
    public func insertionIndex(in container: TargetID, at point: Point?) -> Int? {
        registry.insertionIndex(in: container, at: point)
    }
}
