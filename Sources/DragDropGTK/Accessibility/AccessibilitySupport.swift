import CGtk4
import DragDrop

/// Accessibility (one of the host's collaborators, see ``GtkDragHost``): accessible names on
/// registered widgets, and announcements (C4) shown in status lines and spoken to screen
/// readers through the focused widget's accessible description.
@MainActor
final class AccessibilitySupport: GtkDragHostCollaborator {
    private unowned let host: GtkDragHost
    /// The status lines announcements are shown in.
    private var labels: [WeakAnnouncementLabel] = []
    /// The last announcement, engine's or host's.
    private(set) var lastAnnouncement: String?
    /// Speaks announcements through the focused widget's accessible description (GTK 4.8);
    /// the host gives it the focused widget.
    private var speaker: FocusDescriptionAnnouncer?

    init(host: GtkDragHost) { self.host = host }

    /// See ``GtkDragHost/addAnnouncementLabel(_:)``.
    func addLabel(_ label: GtkAnnouncementLabel) {
        labels.removeAll { $0.label == nil || $0.label === label }
        labels.append(WeakAnnouncementLabel(label: label))
        if let sentence = lastAnnouncement { label.show(sentence) }
    }

    /// See ``GtkDragHost/announce(_:)``.
    func announce(_ sentence: String) {
        lastAnnouncement = sentence
        labels.removeAll { $0.label == nil }
        for entry in labels { entry.label?.show(sentence) }
        if speaker == nil {
            speaker = FocusDescriptionAnnouncer { [weak self] in self?.accessibleFocus() ?? .none }
        }
        speaker?.announce(sentence)
    }

    /// Announcements the engine makes are shown and spoken.
    func engineEmitted(_ event: FeedbackEvent) {
        if case .announcement(let sentence) = event { announce(sentence.text) }
    }

    /// The widget a screen reader follows: the focus of the active window, or of the first
    /// window when none is active. When nothing in the window has the focus (a pointer drag
    /// from a row, which a press does not focus), the dragged item takes it, so a screen reader
    /// follows the drag from there; failing that, the window itself.
    private func accessibleFocus() -> AccessibleFocus {
        let windows = host.registered.filter { $0.key == $0.value.window }.map {
            (id: $0.key, widget: $0.value.widget.widget)
        }
        let active = windows.first { gtk_window_is_active(dd_window(UnsafeMutableRawPointer($0.widget))) != 0 }
        guard let (id, window) = active ?? windows.first else { return .none }
        guard let focus = gtk_window_get_focus(dd_window(UnsafeMutableRawPointer(window))) else {
            if let item = host.engine.currentSession?.items.first, let entry = host.registered[item.id],
                entry.window == id, gtk_widget_grab_focus(entry.widget.widget) != 0
            {
                return .unsettled  // speaks once GTK reported the new focus
            }
            return .widget(window)
        }
        // A focused row the drop removed stays the window's focus until GTK moves it.
        let root = gtk_widget_get_root(focus).map { UnsafeMutableRawPointer($0) }
        return root == UnsafeMutableRawPointer(window) && gtk_widget_get_realized(focus) != 0
            ? .widget(focus) : .unsettled
    }

    /// Gives a widget that held an announcement its own description back once the focus left
    /// it (called when a window's focus widget changes).
    func focusChanged(in window: UnsafeMutablePointer<GtkWidget>) {
        speaker?.focusMoved(to: gtk_window_get_focus(dd_window(UnsafeMutableRawPointer(window))))
    }

    /// Gives a registered widget its target's name as accessible label; drag sources also get
    /// the pick-up shortcut and, unless they have one, a description of keyboard dragging.
    func setAccessibleName(of widget: UnsafeMutablePointer<GtkWidget>, for target: DragTarget) {
        let accessible = dd_accessible(UnsafeMutableRawPointer(widget))
        dd_accessible_set_string(accessible, GTK_ACCESSIBLE_PROPERTY_LABEL, target.name)
        guard target.isSource else { return }
        dd_accessible_set_string(accessible, GTK_ACCESSIBLE_PROPERTY_KEY_SHORTCUTS, "Control+Shift+D")
        if gtk_test_accessible_has_property(accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION) == 0 {
            dd_accessible_set_string(
                accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, GtkDragHost.sourceAccessibleDescription)
        }
    }
}

/// Accessibility's public face on the host.
extension GtkDragHost {
    /// The description given to drag sources that have none: how to drag them from the keyboard,
    /// in the person's language ("Press Control+Shift+D to pick up, Tab to choose a drop point,
    /// Return to drop, Escape to cancel.").
    public nonisolated static var sourceAccessibleDescription: String { WidgetText.keyboardDragHelp }

    /// Adds a status line that shows every announcement (C4). The host holds it weakly; keep
    /// it in your widget tree.
    public func addAnnouncementLabel(_ label: GtkAnnouncementLabel) { accessibility.addLabel(label) }

    /// The last sentence announced (by the engine or with ``announce(_:)``).
    public var lastAnnouncement: String? { accessibility.lastAnnouncement }

    /// Announces `sentence` as the engine's announcements are: shown in every announcement
    /// label and spoken to screen readers as the focused widget's accessible description.
    public func announce(_ sentence: String) { accessibility.announce(sentence) }
}
