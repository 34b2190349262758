import CGtk4
import DragDrop
import Foundation

/// A horizontal track and thumb between a minimum and a maximum, the track filled from the
/// minimum to the value, with optional icons at both ends: a small image for the minimum and a
/// large one for the maximum (K9). Not for audio volume, which needs a volume view.
///
/// - The keyboard steps it (arrows by ``step``, Page Up and Page Down by ten steps, Home and
///   End to the ends), and it is named for assistive technology (K12).
/// - Dragging the thumb only moves the value: the slider claims the pointer, so a drag source
///   around it (a draggable row) never starts a content drag from the thumb.
/// - Content dropped on it is refused with a reason: it is a destination for every type with a
///   forbidden policy, so a drag over it shows the not-allowed badge and says why.
/// - With ``undoName`` set, a person's changes are undo steps on the engine's stack: one step
///   per adjustment ("Undo Change Brightness"), however many pixels or key presses it took.
///
/// ```swift
/// let brightness = try Slider(
///     id: "brightness", name: "Brightness", range: 0...100, value: 70,
///     minimumIcon: "display-brightness-symbolic", maximumIcon: "display-brightness-symbolic", host: host)
/// brightness.undoName = "Change Brightness"
/// brightness.onChange = { value in settings.brightness = value }
/// gtk_box_append(row, brightness.widget)
/// try brightness.register(in: "main")
/// ```
@MainActor
public final class Slider: GtkDragRegistering {
    /// The target identifier (a destination that refuses every drop).
    public let id: TargetID
    /// The accessible name ("Brightness").
    public let name: String
    /// The minimum and maximum.
    public let range: ClosedRange<Double>
    /// How far one arrow key moves the value.
    public let step: Double
    /// The value now.
    public private(set) var value: Double
    /// The undo step's name for a person's changes ("Change Brightness"); nil: no undo steps.
    public var undoName: String?
    /// Called after every change of the value: a person's, an undo's or a redo's (not the
    /// app's own ``setValue(_:)``).
    public var onChange: (@MainActor (Double) -> Void)?

    private unowned let host: GtkDragHost
    private let root: GObjectRef
    private let scale: GObjectRef
    private var programmatic = 0
    /// The adjustment still growing: its undo step and when it last changed.
    private var burst: (box: SliderStepBox, undoCount: Int, last: Date)?

    /// The widget (icons and scale), to put in a window.
    public var widget: UnsafeMutablePointer<GtkWidget> { root.widget }
    /// The `GtkScale` inside.
    public var scaleWidget: UnsafeMutablePointer<GtkWidget> { scale.widget }

    /// Creates a slider. `minimumIcon` and `maximumIcon` are icon names, shown small and large.
    /// Throws ``ControlError/invalidRange(minimum:maximum:)`` when the range or step is unusable.
    public init(
        id: TargetID? = nil, name: String, range: ClosedRange<Double>, value: Double, step: Double = 1,
        minimumIcon: String? = nil, maximumIcon: String? = nil, host: GtkDragHost
    ) throws(ControlError) {
        guard range.lowerBound < range.upperBound, step > 0, range.lowerBound.isFinite, range.upperBound.isFinite
        else { throw .invalidRange(minimum: range.lowerBound, maximum: range.upperBound) }
        guard !name.isEmpty else { throw .emptyTitle }
        self.id = id ?? GtkDragHost.uniqueID(name)
        self.name = name
        self.range = range
        self.step = step
        self.host = host
        self.value = min(max(value, range.lowerBound), range.upperBound)
        root = GObjectRef(newWidget: gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8))
        scale = GObjectRef(
            newWidget: gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, range.lowerBound, range.upperBound, step))
        gtk_widget_add_css_class(root.widget, "dd-slider")
        gtk_scale_set_draw_value(dd_scale(scale.raw), 0)
        gtk_scale_set_has_origin(dd_scale(scale.raw), 1)  // the track fills from the minimum
        gtk_range_set_increments(dd_range(scale.raw), step, step * 10)
        gtk_range_set_value(dd_range(scale.raw), self.value)
        gtk_widget_set_hexpand(scale.widget, 1)
        gtk_widget_set_valign(root.widget, GTK_ALIGN_CENTER)
        dd_accessible_set_label(dd_accessible(scale.raw), name)
        if let minimumIcon { gtk_box_append(dd_box(root.raw), Self.icon(minimumIcon, size: 14, role: "minimum")) }
        gtk_box_append(dd_box(root.raw), scale.widget)
        if let maximumIcon { gtk_box_append(dd_box(root.raw), Self.icon(maximumIcon, size: 24, role: "maximum")) }
        ControlStyles.install(for: root.widget)
        GSignal.connect(scale.raw, "value-changed") { [weak self] in self?.changedByPerson() }
        if id == nil { host.registerWhenPlaced(self) }
    }

    /// Sets the value as the app's own change (a saved setting): no undo step, no ``onChange``.
    public func setValue(_ newValue: Double) {
        programmatic += 1
        value = min(max(newValue, range.lowerBound), range.upperBound)
        gtk_range_set_value(dd_range(scale.raw), value)
        programmatic -= 1
    }

    /// Registers the slider inside the registered target `parent` as a destination that
    /// refuses every drop and says why (a slider takes no content).
    public func register(in parent: TargetID) throws(GtkDragHostError) {
        var target = DragTarget(id: id, name: name, frame: .zero, parent: parent)
        target.accepts = [.anything]
        target.operationPolicy = .forbidden(reason: WidgetText.takesNoContent(name))
        try host.register(scale.widget, as: target, delegate: self)
    }

    private static func icon(_ name: String, size: Int32, role: String) -> UnsafeMutablePointer<GtkWidget> {
        let image = gtk_image_new_from_icon_name(name)!
        gtk_image_set_pixel_size(OpaquePointer(image), size)
        gtk_widget_add_css_class(image, "dd-slider-icon")
        gtk_widget_add_css_class(image, "dd-slider-\(role)")
        // Decoration: the slider's name says what it adjusts.
        dd_accessible_set_hidden(dd_accessible(UnsafeMutableRawPointer(image)), 1)
        return image
    }

    /// A person moved the thumb or pressed a key: one undo step per adjustment (a burst of
    /// changes with less than 0.8 s between them, while it is the newest step).
    private func changedByPerson() {
        let now = gtk_range_get_value(dd_range(scale.raw))
        guard programmatic == 0, now != value else { return }
        let before = value
        value = now
        defer { onChange?(now) }
        guard let undoName else { return }
        let stack = host.engine.undoStack(for: id)
        if let burst, burst.undoCount == stack.undoCount, stack.undoActionName == undoName, !stack.canRedo,
            Date().timeIntervalSince(burst.last) < 0.8
        {
            burst.box.after = now
            self.burst?.last = Date()
            return
        }
        let box = SliderStepBox(after: now)
        host.registerEdit(
            undoName, in: id, undo: { [weak self] in self?.restore(before) },
            redo: { [weak self] in self?.restore(box.after) })
        burst = (box, stack.undoCount, Date())
    }

    private func restore(_ restored: Double) {
        setValue(restored)
        burst = nil
        onChange?(restored)
    }
}

extension Slider: GtkDragHostDelegate {
    public func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        .failed(DropFailure(.forbidden, WidgetText.takesNoContent(name)))
    }
}

/// A slider adjustment's latest value.
final class SliderStepBox {
    var after: Double
    init(after: Double) { self.after = after }
}
