import Foundation
import DriverProtocol
import WindowDriver
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Each of the fifteen situations as the tour plays it (`showcase-tour --only SLUG` on its own
/// private Xvfb and a fresh data directory): real pointer events, and a verdict from the app's
/// state lines and its SQLite store — data where it should be, nothing lost, and undo restoring
/// it (see `Sources/showcase-tour`). A situation passes only with an `ok` verdict.
@Suite(
    "Showcase: the fifteen situations, as the tour plays them", .serialized,
    .enabled(
        if: Tools.xvfb != nil && Tools.xdotool != nil,
        "Xvfb or xdotool is not installed (run `make deps`): showcase tests skipped.")
)
struct ShowcaseTourTests: ShowcaseTesting {
    static let situations = [
        "notes", "reminders", "web-mail", "home-screen", "photos", "mail", "calendar", "files", "contacts-mail",
        "charts", "drawing", "upload", "home-pages", "settings", "inbox",
    ]

    @Test(
        "Situations 1-15 (S2, S4, U1, SP1, K4-K10 and each situation's rules): played with real pointer events, the outcome checked in the window and in the store, undo restoring it",
        arguments: situations)
    func situation(_ slug: String) throws {
        try play(slug)
    }

    @Test(
        "L1, L2: the situations whose sentences the tour checks, played with the showcase in Korean, Japanese or Russian (LANGUAGE and a locale of it): the spoken keyboard drag, an outline's refusal, a switch's undo step and a slider's refusal come in that language, worded by the catalogs",
        arguments: [("ko", "reminders"), ("ko", "mail"), ("ko", "settings"), ("ja", "reminders"), ("ru", "files")])
    func situationInAnotherLanguage(_ language: String, _ slug: String) throws {
        try play(slug, language: language)
    }

    @Test(
        "L3, L1: the showcase in Hebrew mirrors (the lists, the sidebar and the flock read from the right; an outline's depth from its right edge; the next page's edge and a swipe back reversed; rows' detail buttons on the left), its words and the library's in Hebrew, the tour's situations passing as in English",
        arguments: ["reminders", "mail", "home-pages", "settings"])
    func situationRightToLeft(_ slug: String) throws {
        try play(slug, language: "he")
    }

    /// Plays situation `slug` with the tour (in `language`, nil: English) and expects `ok`.
    private func play(_ slug: String, language: String? = nil) throws {
        let tour = try Self.showcaseExecutable(named: "showcase-tour")
        let showcase = try Self.showcaseExecutable()
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("showcase-tour-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let log = out.appendingPathComponent("tour.log").path
        let fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try #require(fd >= 0)
        let process = try ChildProcess(
            tour,
            ["--only", slug, "--private-display", "--showcase", showcase, "--out", out.path]
                + (language.map { ["--lang", $0] } ?? []),
            environment: ["DISPLAY": ""], stdout: fd, stderr: fd)
        close(fd)
        let finished = process.wait(timeout: 180)
        if !finished { process.stop() }
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let verdict = output.split(separator: "\n").first { $0.hasPrefix("\(Self.number(slug)) \(slug) ...") }
        #expect(finished, "the tour of \(slug) did not finish within 180 s:\n\(output)")
        #expect(verdict?.contains("... ok (") == true, "\(verdict.map(String.init) ?? "no verdict")\n\(output)")
        #expect(process.exitStatus == 0, "the tour exited with wait status \(process.exitStatus ?? -1)")
        let screenshots = try FileManager.default.contentsOfDirectory(atPath: out.path).filter {
            $0.hasPrefix(Self.number(slug)) && $0.hasSuffix(".png")
        }
        #expect(!screenshots.isEmpty, "the key moment of \(slug) was saved as a screenshot")
    }

    static func number(_ slug: String) -> String {
        let index = (situations.firstIndex(of: slug) ?? -1) + 1
        return index < 10 ? "0\(index)" : "\(index)"
    }
}
