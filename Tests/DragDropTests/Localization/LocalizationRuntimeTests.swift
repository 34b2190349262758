@testable import DragDrop
import DragDropTesting
import Foundation
import Testing

/// Choosing the language, overriding sentences, adding catalogs, and refusing broken ones (L1).
@Suite("Languages: negotiation, overrides, added catalogs, broken files")
struct LocalizationRuntimeTests {
    @Test(
        "L1: the languages to try come from LANGUAGE, LC_ALL, LC_MESSAGES and LANG as gettext reads them",
        arguments: [
            (["LANG": "ko_KR.UTF-8"], ["ko_KR", "ko"]),
            (["LANG": "ru_RU.UTF-8", "LANGUAGE": "ja:ko"], ["ja", "ko"]),
            (["LC_ALL": "ja_JP.UTF-8", "LC_MESSAGES": "ru_RU", "LANG": "ko_KR"], ["ja_JP", "ja"]),
            (["LC_MESSAGES": "ru_RU", "LANG": "ko_KR"], ["ru_RU", "ru"]),
            (["LANG": "C", "LANGUAGE": "ko"], []),
            (["LANG": "C.UTF-8", "LANGUAGE": "ko"], []),
            (["LC_ALL": "POSIX", "LANGUAGE": "ru"], []),
            (["LANGUAGE": "ko"], []),
            (["LANG": "sr_RS.UTF-8@latin"], ["sr_RS@latin", "sr_RS", "sr@latin", "sr"]),
            (["LANG": "de_DE", "LANGUAGE": "pt_BR:pt:en"], ["pt_BR", "pt", "en"]),
            (["LANG": "de_DE", "LANGUAGE": ""], ["de_DE", "de"]),
            (["LANG": "de_DE", "LANGUAGE": "ko:C:ja"], ["ko"]),
            (["LC_ALL": "", "LANG": "ja_JP.eucJP"], ["ja_JP", "ja"]),
        ] as [([String: String], [String])])
    func negotiation(environment: [String: String], expected: [String]) {
        #expect(LanguagePreference.candidates(environment: environment) == expected)
    }

    @Test(
        "L1: the chosen language is the first wanted one with a catalog; English when none has one or English comes first",
        arguments: [
            (["LANG": "ko_KR.UTF-8"], "ko"),
            (["LANG": "fr_FR.UTF-8", "LANGUAGE": "de:ru:ja"], "ru"),
            (["LANG": "en_US.UTF-8", "LANGUAGE": "en:ja"], "en"),
            (["LANG": "fr_FR.UTF-8"], "en"),
            (["LANG": "C", "LANGUAGE": "ja"], "en"),
            ([:], "en"),
        ] as [([String: String], String)])
    func chosen(environment: [String: String], expected: String) {
        #expect(Localizer(environment: environment, searchSystem: false).language == expected)
    }

    @Test("L1: setting the languages in code wins over the environment, and nil goes back to it")
    func explicitLanguage() {
        let localizer = Localizer(environment: ["LANG": "ja_JP.UTF-8"], searchSystem: false)
        #expect(localizer.language == "ja")
        localizer.setLanguages(["ru_RU"])
        #expect(localizer.language == "ru")
        Localization.withLocalizer(localizer) { #expect(Announcements.over(nil, .copy) == "Не над местом для переноса.") }
        localizer.setLanguages(nil)
        #expect(localizer.language == "ja")
    }

    @Test("L1: an app overrides one sentence, in every language or in one, and keeps the rest")
    func override() throws {
        let localizer = MOFixtures.localizer("ko")
        localizer.override(.overCopy, with: "{destination}에 복사하려면 놓으세요.")
        localizer.override(.overMove, with: "Drop to move into {destination}.", language: "en")
        try Localization.withLocalizer(localizer) {
            let h = try DragHarness(scene: EngineFixtures.photosScene())
            try h.pickUp(["beach"])
            h.key(.nextDropPoint)
            #expect(h.engineAnnouncements() == [
                "‘Beach’을(를) 집었습니다. 놓을 수 있는 곳이 5군데 있습니다. Tab 키로 고르세요.", "Trips에 복사하려면 놓으세요.",
            ])
            h.key(.cancel)
            try h.finish()
            // The English override is not used in Korean.
            #expect(Announcements.over("Work", .move) == "Work 위: 놓으면 이동됩니다.")
        }
        localizer.setLanguages(["en"])
        Localization.withLocalizer(localizer) {
            #expect(Announcements.over("Work", .move) == "Drop to move into Work.")
            #expect(Announcements.over("Work", .copy) == "Work에 복사하려면 놓으세요.")
        }
        localizer.override(.overCopy, with: nil)
        Localization.withLocalizer(localizer) { #expect(Announcements.over("Work", .copy) == "Over Work, will copy.") }
    }

    @Test("L1: an app adds a language (Esperanto) and rewords one Korean sentence from a catalog directory of its own")
    func addedDirectory() throws {
        let esperanto = MOFixtures.mo([
            MOFixtures.header("nplurals=2; plural=(n != 1);", language: "eo"),
            ("Over {destination}, will copy.", "Super {destination}: kopios."),
            ("noun\u{04}{count} photo\0{count} photos", "{count} foto\0{count} fotoj"),
            ("Picked up {items}.", "Prenis {items}."),
        ], bigEndian: true)
        let korean = MOFixtures.mo([("Not over a drop point.", "놓을 곳이 아닙니다.")])
        let directory = try MOFixtures.catalogDirectory(["eo": esperanto, "ko": korean])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let localizer = Localizer(languages: ["eo"], environment: [:], searchSystem: false)
        localizer.addCatalogDirectory(directory)
        #expect(localizer.language == "eo")
        Localization.withLocalizer(localizer) {
            #expect(Announcements.over("Laboro", .copy) == "Super Laboro: kopios.")
            #expect(Announcement.pickedUp(count: 3, kind: Noun("photo"), name: "").text == "Prenis 3 fotoj.")
            #expect(Announcement.pickedUp(count: 1, kind: Noun("photo"), name: "Strando").text == "Prenis 'Strando'.")
            // What the app's catalog lacks stays English.
            #expect(Announcements.over("Laboro", .move) == "Over Laboro, will move.")
        }
        localizer.setLanguages(["ko"])
        Localization.withLocalizer(localizer) {
            #expect(Announcements.over(nil, .copy) == "놓을 곳이 아닙니다.", "the app's wording comes first")
            #expect(Announcements.over("Work", .copy) == "Work 위: 놓으면 복사됩니다.", "the package's catalog fills in the rest")
        }
    }

    @Test("L1: catalogs under $XDG_DATA_DIRS/locale are found, after the package's")
    func systemDirectory() throws {
        let esperanto = MOFixtures.mo([("Not over a drop point.", "Ne super celo.")])
        let root = try MOFixtures.catalogDirectory(["eo": esperanto])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let share = FileManager.default.temporaryDirectory.appendingPathComponent("dragdrop-xdg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: share) }
        try FileManager.default.moveItem(atPath: root, toPath: share.appendingPathComponent("locale").path)
        let localizer = Localizer(environment: ["LANG": "eo.UTF-8", "XDG_DATA_DIRS": "/nonexistent:\(share.path)"])
        #expect(localizer.language == "eo")
        Localization.withLocalizer(localizer) { #expect(Announcements.over(nil, .copy) == "Ne super celo.") }
    }

    @Test("L1: a broken catalog in an app's directory is ignored with a typed error; the package's catalog speaks")
    func brokenCatalogIgnored() throws {
        var broken = MOFixtures.mo([("Not over a drop point.", "깨진 번역")])
        broken[12] = 0xFF  // the originals table now lies outside the file
        let directory = try MOFixtures.catalogDirectory(["ko": broken])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let localizer = MOFixtures.localizer("ko")
        localizer.addCatalogDirectory(directory)
        Localization.withLocalizer(localizer) {
            #expect(Announcements.over(nil, .copy) == "놓을 수 있는 곳 위가 아닙니다.")
        }
        #expect(localizer.ignoredCatalogs.map(\.error) == [.outOfBounds(offset: 255)])
        #expect(localizer.ignoredCatalogs.first?.path.hasPrefix(directory) == true)
    }

    @Test("L1: malformed .mo files give typed errors, never a crash")
    func malformedCatalogs() {
        let good = MOFixtures.mo([MOFixtures.header("nplurals=1; plural=0;", language: "ko"), ("a", "b")])
        func error(_ bytes: [UInt8]) -> MessageCatalogError? {
            do { _ = try MessageCatalog(bytes: bytes); return nil } catch { return error }
        }
        #expect(error(good) == nil)
        // fuzz-mo's first finding: the empty file (it reported the English plural rule, then a
        // global, as a leak; the rule is now made on use).
        #expect(error([]) == .tooShort(0))
        #expect(error(Array(good.prefix(27))) == .tooShort(27))
        #expect(error([0x12] + good.dropFirst()) == .notACatalog)
        var revision = good
        revision[6] = 1  // major revision 1
        #expect(error(revision) == .unsupportedRevision(0x10000))
        var many = good
        many[8...11] = [0xFF, 0xFF, 0xFF, 0x7F]
        #expect(error(many) == .tooManyEntries(0x7FFF_FFFF))
        var table = good
        table[16...19] = [0xF0, 0xFF, 0xFF, 0xFF]
        #expect(error(table) == .outOfBounds(offset: 0xFFFF_FFF0))
        // The first original's length reaches past the end.
        var length = good
        length[28...31] = [0x00, 0x10, 0x00, 0x00]
        #expect(error(length) == .outOfBounds(offset: 60))
        var notUTF8 = good
        notUTF8[notUTF8.count - 2] = 0xFF  // inside the last translation, "b"
        #expect(error(notUTF8) == .notUTF8(offset: notUTF8.count - 2))
        let badPlural = MOFixtures.mo([MOFixtures.header("nplurals=2; plural=n %;", language: "xx")])
        #expect(error(badPlural) == .pluralForms(.unexpectedToken(offset: 3)))
        let noCount = MOFixtures.mo([MOFixtures.header("plural=n != 1;", language: "xx")])
        #expect(error(noCount) == .pluralForms(.malformedHeader("plural=n != 1;")))
    }

    @Test("L1: a catalog reads the same in both byte orders, with contexts and plural entries")
    func byteOrders() throws {
        let entries: [(key: String, value: String)] = [
            MOFixtures.header("nplurals=3; plural=(n==1 ? 0 : n==2 ? 1 : 2);", language: "xx"),
            ("menu\u{04}Undo", "Annuler"), ("Undo", "Défaire"), ("{count} file\0{count} files", "un\0deux\0plusieurs"),
        ]
        for bigEndian in [false, true] {
            let catalog = try MessageCatalog(bytes: MOFixtures.mo(entries, bigEndian: bigEndian))
            #expect(catalog.count == 3)
            #expect(catalog.translations(of: "Undo", context: "menu") == ["Annuler"])
            #expect(catalog.translations(of: "Undo") == ["Défaire"])
            #expect(catalog.translations(of: "{count} file") == ["un", "deux", "plusieurs"])
            #expect(catalog.pluralRule.count == 3)
            #expect((0...3).map { catalog.pluralRule.form(for: $0) } == [2, 0, 1, 2])
            #expect(catalog.header["Language"] == "xx")
        }
    }

    @Test(
        "L2: plural expressions follow C's precedence and gettext's rules for many languages",
        arguments: [
            ("nplurals=2; plural=(n != 1);", [0: 1, 1: 0, 2: 1, 11: 1]),
            ("nplurals=2; plural=n>1;", [0: 0, 1: 0, 2: 1]),
            ("nplurals=1; plural=0;", [0: 0, 1: 0, 7: 0]),
            ("nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
             [1: 0, 2: 1, 5: 2, 11: 2, 12: 2, 14: 2, 21: 0, 22: 1, 101: 0, 111: 2, 0: 2]),
            ("nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;",
             [0: 0, 1: 1, 2: 2, 3: 3, 10: 3, 11: 4, 99: 4, 100: 5, 102: 5]),
            ("nplurals=3; plural=1 + 2 * 3 - 7 + !n;", [0: 1, 5: 0]),
            ("nplurals=4; plural=(1 + 2) * 3 - 7 + !!n;", [0: 2, 5: 3]),
            ("nplurals=3; plural=n < 2 == 1;", [1: 1, 2: 0]),
            ("nplurals=3; plural=n ? n == 1 ? 1 : 2 : 0;", [0: 0, 1: 1, 4: 2]),
        ] as [(String, [Int: Int])])
    func pluralRules(header: String, forms: [Int: Int]) throws {
        let rule = try PluralRule(header: header)
        for (n, form) in forms { #expect(rule.form(for: n) == form, "\(header) for \(n)") }
    }

    @Test(
        "L2: malformed plural expressions give typed errors",
        arguments: [
            ("n +", PluralRuleError.unexpectedToken(offset: 3)), ("(n", .unexpectedToken(offset: 2)),
            ("n n", .unexpectedToken(offset: 2)), ("n = 1", .unexpectedToken(offset: 2)), ("x", .unexpectedCharacter(offset: 0)),
            ("n ? 1", .unexpectedToken(offset: 5)), ("99999999999999999999", .numberTooLarge(offset: 0)),
            ("", .unexpectedToken(offset: 0)), ("n & 1", .unexpectedToken(offset: 2)), ("-1", .unexpectedToken(offset: 0)),
            (String(repeating: "(", count: 100) + "n" + String(repeating: ")", count: 100), .tooDeep),
            (String(repeating: "!", count: 100) + "n", .tooDeep),
            (Array(repeating: "n", count: 100).joined(separator: "+"), .tooDeep),
            (String(repeating: " ", count: 5000) + "n", .tooLong),
        ] as [(String, PluralRuleError)])
    func malformedPlural(expression: String, error: PluralRuleError) {
        #expect(throws: error) { try PluralRule(header: "nplurals=2; plural=\(expression);") }
    }

    @Test("L2: a division by zero or a form past nplurals gives no form (English's is used), never a trap")
    func divisionByZero() throws {
        let rule = try PluralRule(header: "nplurals=2; plural=n / (n - 1);")
        #expect(rule.form(for: 1) == nil)
        #expect(rule.form(for: 2) == nil, "2 / 1 = 2, past nplurals")
        #expect(rule.form(for: 3) == 1)
        #expect(try PluralRule(header: "nplurals=2; plural=n % 0;").form(for: 5) == nil)
        // A catalog with that rule falls back to the first form.
        let catalog = MessageCatalog(translations: ["{count} file": ["A {count}", "B {count}"]], pluralRule: rule)
        #expect(catalog.translations(of: "{count} file") == ["A {count}", "B {count}"])
    }

    @Test(
        "L2: Korean particles follow the last syllable or digit of the text put before them",
        arguments: [
            ("사진 3장", "을", "사진 3장을"), ("항목 3개", "을", "항목 3개를"), ("항목 3개", "를", "항목 3개를"),
            ("서울", "으로", "서울로"), ("집", "로", "집으로"), ("바다", "으로", "바다로"),
            ("파일", "과", "파일과"), ("사과", "와", "사과와"), ("책", "는", "책은"), ("나무", "가", "나무가"),
            ("‘사진’", "을", "‘사진’을"), ("Trips", "을", "Trips을(를)"), ("Trips", "으로", "Trips(으)로"),
            ("Trips", "이", "Trips이(가)"), ("Milk", "은", "Milk은(는)"), ("Milk", "와", "Milk와(과)"),
            ("파일 1", "을", "파일 1을"), ("파일 2", "을", "파일 2를"), ("10", "을", "10을"), ("파일 7", "로", "파일 7로"),
            ("파일 3", "로", "파일 3으로"), ("", "을", "을(를)"),
        ] as [(String, String, String)])
    func koreanParticles(text: String, particle: String, expected: String) {
        let localizer = MOFixtures.localizer("ko")
        localizer.override(.opened, with: "{destination:\(particle)}")
        #expect(Localization.withLocalizer(localizer) { Announcements.sprang(text) } == expected)
    }

    @Test("L2: a name that reads the other way from its sentence is isolated; one that reads the same way is not")
    func isolates() throws {
        #expect(Announcements.over("Work", .copy) == "Over Work, will copy.")
        #expect(Announcements.over("עבודה", .copy) == "Over \u{2068}עבודה\u{2069}, will copy.")
        #expect(Announcements.over("42", .copy) == "Over 42, will copy.", "no strong direction: nothing to isolate")
        // A name's own bidirectional controls are removed before it is isolated.
        #expect(Announcements.over("\u{202E}עבודה", .copy) == "Over \u{2068}עבודה\u{2069}, will copy.")
        #expect(
            Localization.withLanguage("ja") { Announcements.completed([], .copy, to: "مستندات") }
                == "0個の項目を\u{2068}مستندات\u{2069}にコピーしました。".replacingOccurrences(of: "0個の項目", with: "項目0件"))
        let hebrew = MOFixtures.mo([("Over {destination}, will copy.", "מעל {destination}, יועתק.")])
        let directory = try MOFixtures.catalogDirectory(["he": hebrew])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let localizer = Localizer(languages: ["he"], environment: [:], searchSystem: false)
        localizer.addCatalogDirectory(directory)
        Localization.withLocalizer(localizer) {
            #expect(Announcements.over("Work", .copy) == "מעל \u{2068}Work\u{2069}, יועתק.")
            #expect(Announcements.over("עבודה", .copy) == "מעל עבודה, יועתק.")
        }
        // A failure keeps the isolates the engine put in (its names were cleaned before).
        #expect(
            Localization.withLanguage("ru") { TransferError.io(path: "שלום.txt", reason: "").dropFailure.message }
                == "Не удалось прочитать или записать \u{2068}שלום.txt\u{2069}.")
    }

    @Test("L1, L2: nouns an app names itself are counted in the language's general pattern; English keeps the app's own forms")
    func appNouns() {
        let chore = Noun("errand")
        #expect(chore.counted(3) == "3 errands")
        #expect(Localization.withLanguage("ko") { chore.counted(3) } == "errands 3개")
        #expect(Localization.withLanguage("ja") { chore.counted(3) } == "errands3件")
        #expect(Localization.withLanguage("ru") { chore.counted(3) } == "errands: 3")
        #expect(Localization.withLanguage("ja") { Noun("photo").titled(1) } == "写真1枚")
        #expect(Noun("photo").titled(1) == "Photo")
        #expect(Noun("photo").titled(2) == "2 Photos")
    }

    @Test("L1: sizes, menu titles and transfer errors are translated")
    func otherSentences() {
        #expect(Localization.withLanguage("ru") { ByteCount.format(1_500_000) } == "1.5 МБ")
        #expect(Localization.withLanguage("ru") { ByteCount.format(21) } == "21 байт")
        #expect(Localization.withLanguage("ru") { ByteCount.format(22) } == "22 байта")
        #expect(ByteCount.format(1) == "1 bytes")
        let stack = UndoStack()
        stack.registerIrreversible(named: "Move 'Report' to Thunar")
        #expect(stack.undoMenuItemTitle == "Can't Undo Move 'Report' to Thunar")
        #expect(Localization.withLanguage("ja") { stack.undoMenuItemTitle } == "「Move 'Report' to Thunar」は取り消せません")
        #expect(Localization.withLanguage("ko") { UndoStack().redoMenuItemTitle } == "다시 실행")
        #expect(
            Localization.withLanguage("ko") { TransferError.malformed(type: "image/png", reason: "bad.").description }
                == "놓은 데이터가 올바른 image/png 형식이 아닙니다: bad.")
    }
}
