import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol

// `--scene hig`: a deliberately wrong window, built from plain GTK widgets, with one breach of
// each rule the HIG check reads (K1, K3, K7, K9, K10, K11, K12), and a correct part that must
// yield nothing. Prints, once laid out:
//
//   {"kind":"hig","findings":[{"rule":…,"message":…,"widget":…}],"census":{"buttons":…},"namesReadable":…}
@MainActor
final class HIGScene: FixtureScene {
    let arguments: [String]
    var scene: SceneWindow?
    var reported = false

    init(arguments: [String]) { self.arguments = arguments }

    func activate(_ app: UnsafeMutablePointer<GtkApplication>) {
        guard let scene = SceneWindow(app: app, arguments: arguments) else { return }
        self.scene = scene
        let column = SceneWindow.paddedBox(GTK_ORIENTATION_VERTICAL, spacing: 8)
        gtk_window_set_child(dd_window(scene.window), column)
        func add(_ widget: UnsafeMutablePointer<GtkWidget>) {
            gtk_box_append(dd_box(UnsafeMutableRawPointer(column)), widget)
        }
        func button(_ title: String) -> UnsafeMutablePointer<GtkWidget> { gtk_button_new_with_label(title)! }

        // Correct controls: a command, a segmented control, a selectable label, a named icon
        // button, a switch row, a field with a hint and a secure field. None may be reported.
        let good = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_box_append(dd_box(UnsafeMutableRawPointer(good)), button("Cancel Upload"))
        let segments = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_widget_add_css_class(segments, "linked")
        for title in ["Day", "Week"] {
            gtk_box_append(dd_box(UnsafeMutableRawPointer(segments)), gtk_toggle_button_new_with_label(title))
        }
        gtk_box_append(dd_box(UnsafeMutableRawPointer(good)), segments)
        let named = gtk_button_new_from_icon_name("dialog-information-symbolic")!
        dd_accessible_set_label(dd_accessible(UnsafeMutableRawPointer(named)), "More Info")
        gtk_box_append(dd_box(UnsafeMutableRawPointer(good)), named)
        let copyable = gtk_label_new("Selectable text")!
        gtk_label_set_selectable(dd_label(UnsafeMutableRawPointer(copyable)), 1)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(good)), copyable)
        let hinted = gtk_entry_new()!
        gtk_entry_set_placeholder_text(dd_entry(UnsafeMutableRawPointer(hinted)), "Email")
        gtk_box_append(dd_box(UnsafeMutableRawPointer(good)), hinted)
        let secure = gtk_password_entry_new()!
        dd_accessible_set_label(dd_accessible(UnsafeMutableRawPointer(secure)), "Password")
        gtk_box_append(dd_box(UnsafeMutableRawPointer(good)), secure)
        add(good)
        let goodList = gtk_list_box_new()!
        goodList.appendSwitchRow(title: "Airplane Mode", named: true)
        add(goodList)

        // K1: lower case, too long, a noun.
        let bad = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        for title in ["cancel upload", "Upload the video right now", "Week"] {
            gtk_box_append(dd_box(UnsafeMutableRawPointer(bad)), button(title))
        }
        // K12: an icon button without a name; a button the keyboard cannot reach.
        gtk_box_append(dd_box(UnsafeMutableRawPointer(bad)), gtk_button_new_from_icon_name("contact-new-symbolic")!)
        let unreachable = button("Open")
        gtk_widget_set_focusable(unreachable, 0)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(bad)), unreachable)
        add(bad)
        // K3: static text that cannot be copied.
        add(gtk_label_new("Static text nobody can copy")!)
        // K10: a switch in a toolbar; a switch row saying "On"; K12: a switch without a name.
        let toolbar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_widget_add_css_class(toolbar, "toolbar")
        let loose = gtk_switch_new()!
        dd_accessible_set_label(dd_accessible(UnsafeMutableRawPointer(loose)), "Dark Mode")
        gtk_box_append(dd_box(UnsafeMutableRawPointer(toolbar)), loose)
        add(toolbar)
        let badList = gtk_list_box_new()!
        badList.appendSwitchRow(title: "Wi-Fi On", named: true)
        badList.appendSwitchRow(title: "Bluetooth", named: false)
        add(badList)
        // K7: a hand-made page indicator with twelve pages (our PageControl refuses them).
        let dots = gtk_drawing_area_new()!
        gtk_widget_set_size_request(dots, 200, 16)
        gtk_widget_add_css_class(dots, "dd-page-control")
        gtk_widget_set_focusable(dots, 1)
        dd_object_set_int_data(UnsafeMutableRawPointer(dots), "dd-page-count", 12)
        dd_accessible_set_label(dd_accessible(UnsafeMutableRawPointer(dots)), "Pages")
        add(dots)
        // K9: a slider for audio volume.
        let volume = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 100, 1)!
        dd_accessible_set_label(dd_accessible(UnsafeMutableRawPointer(volume)), "Volume")
        add(volume)
        // K11: a field with neither hint nor label; a password shown as typed.
        add(gtk_entry_new()!)
        let password = gtk_entry_new()!
        gtk_entry_set_placeholder_text(dd_entry(UnsafeMutableRawPointer(password)), "Password")
        add(password)

        scene.host.onFramesChanged = { [weak self] in self?.report() }
        scene.present(app) { () throws(GtkDragHostError) in }
        GLibSource.once(afterMilliseconds: 400) { [weak self] in self?.report() }
    }

    func report() {
        guard !reported, let window = scene?.window, gtk_widget_get_mapped(window) != 0 else { return }
        reported = true
        let findings = HIGCheck.findings(in: window)
        let census = HIGCheck.census(in: window)
        LineWriter.write(
            HIGLine(
                findings: findings.map(Finding.init), census: census,
                namesReadable: HIGCheck.accessibleNamesReadable()))
        LineWriter.write(ReadyLine())
    }
}

extension UnsafeMutablePointer where Pointee == GtkWidget {
    /// Appends a list row holding a title and a switch (named after the title when `named`).
    @MainActor
    func appendSwitchRow(title: String, named: Bool) {
        let row = gtk_list_box_row_new()!
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        let label = gtk_label_new(title)!
        gtk_widget_set_hexpand(label, 1)
        gtk_label_set_xalign(dd_label(UnsafeMutableRawPointer(label)), 0)
        let toggle = gtk_switch_new()!
        if named { dd_accessible_set_label(dd_accessible(UnsafeMutableRawPointer(toggle)), title) }
        gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), label)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), toggle)
        gtk_list_box_row_set_child(dd_list_box_row(UnsafeMutableRawPointer(row)), box)
        gtk_list_box_append(dd_list_box(UnsafeMutableRawPointer(self)), row)
    }
}
