import DragDrop

/// Random scenes for the model-based random tester: a window with two to four lists of cards and
/// photos, with every kind of destination the scenario format knows.
///
/// Lists move, copy, decide automatically or refuse (S2); some load slowly and some of those fail
/// (A4, A6); some ask for confirmation (U2) or offer a way out afterwards (U3); some fail at once
/// (F7); some scroll (A1), clip their rows, belong to another app (S2) or are hidden until a
/// spring-loaded tab shows them (SP1). Cards can be read-only, and some are folders holding
/// cards, folders inside folders, that take drops and spring open.
enum RandomScene {
    /// The app the engine runs in.
    static let app: AppID = "Board"
    /// Another app's window, for drags between apps (S2).
    static let otherApp: AppID = "Notebook"
    /// The app of drags entering from outside.
    static let externalApp: AppID = "Browser"
    /// The app's own card type, a kind of plain text.
    static let cardType: ContentType = "application/x-card"
    static let types: [(type: ContentType, conformsTo: [ContentType])] = [(cardType, [.plainText])]
    static let card = Noun("card")
    static let photo = Noun("photo")
    static let folder = Noun("folder")

    /// Builds a scene; item ids are short (`c1`, `f2`) so shrunk scenarios stay readable.
    static func make(_ random: inout SeededRandom) -> [SceneNode] {
        var window = SceneNode(id: "w", name: "Board", role: .group, frame: Rect(x: 0, y: 0, width: 1000, height: 700))
        window.clipsChildren = true
        var counter = 0
        func nextID(_ prefix: String) -> TargetID {
            counter += 1
            return TargetID("\(prefix)\(counter)")
        }
        func cardNode(depth: Int) -> SceneNode {
            let isPhoto = random.chance(0.2)
            let isFolder = !isPhoto && depth < 2 && random.chance(0.18)
            var n = SceneNode(
                id: nextID(isFolder ? "f" : isPhoto ? "p" : "c"), name: "", role: .item)
            n.name = isFolder ? "Folder \(n.id)" : isPhoto ? "Photo \(n.id)" : "Card \(n.id)"
            n.offers = isPhoto ? [.png] : [cardType, .plainText]
            n.kind = isFolder ? folder : isPhoto ? photo : card
            if random.chance(0.08) { n.isMovable = false }
            if isFolder {
                n.accepts = random.chance(0.8) ? [cardType] : [cardType, .png]
                n.layout = .horizontal
                n.itemSize = Size(width: 30, height: 16)
                n.spacing = 2
                // A folder shows the cards that fit; the others are clipped away.
                n.clipsChildren = true
                if random.chance(0.5) { n.springLoading = SpringLoadingConfiguration() }
                for _ in 0..<random.int(0...2) { n.children.append(cardNode(depth: depth + 1)) }
            }
            return n
        }

        let listCount = random.int(2...4)
        var lists: [SceneNode] = []
        var controls: [SceneNode] = []
        for i in 0..<listCount {
            let id = TargetID("L\(i + 1)")
            let x = 20 + Double(i) * 245
            var list = SceneNode(id: id, name: "List \(i + 1)", role: .container)
            let scrolls = random.chance(0.2)
            let clips = !scrolls && random.chance(0.15)
            let height: Double = scrolls ? 240 : clips ? 130 : 420
            list.frame = Rect(x: x, y: 60, width: 225, height: height)
            if random.chance(0.2) {
                list.layout = .grid
                list.itemSize = Size(width: 108, height: 40)
                list.spacing = 4
                list.padding = 2
            } else {
                list.layout = .vertical
            }
            if scrolls {
                list.contentHeight = 600
                list.autoscroll = AutoscrollConfiguration()
            }
            list.clipsChildren = clips
            // Every other list can carry out another app's move (no draw: seeds keep their scenes).
            list.takesMovesFromOtherApps = i % 2 == 1
            list.accepts = random.weighted([([cardType], 5), ([cardType, .png], 4), ([.png], 1), ([.plainText], 1)])
            list.policy = random.weighted([
                (.automatic, 8), (.preferMove, 5), (.alwaysCopy, 3),
                (.forbidden(reason: "List \(i + 1) is read-only."), 2),
            ])
            if random.chance(0.3) {
                let fails = random.chance(0.35)
                list.transfer = SimulatedTransfer(
                    duration: .milliseconds(random.int(3...15) * 100), steps: random.int(1...4),
                    failAt: fails ? random.pick([0.25, 0.5, 0.75, 1]) : nil)
                if fails { list.failure = "The connection to List \(i + 1) was lost." }
            } else if random.chance(0.06) {
                list.failure = "List \(i + 1) is full."
            }
            if random.chance(0.15) {
                list.confirmation = "Cards dropped here cannot be taken back."
            } else if random.chance(0.1) {
                list.cancellationTitle = "Stop Sharing"
            }
            if i > 0, random.chance(0.12) { list.app = otherApp }
            for _ in 0..<random.int(0...5) { list.children.append(cardNode(depth: 0)) }
            if i > 0, random.chance(0.2) {
                // Hidden until a spring-loaded tab shows it (SP1, SP2).
                list.isHidden = true
                var tab = SceneNode(
                    id: TargetID("t\(i + 1)"), name: "Show List \(i + 1)", role: .control,
                    frame: Rect(x: 20 + Double(controls.count) * 110, y: 10, width: 100, height: 36))
                tab.springLoading = SpringLoadingConfiguration()
                tab.showsOnActivate = [id]
                if let other = lists.last(where: { !$0.isHidden }), random.chance(0.5) {
                    tab.hidesOnActivate = [other.id]
                }
                controls.append(tab)
            }
            lists.append(list)
        }
        if random.chance(0.25) {
            // A drop point: takes cards, shows none (an inbox row).
            var inbox = SceneNode(
                id: "inbox", name: "Inbox", role: .dropPoint,
                frame: Rect(x: 20 + Double(controls.count) * 110, y: 10, width: 100, height: 36))
            inbox.accepts = [cardType]
            controls.append(inbox)
        }
        if random.chance(0.15) {
            // A plain button: clickable, not spring-loaded.
            controls.append(
                SceneNode(
                    id: "b1", name: "Archive", role: .control,
                    frame: Rect(x: 20 + Double(controls.count) * 110, y: 10, width: 100, height: 36)))
        }
        window.children = lists + controls
        return [window]
    }
}
