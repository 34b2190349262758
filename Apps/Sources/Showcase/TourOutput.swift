import DriverProtocol

/// The showcase's lines in `--tour` mode, on standard output, one JSON object per line (the
/// types of DriverProtocol):
///
/// - ``FeedbackLine``: every engine feedback event (the timeline schema of `docs/scenarios.md`).
/// - ``StateLine``: the shown pane's content, after every change (read back from the store).
/// - ``LayoutLine``: frames in window coordinates, after a paint changed them.
/// - ``ControlsLine``: the visible controls and the HIG check, with every new layout.
/// - ``ReadyLine``: once, after the first complete layout.
/// - ``StatusLine``, ``GtkLine``, ``FocusLine``, ``MenuLine``, ``PickerLine``, ``LinkLine``,
///   ``CopiedLine``, ``SituationsLine``, ``StallLine``, ``LoopLine``: the status line, GTK-level
///   happenings, the keyboard focus, menus, and the main loop's health.
@MainActor
final class TourOutput {
    private let changes = ChangedLineWriter()
    private var ready = false

    func write<E: AppEvent>(_ event: E) { LineWriter.write(event) }

    /// Prints the line unless it equals the last line of its kind; returns whether it did.
    @discardableResult
    func writeIfChanged<E: AppEvent>(_ event: E) -> Bool { changes.write(event) }

    func announceReadyOnce() {
        guard !ready else { return }
        ready = true
        write(ReadyLine())
    }
}
