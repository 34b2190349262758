import CGtk4
import DragDrop

/// Autoscroll of registered `GtkScrolledWindow`s (A1) and the engine's view of which widgets
/// are on screen.
extension GtkDragHost {
    /// Scrolls a registered `GtkScrolledWindow` by `delta` (clamped to its content) and moves the
    /// frames of everything inside it by the offset applied, so the rows under the pointer are
    /// the ones on screen. Returns the offset applied.
    public func dragEngine(_ engine: DragEngine, scroll container: TargetID, by delta: Vector) -> Vector {
        if let applied = delegate(of: container)?.dragHost(self, scroll: container, by: delta) { return applied }
        guard let widget = widget(for: container), dd_is_scrolled_window(UnsafeMutableRawPointer(widget)) != 0 else {
            return .zero
        }
        let scrolled = dd_scrolled_window(UnsafeMutableRawPointer(widget))
        let applied = Vector(
            dx: Self.scroll(gtk_scrolled_window_get_hadjustment(scrolled), by: delta.dx),
            dy: Self.scroll(gtk_scrolled_window_get_vadjustment(scrolled), by: delta.dy))
        guard !applied.isZero else { return .zero }
        // Frames stay frozen during a drag (rows making room must not move the insertion
        // point); scrolling moves the content for real, so its frames follow exactly.
        do { try engine.offsetDescendants(of: container, by: Vector(dx: -applied.dx, dy: -applied.dy)) } catch {
            report(error)
        }
        return applied
    }

    /// Moves `adjustment` by `delta` within its range; returns how far it moved.
    private static func scroll(_ adjustment: UnsafeMutablePointer<GtkAdjustment>?, by delta: Double) -> Double {
        guard let adjustment, delta != 0 else { return 0 }
        let value = gtk_adjustment_get_value(adjustment)
        let highest = max(
            gtk_adjustment_get_lower(adjustment),
            gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment))
        let target = min(max(gtk_adjustment_get_lower(adjustment), value + delta), highest)
        guard target != value else { return 0 }
        gtk_adjustment_set_value(adjustment, target)
        return gtk_adjustment_get_value(adjustment) - value
    }

    /// Tells the engine which registered widgets are on screen: a page of a `GtkStack` switched
    /// by a spring-loaded control, a hidden pane. Runs after every paint, also during drags;
    /// targets that appear during a drag get their frames at once (their frames were never
    /// laid out), and a drag whose source disappeared evaporates if it fails (F7).
    func syncVisibility() {
        var appeared: [TargetID] = []
        var changed = false
        // Runs after every frame: the engine's registry is read only for a widget whose mapped
        // state changed since it was last told (a registered widget is hidden only here).
        for (id, entry) in registered where id != entry.window {
            let mapped = gtk_widget_get_mapped(entry.widget.widget) != 0
            if entry.mapped == mapped { continue }
            guard let target = engine.registry.target(id) else { continue }
            registered[id]?.mapped = mapped
            guard target.isHidden == mapped else { continue }
            do { try engine.setHidden(!mapped, for: id) } catch { report(error) }
            changed = true
            if mapped { appeared.append(id) }
        }
        guard changed else { return }
        if framesFrozen, !appeared.isEmpty {
            let roots = Set(appeared)
            for (id, entry) in registered
            where roots.contains(id) || engine.registry.ancestors(of: id).contains(where: roots.contains) {
                guard let frame = frame(of: entry, id: id) else { continue }
                do { try engine.setFrame(frame, for: id) } catch { report(error) }
            }
            onFramesChanged?()
        }
        reschedule()
    }
}
