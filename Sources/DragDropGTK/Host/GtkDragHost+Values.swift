import CGtk4
import DragDrop

/// Where a value was dropped on a widget: its point in the widget's coordinates (the widget's
/// middle for a keyboard drop), and whether the person asked for a move or a copy.
public struct ValueDropLocation: Sendable, Hashable {
    /// The drop's point, in the widget's coordinates.
    public var point: Point
    /// The operation of the drop: `.copy`, or `.move` when the destination asked for moves.
    public var operation: DropOperation
}

/// Any widget of the app's own as a source or a destination of `Transferable` values: what
/// SwiftUI's `draggable(_:)` and `dropDestination(for:action:isTargeted:)` make of a view
/// (``GtkDragHost/draggable(_:name:kind:value:)``,
/// ``GtkDragHost/dropDestination(_:for:name:kind:policy:action:failed:isTargeted:)``).
///
/// It registers when its widget is placed in a window of the host, under the nearest
/// registered widget above it (the widget tree is the target tree), and lives as long as the
/// widget: nothing in the app needs to keep it. ``cancel()`` ends it early.
@MainActor
public final class WidgetDragAndDrop: GtkDragRegistering, GtkDragHostDelegate {
    /// The widget.
    public let widget: UnsafeMutablePointer<GtkWidget>
    /// The widget's target.
    public let id: TargetID
    private weak var host: GtkDragHost?
    private var name: String
    private var kind: Noun = .item
    private var source: Source?
    private var destination: Destination?
    private var ended = false

    private struct Source {
        var offers: [ContentType]
        var provider: @MainActor (AppID) -> ItemProvider?
    }

    private struct Destination {
        var accepts: [ContentType]
        var policy: OperationPolicy
        var perform: @MainActor (DropRequest, GtkDragHost, ValueDropLocation) -> DropResult
        var isTargeted: (@MainActor (Bool) -> Void)?
    }

    fileprivate init(widget: UnsafeMutablePointer<GtkWidget>, name: String, host: GtkDragHost) {
        self.widget = widget
        self.name = name
        self.host = host
        id = GtkDragHost.uniqueID(name)
    }

    /// Whether the widget takes part in drags now (registered, and not cancelled).
    public var isActive: Bool { !ended && host?.registered[id] != nil }

    /// Ends the widget's part in drags: it is unregistered and stays so, also when placed again.
    public func cancel() {
        ended = true
        if isRegistered { host?.unregister(id) }
    }

    private var isRegistered: Bool { host?.registered[id] != nil }

    /// Registers the widget under `parent` with what it gives and takes.
    public func register(in parent: TargetID) throws(GtkDragHostError) {
        guard let host, !ended else { return }
        var target = DragTarget(id: id, name: name, frame: .zero, parent: parent)
        target.kind = kind
        target.offers = source?.offers ?? []
        // A value dragged out of a widget is a copy of it: the widget still shows it after.
        target.isMovable = false
        target.accepts = destination?.accepts ?? []
        target.operationPolicy = destination?.policy ?? .automatic
        try host.register(widget, as: target, delegate: self)
    }

    /// Registers again with the roles changed, where the widget is registered already.
    private func rolesChanged() {
        guard let host, isRegistered, let parent = host.engine.registry.target(id)?.parent else { return }
        host.unregister(id)
        do { try register(in: parent) } catch { host.report(error) }
    }

    fileprivate func give<Value: Transferable>(_ value: @escaping @MainActor () -> Value?, name: String, kind: Noun) {
        self.name = name
        self.kind = kind
        source = Source(offers: Value.exportedContentTypes) { app in
            value().map { ItemProvider(app: app, value: $0, suggestedName: name) }
        }
        rolesChanged()
    }

    fileprivate func take<Value: Transferable>(
        _ type: Value.Type, policy: OperationPolicy,
        action: @escaping @MainActor ([Value], ValueDropLocation) -> Bool,
        failed: (@MainActor (TransferError) -> Void)?, isTargeted: (@MainActor (Bool) -> Void)?
    ) {
        let name = self.name
        destination = Destination(
            accepts: Value.importedContentTypes, policy: policy,
            perform: { drop, host, location in
                let data = drop.data
                let token = drop.token
                Task { @MainActor [weak host] in
                    let result: DropResult
                    do throws(TransferError) {
                        let values = try await data.values(Value.self)
                        result =
                            action(values, location)
                            ? .committed(undo: nil)
                            : .failed(DropFailure(.forbidden, WidgetText.valuesDeclined(by: name)))
                    } catch {
                        failed?(error)
                        result = .failed(error.dropFailure)
                    }
                    host?.completeDeferredDrop(token, with: result)
                }
                return .deferred(placeholders: drop.items.count)
            }, isTargeted: isTargeted)
        rolesChanged()
    }

    // MARK: GtkDragHostDelegate

    public func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        guard let destination else { return .failed(DropFailure(.forbidden, WidgetText.valuesDeclined(by: name))) }
        var point = Point(x: 0, y: 0)
        if let at = drop.point, let local = host.widgetPoint(at, inWidgetOf: id) {
            point = Point(x: local.x, y: local.y)
        } else {
            point = Point(
                x: Double(gtk_widget_get_width(widget)) / 2, y: Double(gtk_widget_get_height(widget)) / 2)
        }
        return destination.perform(drop, host, ValueDropLocation(point: point, operation: drop.operation))
    }

    public func dragHost(_ host: GtkDragHost, itemProviderFor item: TargetID) -> ItemProvider? {
        source?.provider(host.engine.app)
    }

    public func dragHost(_ host: GtkDragHost, destination: TargetID, isTargeted: Bool) {
        self.destination?.isTargeted?(isTargeted)
    }
}

extension GtkDragHost {
    /// The one ``WidgetDragAndDrop`` of `widget`, made on first use and owned by the widget.
    private func dragAndDrop(of widget: UnsafeMutablePointer<GtkWidget>, name: String) -> WidgetDragAndDrop {
        let key = "dragdrop-values"
        if let existing = g_object_get_data(UnsafeMutablePointer(OpaquePointer(widget)), key) {
            return Unmanaged<WidgetDragAndDrop>.fromOpaque(existing).takeUnretainedValue()
        }
        let made = WidgetDragAndDrop(widget: widget, name: name, host: self)
        g_object_set_data_full(
            UnsafeMutablePointer(OpaquePointer(widget)), key, Unmanaged.passRetained(made).toOpaque(),
            releaseSourceNotify)
        registerWhenPlaced(made)
        return made
    }

    /// Makes `widget` a drag source of the value `value()` gives when a drag starts on it (nil:
    /// nothing to drag now), as SwiftUI's `draggable(_:)`: dropped in this app, the value
    /// arrives as itself; other apps get its forms (`Transferable`), produced when they ask.
    /// A value dragged out of a widget is a copy. `name` is what announcements and the drag
    /// image's accessible text say; `kind` names the value in announcements.
    ///
    /// The widget takes part once it is placed in a window of this host, and for as long as it
    /// lives. Call it on a widget that is also a ``dropDestination(_:for:name:kind:policy:action:failed:isTargeted:)``
    /// to make it both.
    @discardableResult
    public func draggable<Value: Transferable>(
        _ widget: UnsafeMutablePointer<GtkWidget>, name: String, kind: Noun = .item,
        value: @escaping @MainActor () -> Value?
    ) -> WidgetDragAndDrop {
        let made = dragAndDrop(of: widget, name: name)
        made.give(value, name: name, kind: kind)
        return made
    }

    /// Makes `widget` take drops of `Value`s, as SwiftUI's `dropDestination(for:action:isTargeted:)`:
    /// `action` gets every dropped item as a `Value` and where it landed, after the drop (the
    /// data of another app is read first, with a placeholder), and returns whether it took them;
    /// false refuses the drop with the reason, and the source keeps everything. An item that
    /// cannot be read as a `Value` fails the drop with its typed error, given to `failed`, and
    /// `action` is not called (a drop takes all of its items or none). `isTargeted` hears
    /// when the widget becomes and stops being the drop's destination (it is highlighted too).
    /// `policy` as for any destination (S2): `.preferMove` takes values out of lists that let
    /// them go.
    @discardableResult
    public func dropDestination<Value: Transferable>(
        _ widget: UnsafeMutablePointer<GtkWidget>, for type: Value.Type, name: String, kind: Noun = .item,
        policy: OperationPolicy = .automatic,
        action: @escaping @MainActor (_ values: [Value], _ location: ValueDropLocation) -> Bool,
        failed: (@MainActor (TransferError) -> Void)? = nil,
        isTargeted: (@MainActor (Bool) -> Void)? = nil
    ) -> WidgetDragAndDrop {
        let made = dragAndDrop(of: widget, name: name)
        made.take(type, policy: policy, action: action, failed: failed, isTargeted: isTargeted)
        return made
    }
}
