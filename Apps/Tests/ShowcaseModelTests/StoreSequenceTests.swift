import DragDrop
import Foundation
import GRDB
@_spi(CrashTesting) import ShowcaseModel
import Testing

/// The store under random sequences: drops, moves, copies, inserts, removals, undo, redo,
/// "Stop Sharing" and restarts, played on `ShowcaseStore` and on ``StoreModel``; the store must
/// answer each step as the model does and hold exactly the model's rows after every step. The
/// crash half plays the steps in a child process killed with SIGKILL at random points (inside
/// transactions, right before and after commits, at random times): the reopened store must hold
/// the model's rows from just before or just after the interrupted step, never anything between.
///
/// Seeded: a failure prints its seed and the shortest list of steps that still fails.
@Suite("Showcase store, random sequences against a model")
struct StoreSequenceTests {
    @Test(
        "S4, U1, U2, U3, A6: 160 random drops, operations, undos, redos and restarts; the store equals the model after every step",
        arguments: seeds([101, 202, 303, 404]))
    func randomSequence(seed: UInt64) throws {
        let steps = try Self.generate(seed: seed, count: 160)
        guard let failure = try Self.play(steps) else { return }
        let minimal = Shrinker.shrink(steps) { (try? Self.play($0)) != nil }
        let minimalFailure = (try? Self.play(minimal)).flatMap { $0 } ?? failure
        Issue.record(
            """
            seed \(seed): \(failure)
            shortest failing sequence (\(minimal.count) of \(steps.count) steps), which fails with: \(minimalFailure)
            \(minimal.enumerated().map { "  \($0.offset). \($0.element)" }.joined(separator: "\n"))
            """)
    }

    @Test(
        "U1, S4: gaps between ranks run out all the time (ranks 1 apart within ±64: no gap at all; or 16 apart within ±1,024): 160 random steps still equal the model after every step",
        arguments: seeds([11, 12, 13, 14]).map {
            ($0, $0 % 2 == 1 ? RankSpacing(spacing: 1, limit: 64) : RankSpacing(spacing: 16, limit: 1024))
        })
    func randomSequenceWithTinyGaps(seed: UInt64, spacing: RankSpacing) throws {
        let steps = try Self.generate(seed: seed, count: 160)
        let spreads = SpreadCounter()
        guard let failure = try Self.play(steps, spacing: spacing, spreads: spreads, readBack: true) else {
            // With no gap at all, every arrival between two items spreads out a window.
            if spacing.spacing == 1 { #expect(spreads.windows > 0, "seed \(seed): no gap ran out") }
            print("tiny gaps, seed \(seed), spacing \(spacing.spacing) within ±\(spacing.limit): \(spreads)")
            return
        }
        let minimal = Shrinker.shrink(steps) { (try? Self.play($0, spacing: spacing, readBack: true)) != nil }
        let minimalFailure = (try? Self.play(minimal, spacing: spacing, readBack: true)).flatMap { $0 } ?? failure
        Issue.record(
            """
            seed \(seed), spacing \(spacing.spacing) within ±\(spacing.limit): \(failure)
            shortest failing sequence (\(minimal.count) of \(steps.count) steps), which fails with: \(minimalFailure)
            \(minimal.enumerated().map { "  \($0.offset). \($0.element)" }.joined(separator: "\n"))
            """)
    }

    @Test(
        "S4: sessions killed with SIGKILL at random points; the reopened store holds the model before or after the interrupted step",
        arguments: seeds([7, 8, 9]))
    func randomCrashes(seed: UInt64) throws {
        var tally = CrashTally()
        let (sessions, failure) = try Self.playCrashes(seed: seed, sessions: 16, tally: &tally)
        print("store crash sequences, seed \(seed): \(tally)")
        guard let failure else { return }
        let minimal = Shrinker.shrink(sessions) { candidate in
            var ignored = CrashTally()
            return (try? Self.replayCrashes(candidate, tally: &ignored)).flatMap { $0 } != nil
        }
        Issue.record(
            """
            seed \(seed): \(failure)
            shortest failing sessions (\(minimal.count) of \(sessions.count)):
            \(minimal.enumerated().map { "  session \($0.offset): \($0.element)" }.joined(separator: "\n"))
            """)
    }

    // MARK: Steps in the test process

    /// A step of an in-process sequence: a person's step, or closing the app and opening it again.
    enum Step: CustomStringConvertible {
        case run(StoreStep)
        case restart

        var description: String {
            switch self {
            case .run(let step): step.description
            case .restart: "restart (close and reopen the store)"
            }
        }
    }

    /// The seeds to play: `fixed`, or 1…N when `DRAGDROP_STORE_SEEDS=N` asks for a longer run
    /// (RELIABILITY.md's figures: `DRAGDROP_STORE_SEEDS=500 swift test --filter StoreSequenceTests`).
    static func seeds(_ fixed: [UInt64]) -> [UInt64] {
        guard let text = ProcessInfo.processInfo.environment["DRAGDROP_STORE_SEEDS"], let count = UInt64(text), count > 0
        else { return fixed }
        return Array(1...count)
    }

    static func generate(seed: UInt64, count: Int) throws -> [Step] {
        let fixture = try SequenceFixture()
        var model = try StoreModel.read(fixture.open())
        var generator = StepGenerator(seed: seed, fixture: fixture)
        var steps: [Step] = []
        for _ in 0..<count {
            if generator.chance(3) {
                steps.append(.restart)
                model.restart()
            } else {
                let step = generator.next(model)
                steps.append(.run(step))
                _ = model.run(step)
            }
        }
        return steps
    }

    /// Plays `steps` on a fresh fixture and the model, the store giving ranks with `spacing`;
    /// the first difference, or nil. After every step: every row as the model has it, the
    /// database's integrity, and with `readBack` each collection read back by pages and slots.
    static func play(
        _ steps: [Step], spacing: RankSpacing = .standard, spreads: SpreadCounter? = nil, readBack: Bool = false
    ) throws -> String? {
        let fixture = try SequenceFixture(spacing: spacing)
        var session: StoreSession? = StoreSession(store: try fixture.open(spacing: spacing))
        defer { if let store = session?.store { spreads?.add(store.rankStatistics) } }
        var model = try StoreModel.read(session!.store)
        for (index, step) in steps.enumerated() {
            switch step {
            case .restart:
                spreads?.add(session!.store.rankStatistics)
                session = nil  // the store closes with its last reference (the undo stack's actions hold it too)
                session = StoreSession(store: try fixture.open(spacing: spacing))
                model.restart()
            case .run(let step):
                let expected = model.run(step)
                let actual = session!.run(step)
                if actual != expected {
                    return "step \(index) (\(step)): the store answered \(actual), the model \(expected)"
                }
            }
            let store = session!.store
            if let difference = try model.difference(from: store) {
                return "after step \(index) (\(step)): \(difference)"
            }
            let problems = try store.integrityProblems()
            if !problems.isEmpty { return "after step \(index) (\(step)): \(problems)" }
            if readBack, let problem = try Self.readBack(store, model) {
                return "after step \(index) (\(step)): \(problem)"
            }
            try model.adoptDates(from: store)
        }
        return nil
    }

    /// Whether every collection reads the same by ids, by pages of 3 at an index (`LIMIT`/
    /// `OFFSET`) and by its first, middle and last items' slots as the model has it in order.
    static func readBack(_ store: ShowcaseStore, _ model: StoreModel) throws -> String? {
        for collection in model.collections {
            let ids = collection.items.compactMap(\.id)
            let read = try store.itemIDs(in: collection.id)
            if read != ids { return "collection \(collection.id): ids \(read), model \(ids)" }
            let paged = try stride(from: 0, through: ids.count, by: 3).flatMap {
                try store.items(in: collection.id, positions: $0..<($0 + 3)).compactMap(\.id)
            }
            if paged != ids { return "collection \(collection.id): read by pages \(paged), model \(ids)" }
            for index in Set([0, ids.count / 2, ids.count - 1]) where ids.indices.contains(index) {
                let id = ids[index]
                let slot = try store.slot(of: id)
                if slot != ItemSlot(collection: collection.id, position: index) {
                    return "item \(id): slot \(slot.map(\.description) ?? "none"), model \(collection.id)#\(index)"
                }
            }
        }
        return nil
    }

    // MARK: Sessions in a helper process, killed

    /// One run of the crash helper: its steps, and where it stops to be killed.
    struct CrashSession: CustomStringConvertible {
        var steps: [StoreStep]
        /// `change:K`, `commit:K`, `committed:K`, or `none` (killed `delay` after it is ready).
        var stop: String
        var delay: Duration = .zero

        var description: String {
            let at = stop == "none" ? "killed \(delay) after it opened the store" : "stopped at \(stop) and killed"
            return "[\(steps.map(\.description).joined(separator: "; "))], \(at)"
        }
    }

    /// What the crash test tried, for the report.
    struct CrashTally: CustomStringConvertible {
        var sessions = 0
        var steps = 0
        var insideTransaction = 0
        var beforeCommit = 0
        var afterCommit = 0
        var atRandomTime = 0
        var afterLastStep = 0
        var reopenedBefore = 0
        var reopenedAfter = 0

        var description: String {
            "\(sessions) sessions, \(steps) steps; killed inside a transaction after a row change \(insideTransaction), "
                + "about to commit \(beforeCommit), right after a commit \(afterCommit), at a random time \(atRandomTime), "
                + "after the last step \(afterLastStep); interrupted steps found undone \(reopenedBefore), done \(reopenedAfter)"
        }
    }

    /// Generates sessions as it plays them (each from the state the last crash left), and
    /// returns them with the first failure.
    static func playCrashes(seed: UInt64, sessions count: Int, tally: inout CrashTally) throws -> (
        [CrashSession], String?
    ) {
        let fixture = try SequenceFixture()
        var model = try StoreModel.read(fixture.open())
        var generator = StepGenerator(seed: seed, fixture: fixture)
        var sessions: [CrashSession] = []
        for _ in 0..<count {
            var steps: [StoreStep] = []
            var planned = model
            for _ in 0..<Int.random(in: 2...8, using: &generator.random) {
                let step = generator.next(planned)
                steps.append(step)
                _ = planned.run(step)
            }
            var session = CrashSession(steps: steps, stop: "none")
            switch Int.random(in: 0..<100, using: &generator.random) {
            case 0..<35: session.stop = "change:\(Int.random(in: 1...24, using: &generator.random))"
            case 35..<57:
                session.stop = "commit:\(Int.random(in: 1...max(1, steps.count / 2), using: &generator.random))"
            case 57..<80:
                session.stop = "committed:\(Int.random(in: 1...max(1, steps.count / 2), using: &generator.random))"
            default: session.delay = .microseconds(Int.random(in: 0...20_000, using: &generator.random))
            }
            sessions.append(session)
            if let failure = try playSession(
                session, number: sessions.count - 1, fixture: fixture, model: &model, tally: &tally)
            {
                return (sessions, failure)
            }
        }
        return (sessions, nil)
    }

    /// Plays recorded sessions again on a fresh fixture (for shrinking).
    static func replayCrashes(_ sessions: [CrashSession], tally: inout CrashTally) throws -> String? {
        let fixture = try SequenceFixture()
        var model = try StoreModel.read(fixture.open())
        for (number, session) in sessions.enumerated() {
            if let failure = try playSession(session, number: number, fixture: fixture, model: &model, tally: &tally) {
                return failure
            }
        }
        return nil
    }

    /// Runs one session in the helper, kills it, reopens the store and compares it with the
    /// model before and after the interrupted step; moves `model` to the state found.
    static func playSession(
        _ session: CrashSession, number: Int, fixture: SequenceFixture, model: inout StoreModel, tally: inout CrashTally
    ) throws -> String? {
        var states = [model]
        var outcomes: [StoreStepOutcome] = []
        for step in session.steps {
            var next = states.last!
            outcomes.append(next.run(step))
            states.append(next)
        }
        let script = fixture.directory.file("session-\(number).json")
        try JSONEncoder().encode(session.steps).write(to: script)
        let helper = try HelperProcess([fixture.path, "script", script.path, session.stop])

        var begun = -1
        var ended = -1
        var stopped: String?
        var finished = false
        func read(_ line: String) throws -> String? {
            guard let report = try? JSONDecoder().decode(StoreScriptReport.self, from: Data(line.utf8)) else {
                return "session \(number): the helper wrote \(line.debugDescription)"
            }
            switch report {
            case .ready: break
            case .begin(let index): begun = index
            case .end(let index, let outcome):
                ended = index
                if outcome != outcomes[index] {
                    return
                        "session \(number), step \(index) (\(session.steps[index])): the store answered \(outcome), the model \(outcomes[index])"
                }
            case .stopped(let place): stopped = place
            case .finished: finished = true
            }
            return nil
        }
        if session.stop == "none" {
            guard let first = try helper.nextLine() else {
                return "session \(number): the helper ended before opening the store"
            }
            if let failure = try read(first) { return failure }
            Thread.sleep(forTimeInterval: Double(session.delay.components.attoseconds) / 1e18)
            guard helper.kill() else { return "session \(number): the helper was not ended by SIGKILL" }
            while let line = try helper.nextLine() {
                if let failure = try read(line) { return failure }
            }
        } else {
            while stopped == nil, !finished {
                guard let line = try helper.nextLine() else {
                    return "session \(number): the helper ended before stopping"
                }
                if let failure = try read(line) { return failure }
            }
            guard helper.kill() else { return "session \(number): the helper was not ended by SIGKILL" }
        }

        tally.sessions += 1
        tally.steps += max(begun + 1, 0)
        if finished {
            tally.afterLastStep += 1
        } else if session.stop == "none" {
            tally.atRandomTime += 1
        } else if session.stop.hasPrefix("change:") {
            tally.insideTransaction += 1
        } else if session.stop.hasPrefix("commit:") {
            tally.beforeCommit += 1
        } else {
            tally.afterCommit += 1
        }

        // The candidates: before or after the interrupted step, or after the last one ended.
        let interrupted = begun > ended ? begun : nil
        let candidates =
            interrupted.map { [($0, states[$0]), ($0 + 1, states[$0 + 1])] } ?? [(ended + 1, states[ended + 1])]
        let store = try fixture.open()
        let problems = try store.integrityProblems()
        if !problems.isEmpty { return "session \(number) (\(session)): after the kill, \(problems)" }
        var differences: [String] = []
        for (index, candidate) in candidates {
            if let difference = try candidate.difference(from: store) {
                differences.append("as after \(index) steps: \(difference)")
                continue
            }
            if let interrupted {
                if index == interrupted { tally.reopenedBefore += 1 } else { tally.reopenedAfter += 1 }
            }
            model = candidate
            model.restart()
            try model.adoptDates(from: store)
            return nil
        }
        let place = interrupted.map { "during step \($0) (\(session.steps[$0]))" } ?? "after \(ended + 1) steps"
        return "session \(number) (\(session)), killed \(stopped ?? "") \(place): the reopened store is neither state. "
            + differences.joined(separator: "; ")
    }
}

// MARK: - Fixture and generator

/// A store on disk with one collection of each kind that matters: two plain lists, a read-only
/// list, a write-only drop box, a shared album, a home screen with a folder icon and its folder.
struct SequenceFixture {
    let directory: TemporaryDirectory
    let path: String
    let listA: CollectionID
    let listB: CollectionID
    let readOnly: CollectionID
    let writeOnly: CollectionID
    let shared: CollectionID
    let home: CollectionID
    let folder: CollectionID

    var collections: [CollectionID] { [listA, listB, readOnly, writeOnly, shared, home, folder] }

    init(spacing: RankSpacing = .standard) throws {
        directory = try TemporaryDirectory()
        path = directory.file("showcase.sqlite").path
        let store = try ShowcaseStore(path: path, seed: false, spacing: spacing)
        func make(
            _ pane: ShowcasePane, _ key: String, _ name: String, _ kind: CollectionKind, _ flags: CollectionFlags = []
        )
            throws -> CollectionID
        {
            try store.createCollection(ShowcaseCollection(pane: pane, key: key, name: name, kind: kind, flags: flags))
                .id!
        }
        listA = try make(.reminders, "errands", "Errands", .list)
        listB = try make(.reminders, "groceries", "Groceries", .list)
        readOnly = try make(.contacts, "directory", "Directory", .list, .readOnly)
        writeOnly = try make(.files, "drop-box", "Drop Box", .folder, .writeOnly)
        shared = try make(.photos, "stream", "Family Stream", .album, .shared)
        home = try make(.homeScreen, "page-1", "Home", .grid)
        folder = try make(.homeScreen, "folder-games", "Games", .folder)
        _ = try store.insert(
            ["Post letter", "Call Ana", "Book dentist", "Return books"].map {
                NewItem(title: $0, kind: .reminder, payload: Data($0.utf8))
            }, into: listA)
        _ = try store.insert(["Oat milk", "Lemons", "Rice"].map { NewItem(title: $0, kind: .reminder) }, into: listB)
        _ = try store.insert(
            [
                NewItem(title: "Clock", kind: .app), NewItem(title: "Maps", kind: .app),
                NewItem(title: "Games", kind: .folder, json: FolderPayload(opens: folder)),
            ], into: home)
        _ = try store.insert([NewItem(title: "Chess", kind: .app)], into: folder)
        // Read-only collections refuse inserts through the store; fill it directly.
        try store.database.write { db in
            for (position, name) in ["Ana Lima", "Bo Chen"].enumerated() {
                var row = ShowcaseItem(collectionId: readOnly, rank: Int64(position), title: name, kind: .contact)
                try row.insert(db)
            }
        }
    }

    /// Opens the store as the app does on start (giving ranks with `spacing`).
    func open(spacing: RankSpacing = .standard) throws -> ShowcaseStore {
        try ShowcaseStore(path: path, seed: false, spacing: spacing)
    }
}

/// Random steps, mostly sensible (existing items, real collections, indexes in range or just
/// past the end), sometimes not (a missing item or collection, an item named twice, a drop
/// on something that takes none), seeded.
struct StepGenerator {
    var random: SplitMix
    let fixture: SequenceFixture
    private var counter = 0

    init(seed: UInt64, fixture: SequenceFixture) {
        random = SplitMix(state: seed)
        self.fixture = fixture
    }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    mutating func next(_ model: StoreModel) -> StoreStep {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<16: return .move(items(model), to: collection(), at: index(model))
        case 16..<24: return .copy(items(model), to: collection(), at: index(model))
        case 24..<31: return .insert(newItems(1...3, model), into: collection(), at: index(model))
        case 31..<37: return .remove(items(model))
        case 37..<62:
            let own = chance(15) ? [] : items(model)
            let extra = newItems(own.isEmpty ? 1...2 : 0...2, model)
            return .drop(chance(70) ? .move : .copy, items: own, on: target(model), at: index(model), newItems: extra)
        case 62..<79: return .undo
        case 79..<93: return .redo
        default: return .stopSharing
        }
    }

    private mutating func items(_ model: StoreModel) -> [ItemID] {
        let all = model.allItemIDs
        var picked = Array(all.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
        if picked.isEmpty || chance(4) { picked.append(model.nextID + 7) }  // an item that does not exist
        if chance(3), let first = picked.first { picked.append(first) }  // named twice
        return picked
    }

    private mutating func collection() -> CollectionID {
        if chance(3) { return 999 }
        // The plain lists most often, every other kind regularly.
        let weighted = [fixture.listA, fixture.listA, fixture.listB, fixture.listB] + fixture.collections
        return weighted.randomElement(using: &random)!
    }

    private mutating func index(_ model: StoreModel) -> Int? {
        if chance(20) { return nil }
        return Int.random(in: 0...(model.count(fixture.listA) + 2), using: &random)
    }

    private mutating func target(_ model: StoreModel) -> String {
        let roll = Int.random(in: 0..<100, using: &random)
        if roll < 76 { return ShowcaseTargets.collection(collection()).rawValue }
        if roll < 92 {
            // A folder icon when there is one, else any item (which takes no drop).
            let icons = model.collections.flatMap { $0.items }.filter { $0.kind == .folder }.compactMap(\.id)
            let any = model.allItemIDs
            if let id = (icons.isEmpty ? any : icons).randomElement(using: &random) {
                return ShowcaseTargets.item(id).rawValue
            }
        }
        return roll < 96 ? "item-999999" : "window"
    }

    private mutating func newItems(_ count: ClosedRange<Int>, _ model: StoreModel) -> [NewItem] {
        (0..<Int.random(in: count, using: &random)).map { _ in
            counter += 1
            if chance(6) {
                let opens = [fixture.folder, fixture.listB, fixture.writeOnly].randomElement(using: &random)!
                return NewItem(title: "Folder \(counter)", kind: .folder, json: FolderPayload(opens: opens))
            }
            let kind: ItemKind = [.reminder, .photo, .note].randomElement(using: &random)!
            let payload =
                chance(50)
                ? nil
                : Data(
                    (0..<Int.random(in: 0...12, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
            return NewItem(title: "New \(counter)", kind: kind, payload: payload)
        }
    }
}

/// A small deterministic generator (SplitMix64), so a failure replays from its seed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Shortens a failing list while it still fails: removes chunks, halving their size down to
/// one element (delta debugging, simplified).
enum Shrinker {
    static func shrink<T>(_ list: [T], fails: ([T]) -> Bool) -> [T] {
        var list = list
        var chunk = max(1, list.count / 2)
        while true {
            var removedAny = false
            var start = 0
            while start < list.count {
                var candidate = list
                candidate.removeSubrange(start..<min(start + chunk, list.count))
                if fails(candidate) {
                    list = candidate
                    removedAny = true
                } else {
                    start += chunk
                }
            }
            if chunk == 1 && !removedAny { return list }
            if !removedAny { chunk = max(1, chunk / 2) }
        }
    }
}

extension StoreModel {
    /// The app was closed and opened again: the document stays, the undo stack is gone.
    mutating func restart() {
        undoSteps = []
        redoSteps = []
        cancellation = nil
    }
}

/// The spreads of the stores a sequence opened, added up.
final class SpreadCounter: CustomStringConvertible {
    private(set) var total = RankStatistics()
    var windows: Int { total.windows }
    func add(_ statistics: RankStatistics) { total += statistics }
    var description: String { total.description }
}
