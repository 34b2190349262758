import CGtk4
import DragDrop
import DragDropGTK
import Foundation
import ShowcaseModel

/// What ``StoreListView`` (rows) and ``StoreGridView`` (tiles) share: one store collection shown
/// as elements that drag out with the selection (M1), a container that takes drops between its
/// elements (F8), every drop one store transaction with its undo (S4, U1), and an edit menu that
/// does the same without a pointer (C1, C4, K2): Copy, Move To…, Copy To…, Delete, Select All,
/// Undo and Redo, listing only the commands that apply.
///
/// The elements are the database's: the view never edits them itself. A drop goes to
/// ``ShowcaseStore/perform(_:app:newItems:)``, an edit to the store's own operations, and the
/// pane reloads every view it shows from the store afterwards, so what is on screen is what is
/// saved. Elements are the targets `item-<id>` (ids survive moves, undo and redo).
///
/// A subclass builds the element widgets (``makeElement(for:)`` and friends) and may change the
/// targets it registers (``containerTarget(in:)``, ``elementTarget(for:)``).
@MainActor
class StoreCollectionView: GtkSpringLoadingDelegate, GtkDragHostSelectionDelegate {
    let store: ShowcaseStore
    /// The type elements offer and the container accepts.
    let itemType: ContentType
    /// How announcements and undo names count the elements ("Move 2 Reminders").
    let noun: Noun
    private(set) var collection: ShowcaseCollection
    /// The elements' items, in order, as last read from the store.
    private(set) var items: [ShowcaseItem] = []
    /// The selected elements' item ids, in order.
    private(set) var selection: [ItemID] = []
    /// The store changed through this view (a drop on it, an edit from its menu); the pane
    /// reloads its views and selects `ids` where they are.
    var onStoreChanged: (@MainActor (_ ids: [ItemID]) -> Void)?
    /// The selection changed (by a click or a key).
    var onSelectionChanged: (@MainActor () -> Void)?
    /// A problem to show the user (the store could not be read or written).
    var onError: (@MainActor (String) -> Void)?
    /// An element's data for drags, when the pane has more than its title (a photo's image).
    var makeProvider: (@MainActor (ShowcaseItem) -> ItemProvider?)?

    unowned let host: GtkDragHost
    /// The widget holding the elements (a list box, a flow box).
    let elementsWidget: GObjectRef
    private let root: GObjectRef
    private let heading: UnsafeMutablePointer<GtkWidget>
    private(set) var elements: [(id: ItemID, widget: GObjectRef)] = []
    private(set) var window: TargetID?
    private var elementsRegistered = false
    /// True while the elements are rebuilt or selected by code (selection signals are ignored).
    var rebuilding = false
    private var insertionShown: (widget: GObjectRef, cssClass: String)?
    private var menu: EditMenu?

    /// The view's root widget (title and elements).
    var widget: UnsafeMutablePointer<GtkWidget> { root.widget }
    /// The container's target id.
    var containerID: TargetID { collection.targetID }
    /// Whether the view's targets are registered with the host.
    var isRegistered: Bool { window != nil }

    init(
        collection: ShowcaseCollection, store: ShowcaseStore, host: GtkDragHost, itemType: ContentType, noun: Noun,
        elementsWidget: UnsafeMutablePointer<GtkWidget>
    ) {
        self.collection = collection
        self.store = store
        self.host = host
        self.itemType = itemType
        self.noun = noun
        self.elementsWidget = GObjectRef(newWidget: elementsWidget)
        root = GObjectRef(newWidget: UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6))
        heading = UI.label(collection.name, selectable: true, css: ["sc-list-title"])
        UI.append(root.widget, heading)
        dd_accessible_set_label(dd_accessible(self.elementsWidget.raw), collection.name)
        UI.append(root.widget, elementsWidget)
        FocusNavigation.tabLeaves(elementsWidget)
        gtk_widget_set_hexpand(root.widget, 1)
        let menu = EditMenu(attachedTo: elementsWidget, name: collection.name) { [weak self] in
            self?.editCommands() ?? []
        }
        menu.willOpen = { [weak self] x, y in self?.selectForMenu(atX: x, y: y) }
        self.menu = menu
    }

    // MARK: What subclasses provide

    /// The container target inside the window target `window`.
    func containerTarget(in window: TargetID) -> DragTarget {
        var container = DragTarget(id: containerID, name: collection.name, frame: .zero, parent: window)
        container.accepts = [itemType]
        container.operationPolicy = .preferMove
        container.clipsChildren = true
        return container
    }

    /// The target of the element showing `item`.
    func elementTarget(for item: ShowcaseItem) -> DragTarget {
        var target = DragTarget(id: item.targetID, name: item.title, frame: .zero, parent: containerID)
        target.kind = noun
        if elementsAreDraggable { target.offers = [itemType, .utf8PlainText] }
        target.isMovable = elementsAreMovable
        return target
    }

    /// Whether the elements can be dragged out (Copy To…).
    var elementsAreDraggable: Bool { true }
    /// Whether the elements may leave the collection (Move To…, Delete): not from a read-only
    /// one (Sent), whose elements drag out as copies.
    var elementsAreMovable: Bool { elementsAreDraggable && !collection.flags.contains(.readOnly) }

    /// A new element widget for `item`, already added to ``elementsWidget``.
    func makeElement(for item: ShowcaseItem) -> GObjectRef { fatalError("subclass") }
    /// Removes an element widget from ``elementsWidget``.
    func removeElement(_ element: GObjectRef) { fatalError("subclass") }
    /// Whether the element widget is selected.
    func isSelected(_ element: GObjectRef) -> Bool { fatalError("subclass") }
    /// Selects or unselects the element widget (``rebuilding`` is set around the call).
    func setSelected(_ element: GObjectRef, _ selected: Bool) { fatalError("subclass") }
    /// The element under `x`, `y` in ``elementsWidget``'s coordinates.
    func element(atX x: Double, y: Double) -> GObjectRef? { nil }
    /// How drops find their insertion index between the elements.
    var insertionLayout: InsertionLayout { .vertical }
    /// The style classes that show the insertion point before and after an element.
    var insertionClasses: (before: String, after: String) { ("dd-insert-before", "dd-insert-after") }

    // MARK: Registration and reloading

    /// Registers the container inside the window target `window`, then reads and registers the
    /// elements.
    func register(in window: TargetID) {
        guard self.window == nil else { return }
        do {
            try host.register(elementsWidget.widget, as: containerTarget(in: window), delegate: self)
        } catch {
            onError?("\(error)")
            return
        }
        self.window = window
        reloadAndRegisterElements(selecting: nil)
    }

    /// Unregisters the container and its elements.
    func unregister() {
        guard window != nil else { return }
        host.unregister(containerID)
        window = nil
        elementsRegistered = false
    }

    /// Unregisters the elements only: the first half of a reload. A pane unregisters the
    /// elements of all its views before any view registers again, because a moved item keeps
    /// its target id.
    func unregisterElements() {
        guard elementsRegistered else { return }
        for (id, _) in elements { host.unregister(ShowcaseTargets.item(id)) }
        elementsRegistered = false
    }

    /// Reads the elements from the store, rebuilds them and registers them again (when the view
    /// is registered). `selecting`: the ids to select (nil keeps the selection).
    func reloadAndRegisterElements(selecting ids: [ItemID]?) {
        unregisterElements()
        do {
            items = try store.items(in: collection.id ?? 0)
        } catch {
            onError?(Sentence.explaining("Could not read \(collection.name)", error))
        }
        let wanted = Set(ids ?? selection)
        selection = items.compactMap(\.id).filter(wanted.contains)
        buildElements()
        guard window != nil else { return }
        for (item, (_, element)) in zip(items, elements) {
            do {
                try host.register(element.widget, as: elementTarget(for: item), delegate: self)
            } catch {
                onError?("\(error)")
            }
        }
        elementsRegistered = true
    }

    /// Shows another collection in this view (a mailbox picked in the sidebar, a folder opened).
    func show(_ collection: ShowcaseCollection) {
        let window = self.window
        unregister()
        self.collection = collection
        selection = []
        UI.setText(heading, collection.name)
        dd_accessible_set_label(dd_accessible(elementsWidget.raw), collection.name)
        if let window { register(in: window) } else { reloadAndRegisterElements(selecting: []) }
    }

    private func buildElements() {
        rebuilding = true
        defer { rebuilding = false }
        for (_, element) in elements { removeElement(element) }
        insertionShown = nil
        elements = items.map { item in
            let element = makeElement(for: item)
            if let id = item.id, selection.contains(id) { setSelected(element, true) }
            return (item.id ?? 0, element)
        }
    }

    // MARK: Selection

    /// Reads the selection from the widgets after a click or a key changed it.
    func selectionChanged() {
        guard !rebuilding else { return }
        let selected = Set(elements.filter { isSelected($0.widget) }.map(\.id))
        selection = items.compactMap(\.id).filter(selected.contains)
        onSelectionChanged?()
    }

    /// Selects exactly `ids`.
    func select(_ ids: Set<ItemID>) {
        rebuilding = true
        for (id, element) in elements { setSelected(element, ids.contains(id)) }
        rebuilding = false
        selectionChanged()
    }

    /// A secondary click on an element outside the selection selects it first, so the menu's
    /// commands act on what was clicked.
    private func selectForMenu(atX x: Double, y: Double) {
        guard let element = element(atX: x, y: y), let id = elements.first(where: { $0.widget === element })?.id,
            !selection.contains(id)
        else { return }
        select([id])
    }

    // MARK: Frames

    /// Element frames in window coordinates, in order (nil before layout).
    func elementFrames() -> [(title: String, frame: Rect)]? {
        var frames: [(String, Rect)] = []
        for item in items {
            guard let frame = host.frameInWindow(of: item.targetID), frame.height > 0 else { return nil }
            frames.append((item.title, frame))
        }
        return frames
    }

    /// The container's frame in window coordinates.
    func frame() -> Rect? { host.frameInWindow(of: containerID) }

    // MARK: The edit menu (C1, C4, K2)

    /// The commands that apply now: Undo and Redo when possible; with a selection, Copy, Copy
    /// To… (not during a drag), and Move To… and Delete unless the collection is read-only;
    /// Select All unless all is selected.
    func editCommands() -> [EditCommand] {
        var commands = EditMenu.undoCommands(host)
        let selected = selection.map(ShowcaseTargets.item)
        let dragging = host.engine.isDragging
        if !selected.isEmpty {
            commands.append(EditCommand("Copy") { [weak self] in self?.copyTitles() })
            if elementsAreMovable && !dragging {
                commands.append(
                    EditCommand("Move To\u{2026}") { [weak self] in
                        self?.host.beginKeyboardDrag(items: selected, operation: .move)
                    })
            }
            if elementsAreDraggable && !dragging {
                commands.append(
                    EditCommand("Copy To\u{2026}") { [weak self] in
                        self?.host.beginKeyboardDrag(items: selected, operation: .copy)
                    })
            }
            if elementsAreMovable {
                commands.append(EditCommand("Delete") { [weak self] in self?.deleteSelection() })
            }
        }
        if !items.isEmpty, selection.count < items.count {
            commands.append(EditCommand("Select All") { [weak self] in self?.selectAll() })
        }
        return commands
    }

    private func copyTitles() {
        let titles = items.filter { selection.contains($0.id ?? 0) }.map(\.title)
        guard !titles.isEmpty else { return }
        EditClipboard.copy(text: titles.joined(separator: "\n"), from: elementsWidget.widget)
    }

    private func selectAll() { select(Set(items.compactMap(\.id))) }

    /// Deletes the selected items in one store transaction: one undo step ("Delete 2 Reminders").
    private func deleteSelection() {
        guard !selection.isEmpty else { return }
        do {
            let edit = try store.remove(selection)
            let action = edit.action
            host.registerEdit(edit.name, undo: action.undo, redo: action.redo)
            onStoreChanged?([])
        } catch {
            onError?(Sentence.explaining("Could not delete", error))
        }
    }

    // MARK: GtkDragHostDelegate

    func dragHost(_ host: GtkDragHost, itemsForDragStartingAt item: TargetID) -> [TargetID] {
        guard let id = ShowcaseTargets.itemID(item), selection.contains(id) else { return [item] }
        return selection.map(ShowcaseTargets.item)
    }

    func dragHost(_ host: GtkDragHost, selectedItemsIn container: TargetID) -> [TargetID] {
        container == containerID && elementsAreDraggable ? selection.map(ShowcaseTargets.item) : []
    }

    func dragHost(_ host: GtkDragHost, insertionIndexIn container: TargetID, at point: Point?) -> Int? {
        guard container == containerID else { return nil }
        guard let point else { return items.count }
        let frames = items.map { host.engine.registry.target($0.targetID)?.frame ?? .zero }
        return InsertionIndex.compute(layout: insertionLayout, frames: frames, point: point)
    }

    func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        ShowcaseDrops.perform(drop, store: store, host: host) { [weak self] ids in self?.onStoreChanged?(ids) }
    }

    func dragHost(_ host: GtkDragHost, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    {
        // The store moved both sides in the drop's one transaction (S4 without a moment where
        // the item is in both places); its undo restores both.
        store.removeMovedItems(items, after: drop)
    }

    func dragHost(_ host: GtkDragHost, itemProviderFor item: TargetID) -> ItemProvider? {
        guard let element = items.first(where: { $0.targetID == item }) else { return nil }
        if let provider = makeProvider?(element) { return provider }
        return ItemProvider(app: host.engine.app, representations: [.text(.utf8PlainText, element.title)])
    }

    func dragHost(_ host: GtkDragHost, exportedRepresentationsFor ids: [TargetID]) -> [ExportedRepresentation] {
        [.text(ids.compactMap { id in items.first { $0.targetID == id }?.title }.joined(separator: "\n"))]
    }

    func dragHost(_ host: GtkDragHost, showInsertionAt index: Int?, in container: TargetID) {
        if let shown = insertionShown {
            gtk_widget_remove_css_class(shown.widget.widget, shown.cssClass)
            insertionShown = nil
        }
        guard container == containerID, let index, !elements.isEmpty else { return }
        let classes = insertionClasses
        let shown =
            index < elements.count
            ? (elements[index].widget, classes.before) : (elements[elements.count - 1].widget, classes.after)
        gtk_widget_add_css_class(shown.0.widget, shown.1)
        insertionShown = shown
    }

    func dragHost(_ host: GtkDragHost, activate control: TargetID, explicit: Bool) {}
}

/// Drops into the store, shared by the panes.
@MainActor
enum ShowcaseDrops {
    /// Performs `drop` in one store transaction. On commit, `committed` gets the ids of the
    /// app's own items that were dropped (a move keeps them; the pane selects them).
    static func perform(
        _ drop: DropRequest, store: ShowcaseStore, host: GtkDragHost, committed: @escaping @MainActor ([ItemID]) -> Void
    ) -> DropResult {
        let result = store.perform(drop, app: host.engine.app)
        if case .committed = result {
            let ids = drop.operation == .move ? drop.items.compactMap { ShowcaseTargets.itemID($0.id) } : []
            // After the engine call returns: the engine may still read its registry now.
            host.scheduleUpdate(key: ShowcaseDropsKey.shared) { committed(ids) }
        }
        return result
    }
}

/// The coalescing key of the reload scheduled after a drop.
final class ShowcaseDropsKey: Sendable {
    static let shared = ShowcaseDropsKey()
}
