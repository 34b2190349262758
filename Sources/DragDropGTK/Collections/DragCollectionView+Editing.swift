import CGtk4
import DragDrop

/// The edit menu of a ``DragCollectionView`` (C1, C4, K2): a secondary click, a long press or
/// Shift+F10 / Menu lists only what applies now (Undo and Redo named from the stack; Cut, Copy,
/// Delete, Move To… and Copy To… with a selection; Paste with text on the clipboard; Select All
/// unless all is selected). Cut, Paste and Delete go through the data source as undo steps.
extension DragCollectionView {
    /// What the edit menu offers besides Undo, Redo, Copy and Select All.
    public struct EditingOptions: Sendable {
        /// Cut and Paste (the data source's delete and insert).
        public var cutAndPaste = false
        /// Delete (the data source's delete), for movable items.
        public var delete = false

        /// No Cut, Paste or Delete.
        public init(cutAndPaste: Bool = false, delete: Bool = false) {
            self.cutAndPaste = cutAndPaste
            self.delete = delete
        }
    }

    func installEditMenu() {
        let menu = EditMenu(attachedTo: itemsView.widget, name: title) { [weak self] in self?.editCommands() ?? [] }
        menu.willOpen = { [weak self] x, y in self?.selectForMenu(atX: x, y: y) }
        editMenu = menu
    }

    /// The commands that apply now.
    func editCommands() -> [EditCommand] {
        finishPublishing()
        var commands = EditMenu.undoCommands(host, for: id)
        let current = selection
        let dragging = host.engine.isDragging
        let movable = options.draggable && options.itemsMovable
        if !current.isEmpty {
            if editing.cutAndPaste, movable {
                commands.append(EditCommand("Cut") { [weak self] in self?.cut() })
            }
            commands.append(EditCommand("Copy") { [weak self] in self?.copy() })
        }
        if editing.cutAndPaste, EditClipboard.hasText(for: itemsView.widget) {
            commands.append(EditCommand("Paste") { [weak self] in self?.paste() })
        }
        if !current.isEmpty {
            if options.offersMoveAndCopyTo, movable, !dragging {
                commands.append(
                    EditCommand("Move To\u{2026}") { [weak self] in
                        guard let self else { return }
                        self.host.beginKeyboardDrag(items: self.selection, operation: .move, from: self.id)
                    })
            }
            if options.offersMoveAndCopyTo, options.draggable, !dragging {
                commands.append(
                    EditCommand("Copy To\u{2026}") { [weak self] in
                        guard let self else { return }
                        self.host.beginKeyboardDrag(items: self.selection, operation: .copy, from: self.id)
                    })
            }
            if editing.delete, movable {
                commands.append(EditCommand("Delete") { [weak self] in self?.delete(named: nil) })
            }
        }
        if itemCount > 0, selected.count < itemCount {
            commands.append(EditCommand("Select All") { [weak self] in self?.selectAll() })
        }
        return commands
    }

    /// Copies the selected items' titles, one per line.
    func copy() {
        guard let dataSource else { return }
        let titles = selection.compactMap { dataIndex(of: $0).map(dataSource.title(at:)) }
        guard !titles.isEmpty else { return }
        EditClipboard.copy(text: titles.joined(separator: "\n"), from: itemsView.widget)
    }

    /// Copies the selection and deletes it: one undo step named "Cut".
    func cut() {
        copy()
        delete(named: "Cut")
    }

    /// Deletes the selection through the data source: one undo step.
    func delete(named name: String?) {
        guard let dataSource, !selected.isEmpty,
            let edit = dataSource.collectionView(self, deleteItems: selection)
        else { return }
        host.registerEdit(name ?? edit.name, in: id, undo: edit.action.undo, redo: edit.action.redo)
    }

    /// Adds an item per line of the clipboard's text after the selection (or at the end),
    /// selected: one undo step.
    func paste() {
        EditClipboard.readText(for: itemsView.widget) { [weak self] text in
            guard let self, let text, let dataSource = self.dataSource else { return }
            let titles = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
            guard !titles.isEmpty else { return }
            let last = self.selection.compactMap { self.dataIndex(of: $0) }.max()
            let index = last.map { $0 + 1 } ?? dataSource.numberOfItems
            guard let edit = dataSource.collectionView(self, insertTitles: titles, at: index) else { return }
            self.host.registerEdit(edit.name, in: self.id, undo: edit.action.undo, redo: edit.action.redo)
            self.select(edit.ids)
        }
    }

    /// A secondary click on an item outside the selection selects it first, so the menu's
    /// commands act on what was clicked.
    private func selectForMenu(atX x: Double, y: Double) {
        guard let picked = gtk_widget_pick(itemsView.widget, x, y, GTK_PICK_DEFAULT) else { return }
        var current: UnsafeMutablePointer<GtkWidget>? = picked
        while let widget = current, widget != itemsView.widget {
            if let cell = cellsByWidget[UInt(bitPattern: widget)] {
                if let itemID = cell.itemID, !selected.contains(itemID) { select([itemID]) }
                return
            }
            current = gtk_widget_get_parent(widget)
        }
    }
}
