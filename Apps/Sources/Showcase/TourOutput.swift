import DragDropTesting
import Glibc

/// The showcase's JSON lines in `--tour` mode, on standard output, one object per line:
///
/// - `{"t":…,"kind":"feedback","event":…}`: every engine feedback event (the timeline schema of
///   `docs/scenarios.md`).
/// - `{"kind":"state","pane":"reminders","lists":{…},"selected":{…},"undo":…,"redo":…}`: the
///   shown pane's content, after every change (read back from the store).
/// - `{"kind":"layout","pane":…,"window":[w,h],"surface":[x,y],"sidebar":{…},"buttons":{…},
///   "lists":{…},"rows":{…}}`: frames in window coordinates, after a paint changed them.
/// - `{"kind":"ready"}`: once, after the first complete layout.
/// - `{"kind":"status","text":…}`, `{"kind":"gtk","message":…}`: the status line and GTK-level
///   happenings.
@MainActor
final class TourOutput {
    private var last: [String: String] = [:]
    private var ready = false

    func emit(_ value: JSONValue) {
        let line = Array((value.serialized + "\n").utf8)
        var offset = 0
        while offset < line.count {
            let written = line[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            offset += written
        }
    }

    func emit(kind: String, _ fields: [(String, JSONValue)]) {
        emit(.object([("kind", .string(kind))] + fields))
    }

    /// Emits the line unless it equals the last line of this kind; returns whether it did.
    @discardableResult
    func emitDeduplicated(kind: String, _ fields: [(String, JSONValue)]) -> Bool {
        let value = JSONValue.object([("kind", .string(kind))] + fields)
        let text = value.serialized
        guard last[kind] != text else { return false }
        last[kind] = text
        emit(value)
        return true
    }

    func announceReadyOnce() {
        guard !ready else { return }
        ready = true
        emit(kind: "ready", [])
    }
}
