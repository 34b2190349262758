@_spi(Benchmarks) @testable import DragDrop
import DragDropTesting
import Testing

/// The target registry: nesting, paint order, clipping, hiding, unregistering, frame updates,
/// typed errors, and resolution against a brute-force model (F5 rests on it).
@Suite("Engine: target registry")
struct RegistryTests {
    private static let type: ContentType = "application/x-registry-test"
    private static let otherType: ContentType = "application/x-other"

    private static func target(
        _ id: TargetID, _ frame: Rect, parent: TargetID? = nil, accepts: Bool = false, clips: Bool = false,
        hidden: Bool = false
    ) -> DragTarget {
        var t = DragTarget(id: id, name: id.rawValue, frame: frame, parent: parent)
        if accepts { t.accepts = [type] }
        t.clipsChildren = clips
        t.isHidden = hidden
        return t
    }

    private static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect {
        Rect(x: x, y: y, width: w, height: h)
    }

    /// "top/destination" at `point`, "-" for none.
    private static func hit(_ r: TargetRegistry, _ x: Double, _ y: Double, _ masks: [TypeMask] = []) -> String {
        let res = r.resolve(at: Point(x: x, y: y), session: masks)
        return "\(res.topHit?.rawValue ?? "-")/\(res.destination?.rawValue ?? "-")"
    }

    /// The masks of an item offering `type`.
    private static func offering(_ registry: TargetRegistry, _ type: ContentType = type) -> [TypeMask] {
        registry.masks(forOffered: [[type]])
    }

    /// Everything observable about a registry: its targets, its type table and what it resolves
    /// at a grid of points.
    private static func fingerprint(_ r: TargetRegistry) -> [String] {
        var lines = r.allTargets.sorted { $0.id < $1.id }.map {
            "\($0.id) \($0.frame) parent=\($0.parent?.rawValue ?? "-") hidden=\($0.isHidden) shown=\(r.isShown($0.id))"
        }
        lines.append("count=\(r.count) types=\(r.typesGeneration)")
        let masks = offering(r)
        for x in stride(from: -10.0, through: 410, by: 20) {
            for y in stride(from: -10.0, through: 410, by: 20) {
                let res = r.resolve(at: Point(x: x, y: y), session: masks)
                lines.append("(\(x),\(y)) top=\(res.topHit?.rawValue ?? "-") dest=\(res.destination?.rawValue ?? "-")")
            }
        }
        return lines
    }

    /// A window (0, 0, 400×400) > list (accepting, 0, 0, 300×300) > folder (accepting,
    /// 100, 100, 100×100) > label (accepting nothing, 120, 120, 40×40).
    private static func nested() throws -> TargetRegistry {
        var r = TargetRegistry(localApp: "App")
        try r.register(target("window", rect(0, 0, 400, 400)))
        try r.register(target("list", rect(0, 0, 300, 300), parent: "window", accepts: true))
        try r.register(target("folder", rect(100, 100, 100, 100), parent: "list", accepts: true))
        try r.register(target("label", rect(120, 120, 40, 40), parent: "folder"))
        return r
    }

    @Test(
        "F5 registry: the innermost accepting target under the point is the destination; a non-accepting one falls through"
    )
    func nesting() throws {
        let r = try Self.nested()
        let masks = Self.offering(r)
        #expect(Self.hit(r, 130, 130, masks) == "label/folder")
        #expect(Self.hit(r, 180, 180, masks) == "folder/folder")
        #expect(Self.hit(r, 50, 50, masks) == "list/list")
        #expect(Self.hit(r, 350, 350, masks) == "window/-")
        #expect(Self.hit(r, 500, 500, masks) == "-/-")
        let other = Self.offering(r, Self.otherType)
        #expect(Self.hit(r, 130, 130, other) == "label/-", "nothing accepts other content")
        #expect(r.ancestors(of: "label") == ["folder", "list", "window"])
    }

    @Test("Registry: frames include their top-left edges and exclude their bottom-right edges")
    func edges() throws {
        var r = TargetRegistry(localApp: "App")
        try r.register(Self.target("row0", Self.rect(0, 0, 100, 40)))
        try r.register(Self.target("row1", Self.rect(0, 40, 100, 40)))
        #expect(r.resolve(at: Point(x: 0, y: 0)).topHit == "row0")
        #expect(r.resolve(at: Point(x: 50, y: 40)).topHit == "row1")
        #expect(r.resolve(at: Point(x: 50, y: 40.0.nextDown)).topHit == "row0")
        #expect(r.resolve(at: Point(x: 100, y: 20)).topHit == nil)
        #expect(r.resolve(at: Point(x: 50, y: 80)).topHit == nil)
    }

    @Test(
        "Registry: paint order puts children above parents and later siblings above earlier ones; bringToFront reorders"
    )
    func paintOrder() throws {
        var r = TargetRegistry(localApp: "App")
        try r.register(Self.target("a", Self.rect(0, 0, 200, 200)))
        try r.register(Self.target("aChild", Self.rect(150, 150, 100, 100), parent: "a"))
        try r.register(Self.target("b", Self.rect(100, 100, 200, 200)))
        try r.register(Self.target("bChild", Self.rect(120, 120, 20, 20), parent: "b"))
        #expect(r.resolve(at: Point(x: 50, y: 50)).topHit == "a")
        #expect(r.resolve(at: Point(x: 110, y: 110)).topHit == "b", "the later root is above")
        #expect(
            r.resolve(at: Point(x: 160, y: 160)).topHit == "b", "a child of the lower root stays below the upper root")
        #expect(r.resolve(at: Point(x: 130, y: 130)).topHit == "bChild")
        try r.bringToFront("a")
        #expect(r.resolve(at: Point(x: 110, y: 110)).topHit == "a")
        #expect(r.resolve(at: Point(x: 160, y: 160)).topHit == "aChild")
        #expect(r.resolve(at: Point(x: 130, y: 130)).topHit == "a")
        #expect(r.resolve(at: Point(x: 240, y: 240)).topHit == "aChild", "an unclipped child is hit outside its parent")
    }

    @Test("Registry: a clipping parent hides the parts of its descendants outside its frame")
    func clipping() throws {
        var r = TargetRegistry(localApp: "App")
        try r.register(Self.target("scroll", Self.rect(0, 0, 100, 100), accepts: true, clips: true))
        try r.register(Self.target("inner", Self.rect(0, 0, 300, 300), parent: "scroll"))
        try r.register(Self.target("deep", Self.rect(50, 50, 200, 200), parent: "inner", accepts: true))
        let masks = Self.offering(r)
        #expect(Self.hit(r, 60, 60, masks) == "deep/deep")
        #expect(Self.hit(r, 20, 20, masks) == "inner/scroll")
        #expect(Self.hit(r, 150, 150, masks) == "-/-", "clipped by a grandparent")
        #expect(Self.hit(r, 99, 150, masks) == "-/-")
    }

    @Test("Registry: hidden targets and their descendants are not hit, and are hit again when shown")
    func hidden() throws {
        var r = try Self.nested()
        let masks = Self.offering(r)
        try r.setHidden(true, for: "folder")
        #expect(Self.hit(r, 130, 130, masks) == "list/list")
        #expect(!r.isShown("label") && !r.isShown("folder") && r.isShown("list"))
        try r.setHidden(false, for: "folder")
        #expect(Self.hit(r, 130, 130, masks) == "label/folder")
        var hiddenFromStart = TargetRegistry(localApp: "App")
        try hiddenFromStart.register(Self.target("h", Self.rect(0, 0, 10, 10), hidden: true))
        #expect(hiddenFromStart.resolve(at: Point(x: 5, y: 5)).topHit == nil)
    }

    @Test("Registry: unregistering a target removes all its descendants; siblings stay and the ids can be reused")
    func unregisterCascade() throws {
        var r = try Self.nested()
        try r.register(Self.target("sibling", Self.rect(300, 0, 100, 100), parent: "window", accepts: true))
        try r.unregister("list")
        #expect(r.count == 2)
        #expect(!r.contains("list") && !r.contains("folder") && !r.contains("label"))
        #expect(r.target("folder") == nil)
        #expect(r.resolve(at: Point(x: 130, y: 130)).topHit == "window")
        #expect(r.resolve(at: Point(x: 350, y: 50), session: Self.offering(r)).destination == "sibling")
        #expect(throws: RegistryError.unknownTarget("label")) { try r.unregister("label") }
        try r.register(Self.target("folder", Self.rect(0, 0, 50, 50), parent: "sibling"))
        #expect(r.ancestors(of: "folder") == ["sibling", "window"])
        try r.unregister("window")
        #expect(r.count == 0)
        #expect(Self.hit(r, 10, 10) == "-/-")
    }

    @Test("Registry: frame updates move where a target is hit; offsetting moves the descendants only")
    func frameUpdates() throws {
        var r = try Self.nested()
        try r.setFrame(Self.rect(200, 200, 80, 80), for: "folder")
        #expect(r.target("folder")?.frame == Self.rect(200, 200, 80, 80))
        #expect(r.resolve(at: Point(x: 180, y: 180)).topHit == "list")
        #expect(r.resolve(at: Point(x: 210, y: 210)).topHit == "folder")
        try r.offsetDescendants(of: "list", by: Vector(dx: -200, dy: -200))
        #expect(r.target("list")?.frame == Self.rect(0, 0, 300, 300))
        #expect(r.target("folder")?.frame == Self.rect(0, 0, 80, 80))
        #expect(r.target("label")?.frame == Self.rect(-80, -80, 40, 40))
        #expect(r.resolve(at: Point(x: 10, y: 10)).topHit == "folder")
        #expect(r.resolve(at: Point(x: 210, y: 210)).topHit == "list")
    }

    @Test("Registry: typed errors for bad input, and the registry is unchanged after each")
    func typedErrorsChangeNothing() throws {
        var r = try Self.nested()
        let before = Self.fingerprint(r)
        let nan = Double.nan
        let failures: [(RegistryError, (inout TargetRegistry) throws(RegistryError) -> Void)] = [
            (
                .duplicateID("folder"),
                { r throws(RegistryError) in try r.register(Self.target("folder", Self.rect(0, 0, 1, 1))) }
            ),
            (
                .unknownParent("orphan", parent: "nowhere"),
                { r throws(RegistryError) in
                    try r.register(Self.target("orphan", Self.rect(0, 0, 10, 10), parent: "nowhere"))
                }
            ),
            (
                .invalidFrame("nan", Self.rect(nan, 0, 10, 10)),
                { r throws(RegistryError) in
                    try r.register(Self.target("nan", Self.rect(nan, 0, 10, 10), parent: "list"))
                }
            ),
            (
                .invalidFrame("negative", Self.rect(0, 0, -1, 10)),
                { r throws(RegistryError) in
                    try r.register(Self.target("negative", Self.rect(0, 0, -1, 10), parent: "list"))
                }
            ),
            (
                .invalidFrame("infinite", Self.rect(0, 0, .infinity, 10)),
                { r throws(RegistryError) in try r.register(Self.target("infinite", Self.rect(0, 0, .infinity, 10))) }
            ),
            (
                .invalidFrame("folder", Self.rect(0, 0, 10, -5)),
                { r throws(RegistryError) in try r.setFrame(Self.rect(0, 0, 10, -5), for: "folder") }
            ),
            (
                .invalidFrame("folder", Self.rect(0, nan, 10, 10)),
                { r throws(RegistryError) in try r.setFrame(Self.rect(0, nan, 10, 10), for: "folder") }
            ),
            (
                .unknownTarget("ghost"),
                { r throws(RegistryError) in try r.setFrame(Self.rect(0, 0, 1, 1), for: "ghost") }
            ),
            (.unknownTarget("ghost"), { r throws(RegistryError) in try r.unregister("ghost") }),
            (.unknownTarget("ghost"), { r throws(RegistryError) in try r.setHidden(true, for: "ghost") }),
            (.unknownTarget("ghost"), { r throws(RegistryError) in try r.bringToFront("ghost") }),
            (
                .unknownTarget("ghost"),
                { r throws(RegistryError) in try r.offsetDescendants(of: "ghost", by: Vector(dx: 1, dy: 1)) }
            ),
        ]
        for (expected, change) in failures {
            var thrown: RegistryError?
            do throws(RegistryError) { try change(&r) } catch { thrown = error }
            // NaN never equals itself, so compare invalid frames by their description.
            #expect(thrown?.description == expected.description)
            #expect(Self.fingerprint(r) == before, "after \(expected)")
        }
        #expect(
            RegistryError.invalidFrame("x", Self.rect(0, 0, -1, 1)).description
                == "Target 'x' has an invalid frame [0, 0, -1, 1]: sizes must be finite and not negative.")
        #expect(
            RegistryError.unknownParent("orphan", parent: "nowhere").description
                == "Target 'orphan' names parent 'nowhere', which is not registered; register parents first.")
    }

    @Test("Registry: a target whose accepted types overflow the type table is refused without using up the table")
    func typeTableOverflowChangesNothing() throws {
        var r = TargetRegistry(localApp: "App")
        var filler = Self.target("filler", Self.rect(0, 0, 10, 10))
        filler.accepts = (0..<(TypeMask.capacity - 1)).map { ContentType("application/x-type\($0)") }
        try r.register(filler)
        let generation = r.typesGeneration
        var greedy = Self.target("greedy", Self.rect(0, 0, 10, 10))
        greedy.accepts = ["application/x-new-a", "application/x-new-b"]
        #expect(throws: RegistryError.types(.tooManyAcceptedTypes(limit: 256, type: "application/x-new-b"))) {
            try r.register(greedy)
        }
        #expect(!r.contains("greedy"))
        #expect(r.typesGeneration == generation, "a refused registration interns nothing")
        var modest = Self.target("modest", Self.rect(0, 0, 10, 10))
        modest.accepts = ["application/x-new-c"]
        try r.register(modest)
        #expect(
            r.resolve(at: Point(x: 5, y: 5), session: Self.offering(r, "application/x-new-c")).destination == "modest")
    }

    // MARK: Randomized comparison with a brute-force model

    /// A deterministic generator (SplitMix64), so a failure always reproduces.
    private struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// The obvious, slow definition of resolution: scan every target.
    private struct Model {
        struct Node {
            var parent: TargetID?
            var frame: Rect
            var hidden: Bool
            var clips: Bool
            var accepts: Bool
            var order: Int
        }
        var nodes: [TargetID: Node] = [:]
        var ids: [TargetID] = []
        var nextOrder = 0

        mutating func add(_ id: TargetID, _ node: Node) {
            nodes[id] = node
            ids.append(id)
        }

        /// The target and its ancestors, root first.
        func chain(_ id: TargetID) -> [TargetID] {
            var result = [id]
            var p = nodes[id]!.parent
            while let parent = p {
                result.append(parent)
                p = nodes[parent]!.parent
            }
            return result.reversed()
        }

        func isVisible(_ id: TargetID, at point: Point) -> Bool {
            let c = chain(id)
            guard nodes[id]!.frame.contains(point) else { return false }
            for (i, a) in c.enumerated() {
                let n = nodes[a]!
                if n.hidden { return false }
                if i < c.count - 1, n.clips, !n.frame.contains(point) { return false }
            }
            return true
        }

        /// Children above parents; otherwise the later-ordered of the two diverging ancestors.
        func isAbove(_ a: TargetID, _ b: TargetID) -> Bool {
            let ca = chain(a)
            let cb = chain(b)
            var i = 0
            while i < ca.count, i < cb.count, ca[i] == cb[i] { i += 1 }
            if i == cb.count { return true }  // b is an ancestor of a
            if i == ca.count { return false }  // a is an ancestor of b
            return nodes[ca[i]]!.order > nodes[cb[i]]!.order
        }

        /// The topmost visible target at `point` and the innermost accepting one above it.
        func resolve(at point: Point) -> (topHit: TargetID?, destination: TargetID?) {
            var top: TargetID?
            for id in ids where isVisible(id, at: point) {
                if let t = top, !isAbove(id, t) { continue }
                top = id
            }
            guard let top else { return (nil, nil) }
            return (top, chain(top).reversed().first { nodes[$0]!.accepts })
        }
    }

    @Test("Registry: after 10,000 random frame updates, resolution matches a brute-force scan everywhere")
    func randomizedAgainstBruteForce() throws {
        var rng = SplitMix64(state: 0xD0D0_CAFE)
        var registry = TargetRegistry(localApp: "App")
        var model = Model()

        func randomFrame() -> Rect {
            let scale: Double
            switch Int.random(in: 0..<20, using: &rng) {
            case 0: scale = 0  // empty frames are never hit
            case 1: scale = 0.5
            case 2: scale = 50_000  // large frames live on coarse levels
            default: scale = Double.random(in: 5...300, using: &rng)
            }
            let w = scale * Double.random(in: 0.2...1, using: &rng)
            let h = scale * Double.random(in: 0.2...1, using: &rng)
            let x = Double.random(in: -100...1000, using: &rng).rounded() - (scale > 1000 ? w / 2 : 0)
            let y = Double.random(in: -100...1000, using: &rng).rounded() - (scale > 1000 ? h / 2 : 0)
            return Rect(x: x, y: y, width: w, height: h)
        }

        // A forest of 6 windows with 294 descendants, up to 6 levels deep.
        for i in 0..<300 {
            let id = TargetID("t\(i)")
            let parent: TargetID? = i < 6 ? nil : model.ids.randomElement(using: &rng)
            if let parent, model.chain(parent).count >= 6 { continue }
            let accepts = Bool.random(using: &rng)
            let clips = Int.random(in: 0..<4, using: &rng) == 0
            let hidden = Int.random(in: 0..<25, using: &rng) == 0
            let frame = randomFrame()
            try registry.register(
                Self.target(id, frame, parent: parent, accepts: accepts, clips: clips, hidden: hidden))
            model.nextOrder += 1
            model.add(
                id,
                .init(
                    parent: parent, frame: frame, hidden: hidden, clips: clips, accepts: accepts, order: model.nextOrder
                ))
        }

        func check(_ label: String) {
            let masks = Self.offering(registry)
            var points: [Point] = (0..<400).map { _ in
                Point(x: Double.random(in: -150...1100, using: &rng), y: Double.random(in: -150...1100, using: &rng))
            }
            // Edges are where off-by-one errors live: corners, exclusive edges and just inside them.
            for id in model.ids.shuffled(using: &rng).prefix(60) {
                let f = model.nodes[id]!.frame
                points += [
                    Point(x: f.minX, y: f.minY), Point(x: f.maxX, y: f.minY), Point(x: f.minX, y: f.maxY),
                    Point(x: f.maxX.nextDown, y: f.maxY.nextDown), Point(x: f.midX, y: f.midY),
                ]
            }
            var mismatches: [String] = []
            var hits = 0
            var destinations = 0
            for p in points {
                let got = registry.resolve(at: p, session: masks)
                let want = model.resolve(at: p)
                if want.topHit != nil { hits += 1 }
                if want.destination != nil { destinations += 1 }
                if got.topHit != want.topHit || got.destination != want.destination {
                    mismatches.append(
                        "\(p): got \(String(describing: got.topHit))/\(String(describing: got.destination)), want \(String(describing: want.topHit))/\(String(describing: want.destination))"
                    )
                }
            }
            #expect(mismatches.isEmpty, "\(label): \(mismatches.prefix(5))")
            #expect(
                hits > points.count / 4 && destinations > points.count / 8,
                "\(label): the probes must exercise the registry")
        }

        check("after registration")
        for step in 1...10_000 {
            let id = model.ids.randomElement(using: &rng)!
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<85:
                let frame =
                    Int.random(in: 0..<3, using: &rng) == 0
                    ? model.nodes[id]!.frame.offset(
                        by: Vector(
                            dx: Double.random(in: -40...40, using: &rng), dy: Double.random(in: -40...40, using: &rng)))
                    : randomFrame()
                try registry.setFrame(frame, for: id)
                model.nodes[id]!.frame = frame
            case 85..<92:
                let delta = Vector(
                    dx: Double.random(in: -60...60, using: &rng).rounded(),
                    dy: Double.random(in: -60...60, using: &rng).rounded())
                try registry.offsetDescendants(of: id, by: delta)
                for other in model.ids where other != id && model.chain(other).contains(id) {
                    model.nodes[other]!.frame = model.nodes[other]!.frame.offset(by: delta)
                }
            case 92..<96:
                try registry.bringToFront(id)
                model.nextOrder += 1
                model.nodes[id]!.order = model.nextOrder
            default:
                let hidden = Int.random(in: 0..<3, using: &rng) == 0
                try registry.setHidden(hidden, for: id)
                model.nodes[id]!.hidden = hidden
            }
            if step % 2_500 == 0 { check("after \(step) updates") }
        }
        for id in model.ids {
            #expect(registry.target(id)?.frame == model.nodes[id]!.frame)
        }
    }
}
