import CGtk4

/// GLib main-loop sources (timeouts, idles, signals, file descriptors) running Swift closures
/// on the main actor. The closure is released when the source is removed.
@MainActor
public enum GLibSource {
    /// Runs `body` once after `milliseconds`. Returns the source id, for ``cancel(_:)``.
    @discardableResult
    public static func once(
        afterMilliseconds milliseconds: UInt32, priority: Int32 = 0, _ body: @escaping @MainActor () -> Void
    )
        -> guint
    {
        let box = CallbackBox(body)
        let trampoline: GSourceFunc = { data in
            guard let box = CallbackBox<@MainActor () -> Void>.from(data) else { return 0 }
            MainActor.assumeIsolated { box.body() }
            return 0  // G_SOURCE_REMOVE
        }
        return g_timeout_add_full(priority, milliseconds, trampoline, box.retainedPointer, releaseSourceNotify)
    }

    /// Runs `body` once when the loop is idle at `priority` (default: before GTK's layout and
    /// drawing, which run at `G_PRIORITY_HIGH_IDLE + 10` and `+ 20`).
    @discardableResult
    public static func idle(priority: Int32 = 100, _ body: @escaping @MainActor () -> Void) -> guint {
        let box = CallbackBox(body)
        let trampoline: GSourceFunc = { data in
            guard let box = CallbackBox<@MainActor () -> Void>.from(data) else { return 0 }
            MainActor.assumeIsolated { box.body() }
            return 0  // G_SOURCE_REMOVE
        }
        return g_idle_add_full(priority, trampoline, box.retainedPointer, releaseSourceNotify)
    }

    /// Runs `body` every time the process receives `signal` (SIGTERM, SIGINT, SIGHUP...).
    @discardableResult
    public static func onUnixSignal(_ signal: Int32, _ body: @escaping @MainActor () -> Void) -> guint {
        let box = CallbackBox(body)
        let trampoline: GSourceFunc = { data in
            guard let box = CallbackBox<@MainActor () -> Void>.from(data) else { return 0 }
            MainActor.assumeIsolated { box.body() }
            return 1  // G_SOURCE_CONTINUE
        }
        return g_unix_signal_add_full(0, signal, trampoline, box.retainedPointer, releaseSourceNotify)
    }

    /// Calls `body` whenever `fd` is readable or hung up; `body` returns false to stop watching.
    @discardableResult
    public static func watch(fd: Int32, _ body: @escaping @MainActor (_ fd: Int32) -> Bool) -> guint {
        let box = CallbackBox(body)
        let trampoline: GUnixFDSourceFunc = { fd, _, data in
            guard let box = CallbackBox<@MainActor (Int32) -> Bool>.from(data) else { return 0 }
            return MainActor.assumeIsolated { box.body(fd) } ? 1 : 0
        }
        let condition = GIOCondition(rawValue: G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue)
        return g_unix_fd_add_full(0, fd, condition, trampoline, box.retainedPointer, releaseSourceNotify)
    }

    /// Calls `body` once `fd` reaches its end (what arrives before is read and dropped): an
    /// app driven from outside quits when its driver closes its standard input.
    @discardableResult
    public static func onEndOfInput(fd: Int32 = 0, _ body: @escaping @MainActor () -> Void) -> guint {
        watch(fd: fd) { fd in
            var buffer = [UInt8](repeating: 0, count: 512)
            guard read(fd, &buffer, buffer.count) <= 0 else { return true }
            body()
            return false
        }
    }

    /// Removes a source that has not fired yet (its closure is released).
    public static func cancel(_ id: guint) {
        guard id != 0 else { return }
        g_source_remove(id)
    }
}
