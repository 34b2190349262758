import CGtk4
import Glibc

/// Runs Swift concurrency's main actor inside GLib's main loop.
///
/// Under `g_application_run` nothing drains libdispatch's main queue, so `Task { @MainActor in … }`
/// never runs. libdispatch signals work for the main queue on an eventfd; this watches that fd
/// from GLib and drains the queue whenever it fires.
@MainActor
public enum GLibMainActorBridge {
    private static var sourceID: guint = 0

    /// Installs the bridge once; later calls do nothing.
    public static func install() {
        guard sourceID == 0 else { return }
        let fd = dd_dispatch_main_queue_fd()
        precondition(fd >= 0, "libdispatch did not expose its main-queue handle")
        sourceID = g_unix_fd_add(
            fd, G_IO_IN,
            { fd, _, _ in
                var counter: UInt64 = 0
                _ = read(fd, &counter, MemoryLayout<UInt64>.size)
                dd_dispatch_drain_main_queue()
                return gboolean(1)  // G_SOURCE_CONTINUE
            }, nil)
    }
}
