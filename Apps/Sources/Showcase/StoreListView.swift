import CGtk4
import DragDrop
import DragDropGTK
import Foundation
import ShowcaseModel

/// A list of one store collection's items (reminders, messages, events): a
/// ``StoreCollectionView`` in rows. Rows drag out with the selection (M1); when the list accepts
/// drops, rows make room where a drop lands (F8).
@MainActor
final class StoreListView: StoreCollectionView {
    struct Options {
        /// The list's target id; nil: the collection's (`collection-7`).
        var containerID: TargetID? = nil
        /// The type rows offer and the list accepts.
        var itemType: ContentType
        /// How announcements and undo names count the rows ("Move 2 Reminders").
        var noun: Noun
        /// Whether the list is a drop destination (with rows making room).
        var acceptsDrops = true
        /// Whether rows can be dragged out.
        var draggable = true
        /// What drops from other lists do (S2): reminders move between lists.
        var operationPolicy: OperationPolicy = .preferMove
        /// Shown when the list is empty.
        var emptyText = "Nothing Here"
        /// The list is as tall as its rows and an outer scroll view scrolls it (the Inbox, in a
        /// scroll view that refreshes).
        var growsWithRows = false
    }

    let listOptions: Options

    init(collection: ShowcaseCollection, store: ShowcaseStore, host: GtkDragHost, options: Options) {
        listOptions = options
        super.init(collection: collection, store: store, host: host, itemType: options.itemType, noun: options.noun)
        start()
    }

    override func containerID(for collection: ShowcaseCollection) -> TargetID {
        listOptions.containerID ?? collection.targetID
    }

    override func options(for collection: ShowcaseCollection) -> DragCollectionView.Options {
        var options = super.options(for: collection)
        options.acceptsDrops = listOptions.acceptsDrops
        options.draggable = listOptions.draggable
        options.emptyText = listOptions.emptyText
        options.growsWithContent = listOptions.growsWithRows
        options.operationPolicy =
            collection.flags.contains(.readOnly)
            ? .forbidden(reason: "\(collection.name) is read-only.") : listOptions.operationPolicy
        return options
    }
}
