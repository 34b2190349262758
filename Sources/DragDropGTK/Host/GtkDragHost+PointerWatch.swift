import CGtk4
import DragDrop

/// Where the pointer really is during one of this app's drags on X11.
///
/// GDK's X11 drag source sends the next `XdndPosition` only once the target answered the last
/// one, and forgets the pointer moves made meanwhile: it does not send the newest position when
/// the answer comes. When the loop was busy while the pointer moved (rows binding during an
/// autoscroll, a machine under load) and the pointer then rests, the drop side never hears where
/// it rests: autoscroll went on at the edge the pointer had left, and a button it rested on never
/// sprang open (seen in the All Mail test: 10 s of autoscroll after the pointer moved to Back).
///
/// So while such a drag is over a window of this app, the host asks X where the pointer is every
/// ``pointerWatchInterval`` and, when no drag-motion told the engine so, moves the engine there
/// itself (with the modifiers held now). A drop lands where the pointer was let go of, asked the
/// same way, rather than at the last position GDK passed on.
extension GtkDragHost {
    /// How often the pointer is checked during a drag: a tenth of a second, well under what a
    /// person notices and long enough that a pointer GDK follows never needs it.
    static let pointerWatchInterval: UInt32 = 100

    /// The last position of this app's drag the engine was told: by a drag-motion, or by the
    /// watch. Starts the watch on X11.
    func notePointer(window: TargetID, x: Double, y: Double) {
        pointerWatch.position = (window, x, y)
        pointerWatch.heardMotion = true
        guard !wayland.isWayland, pointerWatch.timer == 0 else { return }
        armPointerWatch()
    }

    private func armPointerWatch() {
        pointerWatch.timer = GLibSource.once(afterMilliseconds: Self.pointerWatchInterval) { [weak self] in
            guard let self else { return }
            self.pointerWatch.timer = 0
            guard self.engine.isDragging, self.gdkDrag != nil else {
                self.pointerWatch.position = nil
                return
            }
            // While motions keep coming GDK follows the pointer; a pointer that rests where GDK
            // lost it is found at the next look, within two intervals.
            if self.pointerWatch.heardMotion {
                self.pointerWatch.heardMotion = false
            } else {
                self.checkPointer()
            }
            self.armPointerWatch()
        }
    }

    /// Moves the engine to where the pointer is, when that is not where it was last told.
    /// Returns the position (window coordinates) it checked, or nil when X could not say.
    @discardableResult
    func checkPointer() -> (window: TargetID, x: Double, y: Double)? {
        guard !wayland.isWayland, let known = pointerWatch.position, let now = pointerPosition(in: known.window)
        else { return nil }
        guard abs(now.x - known.x) >= 1 || abs(now.y - known.y) >= 1, let origin = windowOrigins[known.window] else {
            return known
        }
        diagnose(
            "pointer watch: at (\(Int(now.x)), \(Int(now.y))) in \(known.window), the drag's last position was (\(Int(known.x)), \(Int(known.y)))"
        )
        pointerWatch.position = (known.window, now.x, now.y)
        feedback.recordPointer(window: known.window, x: now.x, y: now.y)
        let modifiers = currentModifiers()
        drive { engine.pointerMoved(to: Point(x: origin.x + now.x, y: origin.y + now.y), modifiers: modifiers) }
        return pointerWatch.position
    }

    /// The pointer's position relative to the registered window `window`'s widget, from X.
    private func pointerPosition(in window: TargetID) -> (x: Double, y: Double)? {
        guard let widget = registered[window]?.widget.widget, let native = gtk_widget_get_native(widget),
            let surface = gtk_native_get_surface(native), let pointer = DefaultSeat.pointer
        else { return nil }
        var x = 0.0
        var y = 0.0
        guard gdk_surface_get_device_position(surface, pointer, &x, &y, nil) != 0 else { return nil }
        // Surface coordinates to the window widget's (client-side decorations, shadows).
        var dx = 0.0
        var dy = 0.0
        gtk_native_get_surface_transform(native, &dx, &dy)
        let inWindow = (x: x - dx, y: y - dy)
        // Outside the window GDK's drag-leave says where the drag went (another window, app).
        guard inWindow.x >= 0, inWindow.y >= 0, inWindow.x < Double(gtk_widget_get_width(widget)),
            inWindow.y < Double(gtk_widget_get_height(widget))
        else { return nil }
        return inWindow
    }
}

/// The pointer watch's state (``GtkDragHost/notePointer(window:x:y:)``).
struct PointerWatch {
    var position: (window: TargetID, x: Double, y: Double)?
    var timer: guint = 0
    /// Whether a drag-motion told the engine where the pointer is since the watch last looked:
    /// GDK is following the pointer, and asking X (a round trip) can wait for the next look.
    var heardMotion = false
}
