/// The words of the controls a drag-and-drop interface shows, whatever draws them (L1): the
/// commands of edit menus, of keyboard dragging and of a drop's confirmation sheet (Cancel, Move,
/// Copy), and the names of the undo steps of edits.
/// A platform's widgets show them through ``Localization/command(_:)`` and
/// ``Localization/editName(_:)``, keeping the English title as the command's identity.
extension EngineMessage {
    static let commands: [EngineMessage] = [
        "Cut", "Copy", "Paste", "Delete", "Select All", "Select", "Open Link", "Move To\u{2026}", "Copy To\u{2026}",
        "Pick Up", "Cancel", "Move",
    ].map { EngineMessage($0, context: "command", note: "A command in an edit menu, a drag's context menu or a drop's confirmation sheet.") }

    static let editNames: [EngineMessage] = ["Typing", "Cut", "Paste", "Delete"].map {
        EngineMessage($0, context: "undo", note: "An edit's name in the Undo and Redo menu items (Undo {action}).")
    }
}

extension Localization {
    private static let commandsByTitle = Dictionary(EngineMessage.commands.map { ($0.id, $0) }) { first, _ in first }
    private static let editNamesByTitle = Dictionary(EngineMessage.editNames.map { ($0.id, $0) }) { first, _ in first }

    /// The command titled `title` in English ("Cut", "Move To…") in the current language; a
    /// title that is not one of the library's commands as it is (an app's own, already in its
    /// language).
    public static func command(_ title: String) -> String {
        commandsByTitle[title].map { format($0) } ?? title
    }

    /// The undo name of an edit named `name` in English ("Paste") in the current language; any
    /// other name as it is.
    public static func editName(_ name: String) -> String {
        editNamesByTitle[name].map { format($0) } ?? name
    }
}
