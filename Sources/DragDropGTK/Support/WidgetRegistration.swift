import DragDrop

/// Settings a widget reads when it registers (``DragListView/operationPolicy``,
/// ``DragGridView/operationPolicy``...) may change after it registered; the widget then
/// registers again with the new values, through this.
extension GtkDragHost {
    /// Runs `body` soon, outside any engine call, once no drag is running (a drag keeps its
    /// targets as they were when it started: `body` waits for its end, checking every 100 ms).
    /// Calls with the same `key` before `body` ran are coalesced.
    func whenNoDragRuns(key: AnyObject, _ body: @escaping @MainActor () -> Void) {
        scheduleUpdate(key: key) { [weak self] in
            guard let self else { return }
            if self.engine.isDragging || self.gdkDrag != nil {
                GLibSource.once(afterMilliseconds: 100) { [weak self] in self?.whenNoDragRuns(key: key, body) }
            } else {
                body()
            }
        }
    }
}

/// A key to coalesce one kind of deferred work under (``GtkDragHost/scheduleUpdate(key:_:)``,
/// ``GtkDragHost/whenNoDragRuns(key:_:)``): a widget's re-registration, its change
/// notification.
@MainActor
final class UpdateKey {}
