import DragDrop
import Testing

/// Names from other apps lose their bidirectional formatting characters, so they read as
/// stored (a right-to-left override made "U+202E gnp.exe" read "exe.png").
@Suite("BidiControls")
struct BidiControlsTests {
    @Test("Every bidirectional control is removed; other text, right-to-left letters included, stays")
    func neutralizes() {
        #expect(BidiControls.neutralized("\u{202E}gnp.exe") == "gnp.exe")
        let all =
            "a\u{200E}b\u{200F}c\u{061C}d\u{202A}e\u{202B}f\u{202C}g\u{202D}h\u{202E}i\u{2066}j\u{2067}k\u{2068}l\u{2069}m"
        #expect(BidiControls.neutralized(all) == "abcdefghijklm")
        #expect(BidiControls.contains(all) && !BidiControls.contains("שלום.txt"))
        #expect(BidiControls.neutralized("שלום.txt") == "שלום.txt")
    }

    @Test("F7: a failure message quoting another app's path reads as stored")
    func failureMessages() {
        let failure = DropFailure(.failed, "/tmp/\u{202E}fdp.exe no longer exists.")
        #expect(failure.message == "/tmp/fdp.exe no longer exists.")
    }

    @Test(
        "L2: a sentence to show keeps the isolates around a name that reads the other way when they close, and loses overrides, marks and every unbalanced isolate"
    )
    func keepsBalancedIsolates() {
        let hebrew = Localization.withLanguage("he") { Announcements.over("Groceries", .move) }
        #expect(hebrew.contains("\u{2068}Groceries\u{2069}"), "the engine isolates the English name: \(hebrew)")
        #expect(BidiControls.keepingIsolates(hebrew) == hebrew)
        #expect(BidiControls.keepingIsolates("\u{202E}gnp.exe") == "gnp.exe")
        #expect(BidiControls.keepingIsolates("a\u{2067}b\u{2069}c\u{200F}") == "a\u{2067}b\u{2069}c")
        // An isolate left open would swallow the rest of the sentence's order: removed; a pop
        // with nothing open is removed too; nested pairs stay.
        #expect(BidiControls.keepingIsolates("\u{2068}x over y") == "x over y")
        #expect(BidiControls.keepingIsolates("x\u{2069} y") == "x y")
        #expect(
            BidiControls.keepingIsolates("\u{2066}a\u{2067}b\u{2069}\u{2069}\u{2068}")
                == "\u{2066}a\u{2067}b\u{2069}\u{2069}")
        #expect(BidiControls.keepingIsolates("plain") == "plain")
    }
}
