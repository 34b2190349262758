import CGtk4

/// An animation driven by a widget's frame clock (`gtk_widget_add_tick_callback`): `step` gets
/// the progress in 0...1 on every frame, and `finished` runs once after the last one.
@MainActor
enum FrameAnimation {
    private final class State {
        let duration: Double
        let step: @MainActor (Double) -> Void
        let finished: @MainActor () -> Void
        var start: gint64?
        init(duration: Double, step: @escaping @MainActor (Double) -> Void, finished: @escaping @MainActor () -> Void) {
            self.duration = duration
            self.step = step
            self.finished = finished
        }
    }

    /// Runs `step` on every frame of `widget` for `seconds`, then `finished`.
    static func run(
        on widget: UnsafeMutablePointer<GtkWidget>, seconds: Double, step: @escaping @MainActor (Double) -> Void,
        finished: @escaping @MainActor () -> Void
    ) {
        let box = CallbackBox(State(duration: max(0.001, seconds), step: step, finished: finished))
        let tick: GtkTickCallback = { _, clock, data in
            guard let state = CallbackBox<State>.from(data)?.body, let clock else { return 0 }
            let now = gdk_frame_clock_get_frame_time(clock)
            return MainActor.assumeIsolated {
                let start = state.start ?? now
                state.start = start
                let progress = min(1, Double(now - start) / 1_000_000 / state.duration)
                state.step(progress)
                guard progress >= 1 else { return 1 }  // G_SOURCE_CONTINUE
                state.finished()
                return 0
            }
        }
        gtk_widget_add_tick_callback(widget, tick, box.retainedPointer, releaseSourceNotify)
    }

    /// Runs `body` at the start of each of `widget`'s frames (before GTK lays it out) while it
    /// returns true; returns the callback's id, for `gtk_widget_remove_tick_callback`.
    @discardableResult
    static func everyFrame(on widget: UnsafeMutablePointer<GtkWidget>, _ body: @escaping @MainActor () -> Bool) -> guint {
        let box = CallbackBox(body)
        let tick: GtkTickCallback = { _, _, data in
            guard let box = CallbackBox<@MainActor () -> Bool>.from(data) else { return 0 }
            return MainActor.assumeIsolated { box.body() } ? 1 : 0
        }
        return gtk_widget_add_tick_callback(widget, tick, box.retainedPointer, releaseSourceNotify)
    }
}
