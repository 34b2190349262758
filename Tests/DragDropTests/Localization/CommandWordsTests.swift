import DragDrop
import Testing

/// The words of drag-and-drop controls (edit menus, keyboard dragging, undo names of edits) in
/// every language of the guideline texts (L1).
@Suite("Languages: the words of the controls")
struct CommandWordsTests {
    @Test(
        "L1: the commands of edit menus and keyboard dragging read in Korean, Japanese and Russian; an app's own title stays as it is",
        arguments: [
            ("ko", ["잘라내기", "복사하기", "붙여넣기", "모두 선택", "다른 곳으로 이동…", "다른 곳으로 복사…", "집기"]),
            ("ja", ["切り取り", "コピー", "貼り付け", "すべて選択", "移動先を選ぶ…", "コピー先を選ぶ…", "持ち上げる"]),
            ("ru", ["Вырезать", "Копировать", "Вставить", "Выделить всё", "Переместить в…", "Копировать в…", "Взять"]),
            ("en", ["Cut", "Copy", "Paste", "Select All", "Move To…", "Copy To…", "Pick Up"]),
        ])
    func commands(language: String, expected: [String]) {
        let titles = ["Cut", "Copy", "Paste", "Select All", "Move To\u{2026}", "Copy To\u{2026}", "Pick Up"]
        #expect(Localization.withLanguage(language) { titles.map(Localization.command) } == expected)
        #expect(Localization.withLanguage(language) { Localization.command("Archive Now") } == "Archive Now")
        let sheet = ["ko": ["취소", "이동", "복사하기"], "ja": ["キャンセル", "移動", "コピー"], "ru": ["Отменить", "Переместить", "Копировать"]]
        #expect(
            Localization.withLanguage(language) { ["Cancel", "Move", "Copy"].map(Localization.command) }
                == sheet[language, default: ["Cancel", "Move", "Copy"]], "the confirmation sheet's buttons")
    }

    @Test("L1: an edit's undo step is named in the person's language, inside the Undo menu item's own sentence")
    func editNames() {
        func undoTitle(_ language: String, _ edit: String) -> String {
            Localization.withLanguage(language) {
                let stack = UndoStack()
                stack.beginGroup(named: Localization.editName(edit))
                stack.register(undo: {}, redo: {})
                stack.endGroup()
                return stack.undoMenuItemTitle
            }
        }
        #expect(undoTitle("ru", "Paste") == "Отменить: Вставка")
        #expect(undoTitle("ko", "Typing") == "입력 실행 취소")
        #expect(undoTitle("ja", "Cut") == "「切り取り」を取り消す")
        #expect(undoTitle("en", "Delete") == "Undo Delete")
        #expect(Localization.withLanguage("ko") { Localization.editName("Change Brightness") } == "Change Brightness")
    }
}
