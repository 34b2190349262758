import CGtk4
import DragDropGTK

// Two lists: drag items from one to the other (they move, as reminders do between lists),
// select several with Ctrl-click or Shift-click and drag them together, drag within a list to
// reorder, press Ctrl+Z to undo and Ctrl+Shift+Z to redo, or drop an item on the text field.
GtkApp.run(id: "org.example.FirstApp", title: "First App", width: 560, height: 360) { window in
    let host = window.host
    let toDo = DragListView(id: "to-do", title: "To Do", items: ["Milk", "Eggs", "Bread", "Tea"], host: host)
    let done = DragListView(id: "done", title: "Done", items: ["Coffee"], host: host)
    let note = DragEntry(id: "note", name: "Note", placeholder: "Drop an item here", host: host)

    let lists = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
    gtk_box_set_homogeneous(dd_box(lists), 1)
    gtk_widget_set_vexpand(lists, 1)
    let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
    gtk_box_append(dd_box(content), lists)
    gtk_box_append(dd_box(content), note.widget)
    window.setContent(content)

    // Prints both lists after every change (a drop, an undo, a redo).
    @MainActor func printLists() {
        let toDoTitles = toDo.items.map(\.title).joined(separator: ", ")
        print("To Do: \(toDoTitles) | Done: \(done.items.map(\.title).joined(separator: ", "))")
    }
    for list in [toDo, done] {
        // Between two lists a drag copies by default (the guidelines' rule for different
        // containers); these lists ask for a move instead, as Reminders does.
        list.operationPolicy = .preferMove
        list.onChange = printLists
        gtk_box_append(dd_box(lists), list.widget)
        try list.register(in: window.id)
    }
    try note.register(in: window.id)
    printLists()
    return (toDo, done, note)  // kept alive while the window is open
}
