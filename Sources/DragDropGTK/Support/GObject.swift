import CGtk4

/// A strong Swift reference to a GObject: takes a reference when created and drops it when
/// released.
///
/// Floating references (fresh widgets, fresh controllers) are sunk, so Swift owns the object
/// until it is handed to a parent; objects already owned elsewhere just gain a reference.
///
/// ```swift
/// let label = GObjectRef(gtk_label_new("Milk"))   // Swift owns the label
/// gtk_box_append(box, label.widget)              // the box holds its own reference too
/// ```
public final class GObjectRef {
    /// The object.
    public let raw: UnsafeMutableRawPointer

    /// Takes a reference to `object` (sinking a floating one). Returns nil for NULL.
    public convenience init?<T>(_ object: UnsafeMutablePointer<T>?) {
        guard let object else { return nil }
        self.init(raw: UnsafeMutableRawPointer(object))
    }

    /// Takes a reference to `object` (sinking a floating one). Returns nil for NULL.
    public convenience init?(_ object: OpaquePointer?) {
        guard let object else { return nil }
        self.init(raw: UnsafeMutableRawPointer(object))
    }

    /// Takes a reference to the object at `raw` (sinking a floating one).
    public init(raw: UnsafeMutableRawPointer) {
        self.raw = raw
        g_object_ref_sink(raw)
    }

    /// Adopts a reference the caller already owns (a `transfer full` return value) without
    /// adding one. Returns nil for NULL.
    public init?(adopting raw: UnsafeMutableRawPointer?) {
        guard let raw else { return nil }
        self.raw = raw
    }

    /// Owns a widget fresh from a GTK constructor (`gtk_label_new`...). GTK constructors never
    /// return NULL (GLib aborts when memory runs out), so NULL here is a programming error.
    public convenience init(newWidget widget: UnsafeMutablePointer<GtkWidget>?) {
        guard let widget else { preconditionFailure("a GTK widget constructor returned NULL") }
        self.init(raw: UnsafeMutableRawPointer(widget))
    }

    deinit { g_object_unref(raw) }

    /// The object as a `GtkWidget`.
    public var widget: UnsafeMutablePointer<GtkWidget> { raw.assumingMemoryBound(to: GtkWidget.self) }

    /// The object as a pointer to `T`.
    public func pointer<T>(to type: T.Type) -> UnsafeMutablePointer<T> { raw.assumingMemoryBound(to: type) }
}

/// Keeps a Swift closure alive for as long as GLib holds the `user_data` pointing at it.
final class CallbackBox<Body> {
    let body: Body
    init(_ body: Body) { self.body = body }

    /// A +1 pointer for `user_data`; released by ``releaseNotify``.
    var retainedPointer: UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }

    /// The box behind a `user_data` pointer, or nil when GLib passed NULL.
    static func from(_ data: UnsafeMutableRawPointer?) -> CallbackBox<Body>? {
        data.map { Unmanaged<CallbackBox<Body>>.fromOpaque($0).takeUnretainedValue() }
    }
}

/// The destroy notify of a signal handler: drops the box's reference.
let releaseClosureNotify: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

/// The destroy notify of a GLib source: drops the box's reference.
let releaseSourceNotify: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

/// Connects Swift closures to GObject signals.
///
/// Each closure is boxed and passed as `user_data`; the box lives until the handler is
/// disconnected or the object is finalized (GLib's destroy notify releases it). The C side
/// calls a non-capturing trampoline per signal signature, which enters the main actor (GTK
/// calls signal handlers on the main thread). Every pointer argument reaches the closure as
/// an optional: some signals pass NULL.
///
/// ```swift
/// GSignal.connect(button, "clicked") { print("clicked") }
/// ```
@MainActor
public enum GSignal {
    /// Signals of the form `void (*)(GObject *self, gpointer user_data)`: `activate`,
    /// `clicked`, `realize`, `selected-rows-changed`, `after-paint`...
    @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String, _ body: @escaping @MainActor () -> Void
    )
        -> gulong
    {
        let trampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
            guard let box = CallbackBox<@MainActor () -> Void>.from(data) else { return }
            MainActor.assumeIsolated { box.body() }
        }
        return attach(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), CallbackBox(body))
    }

    /// Signals with one pointer argument and no result: `drag-begin` (GdkDrag), `drag-leave`
    /// (GdkDrop).
    @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String,
        pointer body: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void
    ) -> gulong {
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, a, data in
            guard let box = CallbackBox<@MainActor (UnsafeMutableRawPointer?) -> Void>.from(data) else { return }
            let a = PointerBits(a)
            MainActor.assumeIsolated { box.body(a.pointer) }
        }
        return attach(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), CallbackBox(body))
    }

    /// Signals with one pointer argument returning a boolean: `GtkDropTargetAsync::accept`
    /// (GdkDrop).
    @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String,
        pointerReturningBool body: @escaping @MainActor (UnsafeMutableRawPointer?) -> Bool
    ) -> gulong {
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gboolean = { _, a, data in
            guard let box = CallbackBox<@MainActor (UnsafeMutableRawPointer?) -> Bool>.from(data) else { return 0 }
            let a = PointerBits(a)
            return MainActor.assumeIsolated { box.body(a.pointer) } ? 1 : 0
        }
        return attach(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), CallbackBox(body))
    }

    /// `GtkDragSource::drag-end`: `void (*)(self, GdkDrag *drag, gboolean delete_data, data)`.
    @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String,
        pointerBool body: @escaping @MainActor (UnsafeMutableRawPointer?, Bool) -> Void
    ) -> gulong {
        let trampoline: @convention(c) (gpointer?, gpointer?, gboolean, gpointer?) -> Void = { _, a, flag, data in
            guard let box = CallbackBox<@MainActor (UnsafeMutableRawPointer?, Bool) -> Void>.from(data) else { return }
            let a = PointerBits(a)
            MainActor.assumeIsolated { box.body(a.pointer, flag != 0) }
        }
        return attach(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), CallbackBox(body))
    }

    /// `GtkDragSource::drag-cancel`: `gboolean (*)(self, GdkDrag *drag, GdkDragCancelReason, data)`.
    @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String,
        pointerEnumReturningBool body: @escaping @MainActor (UnsafeMutableRawPointer?, UInt32) -> Bool
    ) -> gulong {
        let trampoline: @convention(c) (gpointer?, gpointer?, UInt32, gpointer?) -> gboolean = { _, a, value, data in
            guard let box = CallbackBox<@MainActor (UnsafeMutableRawPointer?, UInt32) -> Bool>.from(data) else {
                return 0
            }
            let a = PointerBits(a)
            return MainActor.assumeIsolated { box.body(a.pointer, value) } ? 1 : 0
        }
        return attach(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), CallbackBox(body))
    }

    /// `GtkDragSource::prepare`: `GdkContentProvider *(*)(self, double x, double y, data)`.
    /// The closure returns a provider the caller owns (transfer full), or nil to refuse.
    @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String,
        pointReturningPointer body: @escaping @MainActor (Double, Double) -> UnsafeMutableRawPointer?
    ) -> gulong {
        let trampoline: @convention(c) (gpointer?, Double, Double, gpointer?) -> gpointer? = { _, x, y, data in
            guard let box = CallbackBox<@MainActor (Double, Double) -> UnsafeMutableRawPointer?>.from(data) else {
                return nil
            }
            return MainActor.assumeIsolated { PointerBits(box.body(x, y)) }.pointer
        }
        return attach(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), CallbackBox(body))
    }

    /// `GtkDropTargetAsync::drag-enter` and `::drag-motion`:
    /// `GdkDragAction (*)(self, GdkDrop *drop, double x, double y, data)`.
    @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String,
        pointerPointReturningEnum body: @escaping @MainActor (UnsafeMutableRawPointer?, Double, Double) -> UInt32
    ) -> gulong {
        let trampoline: @convention(c) (gpointer?, gpointer?, Double, Double, gpointer?) -> UInt32 = {
            _, a, x, y, data in
            guard let box = CallbackBox<@MainActor (UnsafeMutableRawPointer?, Double, Double) -> UInt32>.from(data)
            else { return 0 }
            let a = PointerBits(a)
            return MainActor.assumeIsolated { box.body(a.pointer, x, y) }
        }
        return attach(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), CallbackBox(body))
    }

    /// `GtkDropTargetAsync::drop`: `gboolean (*)(self, GdkDrop *drop, double x, double y, data)`.
    @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String,
        pointerPointReturningBool body: @escaping @MainActor (UnsafeMutableRawPointer?, Double, Double) -> Bool
    ) -> gulong {
        let trampoline: @convention(c) (gpointer?, gpointer?, Double, Double, gpointer?) -> gboolean = {
            _, a, x, y, data in
            guard let box = CallbackBox<@MainActor (UnsafeMutableRawPointer?, Double, Double) -> Bool>.from(data)
            else { return 0 }
            let a = PointerBits(a)
            return MainActor.assumeIsolated { box.body(a.pointer, x, y) } ? 1 : 0
        }
        return attach(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), CallbackBox(body))
    }

    /// `GtkEventControllerKey::key-pressed`:
    /// `gboolean (*)(self, guint keyval, guint keycode, GdkModifierType state, data)`.
    @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String,
        key body: @escaping @MainActor (_ keyval: UInt32, _ keycode: UInt32, _ state: UInt32) -> Bool
    ) -> gulong {
        let trampoline: @convention(c) (gpointer?, UInt32, UInt32, UInt32, gpointer?) -> gboolean = {
            _, keyval, keycode, state, data in
            guard let box = CallbackBox<@MainActor (UInt32, UInt32, UInt32) -> Bool>.from(data) else { return 0 }
            return MainActor.assumeIsolated { box.body(keyval, keycode, state) } ? 1 : 0
        }
        return attach(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), CallbackBox(body))
    }

    /// Signals with one unsigned integer argument and no result: `GtkListView::activate` and
    /// `GtkGridView::activate` (the position).
    @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String, uint body: @escaping @MainActor (UInt32) -> Void
    ) -> gulong {
        let trampoline: @convention(c) (gpointer?, UInt32, gpointer?) -> Void = { _, value, data in
            guard let box = CallbackBox<@MainActor (UInt32) -> Void>.from(data) else { return }
            MainActor.assumeIsolated { box.body(value) }
        }
        return attach(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), CallbackBox(body))
    }

    /// Disconnects a handler; GLib then releases its closure.
    public static func disconnect(_ instance: UnsafeMutableRawPointer, _ handler: gulong) {
        g_signal_handler_disconnect(instance, handler)
    }

    private static func attach<Body>(
        _ instance: UnsafeMutableRawPointer, _ signal: String, _ callback: GCallback, _ box: CallbackBox<Body>
    ) -> gulong {
        dd_signal_connect(instance, signal, callback, box.retainedPointer, releaseClosureNotify)
    }
}

/// A pointer carried across `MainActor.assumeIsolated` as its bit pattern (raw pointers are not
/// `Sendable`; the pointee is only touched on the main thread, where GTK runs).
struct PointerBits: Sendable {
    let bits: UInt
    init(_ pointer: UnsafeMutableRawPointer?) { bits = UInt(bitPattern: pointer) }
    var pointer: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: bits) }
}
