import DragDrop
import Foundation
import GRDB
import Synchronization

// Test hooks for the store's sequence and crash tests (Tests/ShowcaseModelTests): a session
// plays scripted steps on a store the way the showcase does (operations and drops registered on
// an undo stack like the engine's), so the same steps run in the test process and in the crash
// helper (`showcase-store-crash-helper`), which a test kills at random points.

/// One thing a person does to the showcase's documents.
@_spi(CrashTesting)
public enum StoreStep: Codable, Hashable, Sendable, CustomStringConvertible {
    /// How a drop handles the app's own items.
    public enum DropKind: String, Codable, Hashable, Sendable {
        case move, copy
    }

    /// ``ShowcaseStore/insert(_:into:at:)``, registered on the undo stack.
    case insert([NewItem], into: CollectionID, at: Int?)
    /// ``ShowcaseStore/move(_:to:at:)``, registered on the undo stack.
    case move([ItemID], to: CollectionID, at: Int?)
    /// ``ShowcaseStore/copy(_:to:at:)``, registered on the undo stack.
    case copy([ItemID], to: CollectionID, at: Int?)
    /// ``ShowcaseStore/remove(_:)`` (the Delete key), registered on the undo stack.
    case remove([ItemID])
    /// A drop through ``ShowcaseStore/perform(_:app:newItems:)``: the app's items (by id) and
    /// content from other apps, on a target (`collection-7`, or a folder icon `item-12`).
    case drop(DropKind, items: [ItemID], on: String, at: Int?, newItems: [NewItem])
    /// Edit ▸ Undo.
    case undo
    /// Edit ▸ Redo.
    case redo
    /// "Stop Sharing", offered by the last drop into a shared collection.
    case stopSharing

    public var description: String {
        func at(_ index: Int?) -> String { index.map { " at \($0)" } ?? " at the end" }
        func titles(_ items: [NewItem]) -> String { items.map { $0.title.debugDescription }.joined(separator: ", ") }
        switch self {
        case .insert(let items, let collection, let index):
            return "insert [\(titles(items))] into \(collection)\(at(index))"
        case .move(let ids, let collection, let index): return "move \(ids) to \(collection)\(at(index))"
        case .copy(let ids, let collection, let index): return "copy \(ids) to \(collection)\(at(index))"
        case .remove(let ids): return "remove \(ids)"
        case .drop(let kind, let ids, let target, let index, let newItems):
            let extra = newItems.isEmpty ? "" : " + new [\(titles(newItems))]"
            return "drop (\(kind.rawValue)) \(ids)\(extra) on \(target)\(at(index))"
        case .undo: return "undo"
        case .redo: return "redo"
        case .stopSharing: return "stop sharing"
        }
    }
}

/// What a step did, as the person would see it.
@_spi(CrashTesting)
public enum StoreStepOutcome: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The step committed (an undo or redo: it applied).
    case done
    /// The step was refused or failed and changed nothing; the message a person reads.
    case failed(String)
    /// Nothing to undo, redo or stop sharing.
    case nothing

    public var description: String {
        switch self {
        case .done: "done"
        case .failed(let message): "failed: \(message)"
        case .nothing: "nothing"
        }
    }
}

/// A line the crash helper writes on its standard output while it plays a script: one JSON
/// object per line, read back by the test.
@_spi(CrashTesting)
public enum StoreScriptReport: Codable, Hashable, Sendable {
    /// The store is open; the steps start.
    case ready
    /// Step `index` (from 0) starts.
    case begin(Int)
    /// Step `index` ended with `outcome`.
    case end(Int, StoreStepOutcome)
    /// The helper stopped where it was told to, and waits to be killed there.
    case stopped(String)
    /// Every step ran.
    case finished
}

/// A person's session with the showcase: scripted steps played on a store, with the undo
/// stack the engine keeps (operations and drops registered as the app registers them).
@_spi(CrashTesting)
public final class StoreSession {
    /// The store.
    public let store: ShowcaseStore
    /// The app's undo stack.
    public let undoStack = UndoStack()
    /// The app the session's own items belong to.
    public static let app: AppID = "Showcase"
    private var cancellation: DropCancellation?
    private let undoFailures = UndoFailures()

    /// The undo failures the store reports during one step.
    private final class UndoFailures: Sendable {
        let list = Mutex<[ShowcaseStoreError]>([])
    }

    /// A session on `store`; it takes the store's ``ShowcaseStore/onUndoFailure``.
    public init(store: ShowcaseStore) {
        self.store = store
        store.onUndoFailure = { [undoFailures] error in undoFailures.list.withLock { $0.append(error) } }
    }

    /// Plays `step` and says what it did.
    public func run(_ step: StoreStep) -> StoreStepOutcome {
        if step != .stopSharing { cancellation = nil }
        switch step {
        case .insert(let items, let collection, let index):
            return register { () throws(ShowcaseStoreError) in try store.insert(items, into: collection, at: index) }
        case .move(let ids, let collection, let index):
            return register { () throws(ShowcaseStoreError) in try store.move(ids, to: collection, at: index) }
        case .copy(let ids, let collection, let index):
            return register { () throws(ShowcaseStoreError) in try store.copy(ids, to: collection, at: index) }
        case .remove(let ids):
            return register { () throws(ShowcaseStoreError) in try store.remove(ids) }
        case .drop(let kind, let ids, let target, let index, let newItems):
            let operation: DropOperation = kind == .move ? .move : .copy
            let result = store.performDrop(operation, of: ids, on: TargetID(target), at: index, newItems: newItems)
            switch result {
            case .committed(let undo, let cancellation):
                // As the engine commits a drop: one named step, empty (so not pushed) when the
                // drop cannot be undone.
                undoStack.beginGroup(named: kind == .move ? "Move" : "Copy")
                if let undo { undoStack.register(undo) }
                undoStack.endGroup()
                self.cancellation = cancellation
                return .done
            case .failed(let failure):
                return .failed(failure.message)
            case .deferred:
                return .failed("The store deferred a drop.")
            }
        case .undo:
            guard undoStack.canUndo else { return .nothing }
            return reportingUndoFailures { undoStack.undo() }
        case .redo:
            guard undoStack.canRedo else { return .nothing }
            return reportingUndoFailures { undoStack.redo() }
        case .stopSharing:
            guard let cancellation else { return .nothing }
            self.cancellation = nil
            return reportingUndoFailures { cancellation.perform() }
        }
    }

    private func register(_ operation: () throws(ShowcaseStoreError) -> StoreEdit) -> StoreStepOutcome {
        do {
            let edit = try operation()
            undoStack.register(edit.action)
            undoStack.setActionName(edit.name)
            return .done
        } catch {
            return .failed(error.description)
        }
    }

    private func reportingUndoFailures(_ body: () -> Void) -> StoreStepOutcome {
        undoFailures.list.withLock { $0.removeAll() }
        body()
        let failures = undoFailures.list.withLock { $0 }
        return failures.first.map { .failed($0.description) } ?? .done
    }
}

/// Callbacks for every row change and commit of a store's database, for the crash helper to
/// stop at a chosen point. They run on the database's queue, inside SQLite's hooks: waiting
/// there keeps the transaction open (or, after a commit, the next one unstarted).
@_spi(CrashTesting)
public struct StoreTransactionHooks {
    /// After each row inserted, updated or deleted, inside its transaction.
    public var didChangeRow: () -> Void
    /// As a transaction that changed rows is about to commit.
    public var willCommit: () -> Void
    /// Right after such a transaction committed.
    public var didCommit: () -> Void

    /// Creates hooks.
    public init(didChangeRow: @escaping () -> Void, willCommit: @escaping () -> Void, didCommit: @escaping () -> Void) {
        self.didChangeRow = didChangeRow
        self.willCommit = willCommit
        self.didCommit = didCommit
    }
}

@_spi(CrashTesting)
extension ShowcaseStore {
    /// Calls `hooks` for every row change and commit from now on, as long as the store is open.
    public func addTransactionHooks(_ hooks: StoreTransactionHooks) {
        database.add(transactionObserver: HookObserver(hooks), extent: .databaseLifetime)
    }
}

/// Forwards GRDB's transaction events to ``StoreTransactionHooks``.
private final class HookObserver: TransactionObserver {
    let hooks: StoreTransactionHooks
    init(_ hooks: StoreTransactionHooks) { self.hooks = hooks }
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseDidChange(with event: DatabaseEvent) { hooks.didChangeRow() }
    func databaseWillCommit() throws { hooks.willCommit() }
    func databaseDidCommit(_ db: Database) { hooks.didCommit() }
    func databaseDidRollback(_ db: Database) {}
}
