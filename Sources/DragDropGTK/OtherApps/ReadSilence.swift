import CGtk4

/// The one rule every reader of another app's drop follows for a source that goes quiet
/// (``X11DropStream`` on X11, ``GdkDropStream`` elsewhere): a read that gets nothing for
/// ``seconds`` fails, and the person reads the same words whichever reader it was: "nothing
/// arrived from the other app for 15 seconds" (``GtkDragHost/otherAppReadTimeout``, the
/// showcase's `--transfer-timeout`).
///
/// A source that keeps sending, however slowly, is not silent: the destination's deadline
/// (``DropLoading/deadline``) ends it, and finishing the drop stops its reads.
@MainActor
final class ReadSilence {
    /// How long a read may wait for its next bytes.
    let seconds: Double
    private var timer: guint = 0

    init(seconds: Double) { self.seconds = seconds }

    /// Why a read that got nothing for `seconds` failed, as the end of a sentence.
    nonisolated static func reason(after seconds: Double) -> String {
        Localization.format(.nothingArrived, ["duration": .text(Localization.duration(seconds: seconds))])
    }

    /// Starts (or restarts) the wait: `expired` gets ``reason(after:)`` if ``disarm()`` is not
    /// called within ``seconds``.
    func arm(_ expired: @escaping @MainActor (_ reason: String) -> Void) {
        disarm()
        let seconds = self.seconds
        timer = GLibSource.once(afterMilliseconds: UInt32(max(1, seconds * 1000))) { [weak self] in
            self?.timer = 0
            expired(Self.reason(after: seconds))
        }
    }

    /// Ends the wait: something arrived, or the read is over.
    func disarm() {
        GLibSource.cancel(timer)
        timer = 0
    }

    isolated deinit { disarm() }
}
