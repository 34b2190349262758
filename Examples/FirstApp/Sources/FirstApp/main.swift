import CGtk4
import DragDropGTK

/// A chore: dragged between the lists as itself, and to the text field or any app as its
/// title; text dragged in from another app becomes a chore.
struct Chore: Codable, Sendable, Transferable {
    var title: String

    static var transferRepresentation: TransferRepresentation<Chore> {
        TransferRepresentation.codable()
        TransferRepresentation.proxy(exporting: \.title) { Chore(title: $0) }
    }
}

// Two lists: drag chores from one to the other (they move, as reminders do between lists),
// select several with Ctrl-click or Shift-click and drag them together, drag within a list to
// reorder, press Ctrl+Z to undo and Ctrl+Shift+Z to redo, or drop a chore on the text field.
GtkApp.run(id: "org.example.FirstApp", title: "First App", width: 560, height: 360) { window in
    let host = window.host
    let chores = ["Milk", "Eggs", "Bread", "Tea"].map { Chore(title: $0) }
    // Between two lists a drag copies by default (the guidelines' rule for different
    // containers); these lists ask for a move instead, as Reminders does.
    let toDo = DragValueList(title: "To Do", values: chores, host: host, kind: Noun("chore"), policy: .preferMove) {
        $0.title
    }
    let done = DragValueList(
        title: "Done", values: [Chore(title: "Coffee")], host: host, kind: Noun("chore"), policy: .preferMove
    ) { $0.title }
    let note = DragEntry(name: "Note", placeholder: "Drop a chore here", host: host)

    let lists = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
    gtk_box_set_homogeneous(dd_box(lists), 1)
    gtk_widget_set_vexpand(lists, 1)
    let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
    gtk_box_append(dd_box(content), lists)
    gtk_box_append(dd_box(content), note.widget)
    window.setContent(content)

    // Prints both lists after every change (a drop, an undo, a redo).
    @MainActor func printLists() {
        let toDoTitles = toDo.values.map(\.title).joined(separator: ", ")
        print("To Do: \(toDoTitles) | Done: \(done.values.map(\.title).joined(separator: ", "))")
    }
    // Placed in the window, the lists and the field take part in drags; the window keeps them.
    for list in [toDo, done] {
        list.onChange = { _ in printLists() }
        gtk_box_append(dd_box(lists), list.widget)
    }
    printLists()
}
