import DragDrop

/// A read-only, brute-force view of a ``Scene`` at one instant, built by the auditor from the
/// scene model alone (never from the engine's registry): laid-out frames, parents, paint order,
/// visibility, clipping and the app each node belongs to.
///
/// Everything here is a plain scan over the nodes: O(nodes × depth) to build, O(nodes × depth)
/// per hit test. That is the point: it is slow, obvious and independent of the engine's spatial
/// index and resolution code, so the two can be compared.
struct SceneView {
    /// Laid-out frames (items in containers, scroll offsets applied), from `Scene.layoutFrames()`.
    let frames: [TargetID: Rect]
    /// Every node by id (children included, as in the scene).
    private(set) var nodes: [TargetID: SceneNode] = [:]
    /// Each node's parent.
    private(set) var parent: [TargetID: TargetID] = [:]
    /// Ids in paint order: parents before children, earlier siblings (and their subtrees) before
    /// later ones; a later id paints above an earlier one.
    private(set) var paintOrder: [TargetID] = []
    /// The app each node belongs to (its own, else its nearest ancestor's, else the harness app).
    private(set) var apps: [TargetID: AppID] = [:]
    /// Whether the node and all its ancestors are shown.
    private(set) var shown: [TargetID: Bool] = [:]
    /// The frames of each node's clipping ancestors (nodes with `clipsChildren` or
    /// `contentHeight`), nearest first.
    private(set) var clips: [TargetID: [Rect]] = [:]

    /// Builds the view of `scene`; nodes without an app of their own (up to the root) belong to
    /// `defaultApp`.
    init(scene: Scene, defaultApp: AppID) {
        frames = scene.layoutFrames()
        func walk(_ node: SceneNode, parent p: TargetID?, app: AppID, shownAbove: Bool, clipsAbove: [Rect]) {
            // Duplicate ids (never in a valid scene) keep the first node, like `Scene.node(_:)`.
            guard nodes[node.id] == nil else { return }
            nodes[node.id] = node
            if let p { parent[node.id] = p }
            paintOrder.append(node.id)
            let ownApp = node.app ?? app
            apps[node.id] = ownApp
            let isShown = shownAbove && !node.isHidden
            shown[node.id] = isShown
            clips[node.id] = clipsAbove
            var childClips = clipsAbove
            if node.clipsChildren || node.contentHeight != nil {
                childClips.insert(frames[node.id] ?? .zero, at: 0)
            }
            for child in node.children {
                walk(child, parent: node.id, app: ownApp, shownAbove: isShown, clipsAbove: childClips)
            }
        }
        for root in scene.roots { walk(root, parent: nil, app: defaultApp, shownAbove: true, clipsAbove: []) }
    }

    /// The node named `id`.
    func node(_ id: TargetID) -> SceneNode? { nodes[id] }

    /// The laid-out frame of `id`.
    func frame(_ id: TargetID) -> Rect? { frames[id] }

    /// Whether `id` and all its ancestors are shown (unknown ids are not).
    func isShown(_ id: TargetID) -> Bool { shown[id] ?? false }

    /// The app `id` belongs to.
    func app(of id: TargetID) -> AppID? { apps[id] }

    /// `id`'s ancestors, nearest first.
    func ancestors(of id: TargetID) -> [TargetID] {
        var result: [TargetID] = []
        var current = parent[id]
        while let c = current {
            result.append(c)
            current = parent[c]
        }
        return result
    }

    /// Whether `point` is over `id`: inside its frame, or over something shown inside it (a row
    /// that hangs out of a list that does not clip it). What is under the pointer is what the
    /// content is above (F4, SP1), as the innermost destination is found from it (F5).
    func isUnder(_ id: TargetID, _ point: Point) -> Bool {
        contains(id, point) || (topHit(at: point).map { chain(from: $0).contains(id) } ?? false)
    }

    /// `id` followed by its ancestors, nearest first.
    func chain(from id: TargetID) -> [TargetID] { [id] + ancestors(of: id) }

    /// Whether `point` is inside the laid-out frame of `id`.
    func contains(_ id: TargetID, _ point: Point) -> Bool { frames[id]?.contains(point) ?? false }

    /// The topmost node under `point` a person could point at: shown, its frame containing the
    /// point, and not clipped away by an ancestor that clips. Scans every node, topmost first.
    func topHit(at point: Point) -> TargetID? {
        for id in paintOrder.reversed() {
            guard shown[id] == true, let f = frames[id], f.contains(point) else { continue }
            if clips[id, default: []].allSatisfy({ $0.contains(point) }) { return id }
        }
        return nil
    }

    /// The nearest ancestor of `item` that accepts drops: where a drag of `item` comes from.
    func sourceContainer(of item: TargetID) -> TargetID? {
        ancestors(of: item).first { nodes[$0]?.accepts.isEmpty == false }
    }

    /// Whether `id` is one of `items` or lies inside one of them.
    func isDraggedOrInside(_ id: TargetID, items: Set<TargetID>) -> Bool {
        chain(from: id).contains(where: items.contains)
    }
}

/// Whether a destination accepting `accepted` takes an item offering `offered`: some offered type
/// is a kind of some accepted type.
func takes(_ accepted: [ContentType], _ offered: [ContentType], conformance: TypeConformance) -> Bool {
    offered.contains { type in accepted.contains { conformance.conforms(type, to: $0) } }
}
