// An app imports DragDropGTK alone: the engine's types (values, operations, undo) come with it.
@_exported import DragDrop
