@testable import DragDrop
import DragDropTesting
import Foundation
import Testing

private typealias F = EngineFixtures

/// The engine's sentences in Korean, Japanese and Russian (L1), whole and with plural forms (L2).
@Suite("Languages: the engine's sentences in every language of the guideline texts")
struct LocalizationTests {
    @Test(
        "L2: Russian counts take their three plural forms in a real engine sentence (1 файл, 2 файла, 5 файлов; 11, 21, 101)",
        arguments: [
            (1, "Взято: 1 файл."), (2, "Взято: 2 файла."), (5, "Взято: 5 файлов."), (11, "Взято: 11 файлов."),
            (21, "Взято: 21 файл."), (101, "Взято: 101 файл."), (3, "Взято: 3 файла."), (112, "Взято: 112 файлов."),
        ])
    func russianPlurals(count: Int, expected: String) {
        // One item is named rather than counted; a count of 1 still shows the form for 1.
        Localization.withLanguage("ru") {
            let announcement = Announcement.pickedUp(count: count, kind: Noun("file"), name: "a.txt")
            #expect(count == 1 ? announcement.text == "Взято: «a.txt»." : announcement.text == expected)
            #expect(Noun("file").counted(count) == String(expected.dropFirst(7).dropLast()))
        }
        Localization.withLanguage("ru") {
            // The keyboard pick-up's count of drop points is a plural of its own sentence.
            #expect(
                Localization.format(.pickedUpWithDropPoints, count: count, ["items": .text("«a»")])
                    == "Взято: «a». \(count) \(count % 10 == 1 && count % 100 != 11 ? "место" : (2...4).contains(count % 10) && !(12...14).contains(count % 100) ? "места" : "мест") для переноса; нажмите Tab, чтобы выбрать."
            )
        }
    }

    /// A keyboard drag of three photos to Trips, then undone: every sentence spoken.
    private func keyboardDragSentences(_ language: String) throws -> [String] {
        try Localization.withLanguage(language) {
            let h = try DragHarness(scene: F.photosScene())
            try h.pickUp(["beach", "city", "forest"])
            h.key(.nextDropPoint)
            h.key(.drop)
            h.undo()
            try h.finish()
            let spoken = h.engineAnnouncements()
            return spoken + [h.engine.undoStack.redoMenuItemTitle]
        }
    }

    @Test("L1: a keyboard drag on the harness is spoken in Korean when the language is set")
    func korean() throws {
        #expect(
            try keyboardDragSentences("ko") == [
                "사진 3장을 집었습니다. 놓을 수 있는 곳이 5군데 있습니다. Tab 키로 고르세요.",
                "Trips 위: 놓으면 복사됩니다.",
                "사진 3장을 Trips(으)로 복사했습니다.",
                "사진 3장 복사를 실행 취소했습니다.",
                "사진 3장 복사 다시 실행",
            ])
    }

    @Test("L1: a keyboard drag on the harness is spoken in Japanese when the language is set")
    func japanese() throws {
        #expect(
            try keyboardDragSentences("ja") == [
                "写真3枚を持ち上げました。ドロップ先が5か所あります。Tabキーで選んでください。",
                "Tripsの上です。ドロップするとコピーします。",
                "写真3枚をTripsにコピーしました。",
                "「写真3枚をコピー」を取り消しました。",
                "「写真3枚をコピー」をやり直す",
            ])
    }

    @Test("L1: a keyboard drag on the harness is spoken in Russian when the language is set")
    func russian() throws {
        #expect(
            try keyboardDragSentences("ru") == [
                "Взято: 3 фотографии. 5 мест для переноса; нажмите Tab, чтобы выбрать.",
                "Над «Trips»: будет скопировано.",
                "Скопировано в «Trips»: 3 фотографии.",
                "Отменено: Копирование (3 фотографии).",
                "Повторить: Копирование (3 фотографии)",
            ])
    }

    @Test(
        "L1, L2: a keyboard drag on the harness is spoken in Hebrew, the Latin name Trips isolated in the right-to-left sentence"
    )
    func hebrew() throws {
        let trips = "\u{2068}Trips\u{2069}"
        #expect(
            try keyboardDragSentences("he") == [
                "הרמת: 3 צילומים. 5 מקומות שחרור זמינים; לבחירה יש להקיש Tab.",
                "מעל \(trips): שחרור יעתיק.",
                "העתקת אל \(trips): 3 צילומים.",
                "ביטלת: העתקת 3 צילומים.",
                "ביצוע חוזר: העתקת 3 צילומים",
            ])
    }

    @Test(
        "L2: Hebrew counts say one and two in words (קובץ אחד, שני קבצים) and use digits from three",
        arguments: [
            (1, "קובץ אחד"), (2, "שני קבצים"), (3, "3 קבצים"), (10, "10 קבצים"), (12, "12 קבצים"), (0, "0 קבצים"),
        ])
    func hebrewPlurals(count: Int, expected: String) {
        Localization.withLanguage("he") {
            #expect(Noun("file").counted(count) == expected)
            #expect(
                Localization.format(.pickedUpWithDropPoints, count: count, ["items": .text("x")]).hasPrefix("הרמת: x. ")
            )
        }
        #expect(
            Localization.withLanguage("he") {
                Localization.format(.pickedUpWithDropPoints, count: 2, ["items": .text("x")])
            }
                == "הרמת: x. שני מקומות שחרור זמינים; לבחירה יש להקיש Tab.")
    }

    @Test("L1: without a language set the same drag is spoken in English, as before")
    func english() throws {
        #expect(
            try keyboardDragSentences("en") == [
                "Picked up 3 photos. 5 drop points; press Tab to choose one.",
                "Over Trips, will copy.",
                "Copied 3 photos to Trips.",
                "Undid Copy 3 Photos.",
                "Redo Copy 3 Photos",
            ])
    }

    @Test("L2: an announcement is formatted when read, in the language in effect then")
    func lazyAnnouncement() {
        let over = Announcement.over("Work", .move)
        #expect(Localization.withLanguage("ja") { over.text } == "Workの上です。ドロップすると移動します。")
        #expect(Localization.withLanguage("en") { over.text } == "Over Work, will move.")
    }

    @Test(
        "L1: every message the engine can say is translated in Korean, Japanese, Russian and Hebrew, with the same placeholders",
        arguments: MOFixtures.shipped)
    func complete(language: String) throws {
        let localizer = MOFixtures.localizer(language)
        #expect(localizer.language == language, "the package's \(language).mo was not found")
        #expect(localizer.ignoredCatalogs.isEmpty)
        let rule = try #require(localizer.pluralRule)
        for message in EngineMessage.all {
            #expect(localizer.isTranslated(message), "\(language): untranslated: \(message)")
            let english = Set(
                EngineMessage.placeholders(in: message.id) + EngineMessage.placeholders(in: message.plural ?? ""))
            let forms =
                message.plural == nil
                ? [localizer.template(for: message)]
                : (0..<rule.count).map { form in
                    localizer.template(for: message, count: (0..<1000).first { rule.form(for: $0) == form } ?? 0)
                }
            for form in forms {
                let own = Set(EngineMessage.placeholders(in: form))
                // A count may go unsaid in a form that needs no number (one form for "Photo").
                #expect(
                    own == english || own.union(["count"]) == english,
                    "\(language): \(message) has placeholders \(own.sorted()), English \(english.sorted())")
                // Units of data read the same in Japanese (1.5 KB).
                #expect(form != message.id || message.context == "size", "\(language): \(message) is left in English")
                for case .placeholder(_, let modifier?) in MessageTemplate(form).pieces {
                    #expect(
                        KoreanParticle.isParticle(modifier), "\(language): \(message): unknown modifier \(modifier)")
                }
            }
        }
    }

    @Test("L1: the template and each language's catalog list exactly the engine's messages")
    func catalogsMatchTheTable() throws {
        let table = Set(EngineMessage.all.map { POEntry(context: $0.context, id: $0.id, plural: $0.plural) })
        #expect(table.count == EngineMessage.all.count, "a message is in the table twice")
        for file in ["dragdrop.pot"] + MOFixtures.shipped.map({ "\($0).po" }) {
            let entries = try POEntry.read(MOFixtures.poDirectory.appendingPathComponent(file))
            let keys = Set(entries.map { POEntry(context: $0.context, id: $0.id, plural: $0.plural) })
            #expect(
                keys.subtracting(table).isEmpty,
                "\(file) has messages the engine no longer says: \(keys.subtracting(table))")
            #expect(table.subtracting(keys).isEmpty, "\(file) lacks: \(table.subtracting(keys))")
        }
    }

    @Test("L1: the catalogs are found in the package's resource bundle when run from swift test")
    func bundled() throws {
        let directory = try #require(Localizer.bundledCatalogDirectory)
        for language in MOFixtures.shipped {
            #expect(FileManager.default.fileExists(atPath: "\(directory)/\(language).mo"))
        }
    }

    static let msgfmt = ["/usr/bin/msgfmt", "/usr/local/bin/msgfmt"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test(
        "L1: the .mo files our compiler builds read back the same entries as GNU msgfmt's",
        .enabled(if: msgfmt != nil, "GNU gettext's msgfmt is not installed: nothing to compare with"),
        arguments: MOFixtures.shipped)
    func sameAsMsgfmt(language: String) throws {
        let directory = try #require(Localizer.bundledCatalogDirectory)
        let ours = try MessageCatalog(
            bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(language).mo"))))
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("dragdrop-\(UUID().uuidString).mo")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.msgfmt))
        process.arguments = ["-o", output.path, MOFixtures.poDirectory.appendingPathComponent("\(language).po").path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let theirs = try MessageCatalog(bytes: [UInt8](Data(contentsOf: output)))
        #expect(ours.count == theirs.count)
        #expect(ours.count == EngineMessage.all.count)
        #expect(ours.header == theirs.header)
        #expect(ours.pluralRule == theirs.pluralRule)
        let a = ours.allEntries.map { "\($0.context ?? "-")|\($0.id)|\($0.forms)" }
        let b = theirs.allEntries.map { "\($0.context ?? "-")|\($0.id)|\($0.forms)" }
        #expect(a == b)
    }
}

/// The ready-made widgets' words come from the catalogs (L1).
@Suite("Localization: the widgets' words")
struct WidgetTextTests {
    @Test("L1: the widgets' sentences and titles read in Korean, Japanese and Russian, the names put in whole")
    func widgetWords() {
        #expect(Localization.withLanguage("en") { WidgetText.dropContacts(on: "To:") } == "Drop contacts on To:.")
        #expect(Localization.withLanguage("ko") { WidgetText.nothingHere } == "항목 없음")
        #expect(Localization.withLanguage("ja") { WidgetText.pullToRefresh } == "引っ張って更新")
        #expect(Localization.withLanguage("ru") { WidgetText.textAlreadyThere } == "Этот текст уже здесь.")
        #expect(Localization.withLanguage("ko") { WidgetText.dropContacts(on: "받는 사람:") }.contains("받는 사람:"))
        #expect(Localization.withLanguage("ru") { WidgetText.chooseContact } == "Выберите контакт")
    }

    @Test(
        "L1: a slider's refusal and a switch's undo step are sentences of the catalogs, not English in every language")
    func controlsWords() {
        #expect(Localization.withLanguage("en") { WidgetText.turn(true, "Airplane Mode") } == "Turn On Airplane Mode")
        #expect(Localization.withLanguage("en") { WidgetText.turn(false, "Wi-Fi") } == "Turn Off Wi-Fi")
        #expect(
            Localization.withLanguage("en") { WidgetText.takesNoContent("Brightness") }
                == "Brightness takes no content; drag its thumb to change it.")
        let korean = Localization.withLanguage("ko") { WidgetText.turn(true, "비행기 모드") }
        #expect(korean == "비행기 모드 켜기")
        #expect(Localization.withLanguage("ru") { WidgetText.turn(false, "Wi-Fi") }.hasPrefix("Выключить"))
        #expect(Localization.withLanguage("ja") { WidgetText.takesNoContent("明るさ") }.contains("「明るさ」"))
        #expect(
            Localization.withLanguage("en") { WidgetText.selectedText(in: "Sourdough") } == "Selected text in Sourdough"
        )
        #expect(Localization.withLanguage("ko") { WidgetText.selectedText(in: "Sourdough") } == "‘Sourdough’에서 선택한 텍스트")
        #expect(Localization.withLanguage("en") { WidgetText.details(for: "Home") } == "Details for Home")
        #expect(Localization.withLanguage("ru") { WidgetText.addContact(to: "To") } == "Добавить контакт в «To»")
        #expect(Localization.withLanguage("ja") { WidgetText.notPasted } == "貼り付けられませんでした")
    }
}
