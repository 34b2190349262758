import CGtk4
import DragDrop

#if canImport(Glibc)
    import Glibc
#endif

/// A widget object that can register its targets under a parent target: a list, an entry, a
/// control. Created without an identifier, such a widget registers itself when it is placed in
/// a window (``GtkDragHost/registerWhenPlaced(_:)``).
@MainActor
public protocol GtkDragRegistering: AnyObject {
    /// The widget added to the window.
    var widget: UnsafeMutablePointer<GtkWidget> { get }
    /// The target the widget registers as.
    var id: TargetID { get }
    /// Registers the widget's targets under `parent`.
    func register(in parent: TargetID) throws(GtkDragHostError)
}

/// The widget tree is the target tree: a widget placed in a window registers under the nearest
/// registered widget above it, and taking it out of the window unregisters it.
extension GtkDragHost {
    /// An identifier no other target of this process has, for a widget created without one:
    /// `hint` (the widget's title, for logs) and a number.
    public static func uniqueID(_ hint: String) -> TargetID {
        nextUniqueID += 1
        return TargetID("\(hint)#\(nextUniqueID)")
    }

    /// From now on, `object` registers itself (``GtkDragRegistering/register(in:)``) each time
    /// its widget is placed in a window of this host, under the nearest registered widget above
    /// it (a ``DragScrollView``, a ``PagedView``'s page, else the window), and is unregistered
    /// when its widget leaves the window. What is placed together registers parents first.
    /// Registration runs soon after the placement, outside GTK's signal; a registration that fails
    /// is reported on standard error and through ``onDiagnostic``.
    ///
    /// Widgets of this library call it when created without an identifier, so an app only adds
    /// them to its window. A widget the app registers itself before then is left as it is.
    public func registerWhenPlaced(_ object: some GtkDragRegistering) {
        let key = PointerBits(UnsafeMutableRawPointer(object.widget))
        placing.watched[key.bits] = WeakRegistering(object)
        GSignal.connect(
            UnsafeMutableRawPointer(object.widget), "notify::root",
            pointer: { [weak self, weak object] _ in
                guard let self, let object else { return }
                self.rootChanged(of: object)
            })
        if gtk_widget_get_root(object.widget) != nil { rootChanged(of: object) }
    }

    private func rootChanged(of object: any GtkDragRegistering) {
        let key = PointerBits(UnsafeMutableRawPointer(object.widget)).bits
        if gtk_widget_get_root(object.widget) == nil {
            placing.pending[key] = nil
            guard placing.placedByHost.remove(object.id) != nil, registered[object.id] != nil else { return }
            diagnose("unplaced \(object.id.rawValue)")
            unregister(object.id)
            return
        }
        // Held until placed: an app's local variable may be gone by then.
        placing.pending[key] = object
        scheduleUpdate(key: placing) { [weak self] in self?.placePending() }
    }

    /// Registers every widget placed since the last pass, parents first.
    private func placePending() {
        let batch = placing.pending
        placing.pending = [:]
        guard !batch.isEmpty else { return }
        var byWidget: [UInt: TargetID] = [:]
        for (id, entry) in registered { byWidget[PointerBits(entry.widget.raw).bits] = id }
        var visiting: Set<UInt> = []
        func place(_ object: any GtkDragRegistering) -> TargetID? {
            let key = PointerBits(UnsafeMutableRawPointer(object.widget)).bits
            if let id = byWidget[key] { return id }
            guard gtk_widget_get_root(object.widget) != nil, visiting.insert(key).inserted else { return nil }
            // The nearest registered widget above, placing a watched one on the way first.
            var parent: TargetID?
            var current = gtk_widget_get_parent(object.widget)
            while let widget = current, parent == nil {
                let bits = PointerBits(UnsafeMutableRawPointer(widget)).bits
                if let id = byWidget[bits] {
                    parent = id
                } else if let above = batch[bits] ?? placing.watched[bits]?.object {
                    parent = place(above)
                }
                current = gtk_widget_get_parent(widget)
            }
            guard let parent else { return nil }  // a window this host does not manage
            do {
                try object.register(in: parent)
            } catch {
                let line = "DragDrop: could not register \(object.id.rawValue) under \(parent.rawValue): \(error)\n"
                _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
                report(error)
                return nil
            }
            placing.placedByHost.insert(object.id)
            byWidget[key] = object.id
            diagnose("placed \(object.id.rawValue) in \(parent.rawValue)")
            return object.id
        }
        for object in batch.values { _ = place(object) }
    }
}

/// What ``GtkDragHost/registerWhenPlaced(_:)`` keeps.
@MainActor
final class Placements {
    /// Every watched widget object, by its widget's address.
    var watched: [UInt: WeakRegistering] = [:]
    /// Placed in a window since the last pass.
    var pending: [UInt: any GtkDragRegistering] = [:]
    /// Targets registered by a placement (and unregistered when their widget leaves).
    var placedByHost: Set<TargetID> = []
}

@MainActor
struct WeakRegistering {
    weak var object: (any GtkDragRegistering)?
    init(_ object: any GtkDragRegistering) { self.object = object }
}

/// A registration owned by a Swift value (``GtkDragHost/attach(_:as:delegate:)``): the target
/// stays registered while this object lives, and is unregistered when it is released or
/// cancelled, or its window closes, whichever comes first.
@MainActor
public final class DragRegistration {
    /// The registered target.
    public let id: TargetID
    private weak var host: GtkDragHost?
    /// The widget registered, to tell a later registration of the same identifier from this one.
    private let widget: UInt

    init(id: TargetID, host: GtkDragHost, widget: UnsafeMutablePointer<GtkWidget>) {
        self.id = id
        self.host = host
        self.widget = PointerBits(UnsafeMutableRawPointer(widget)).bits
    }

    /// Whether the target is still registered by this registration.
    public var isActive: Bool {
        guard let entry = host?.registered[id] else { return false }
        return PointerBits(entry.widget.raw).bits == widget
    }

    /// Unregisters the target (and its descendants) now.
    public func cancel() {
        guard isActive else { return }
        host?.unregister(id)
    }

    isolated deinit { cancel() }
}

extension GtkDragHost {
    /// Registers `widget` as `target` as ``register(_:as:delegate:)`` does, and returns the
    /// registration: keep it, and the target stays registered until you release it (or call
    /// ``DragRegistration/cancel()``), or its window closes. For a widget of your own whose
    /// drags should end with a Swift value's life (a cell, a popover).
    public func attach(
        _ widget: UnsafeMutablePointer<GtkWidget>, as target: DragTarget, delegate: (any GtkDragHostDelegate)?
    ) throws(GtkDragHostError) -> DragRegistration {
        try register(widget, as: target, delegate: delegate)
        return DragRegistration(id: target.id, host: self, widget: widget)
    }
}
