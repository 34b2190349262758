import Foundation
import DriverProtocol
import WindowDriver

#if canImport(Glibc)
    import Glibc
#endif

// The tour: plays each situation of the showcase with real pointer events and checks the
// result in the app's state and in its database.
//
//   showcase-tour [--showcase PATH] [--out DIR] [--private-display] [--wayland] [--keep-data] [--only SLUG,…]
//                 [--browser] [--lang CODE]
//
// --lang ko (ja, ru, he…) runs the showcase with LANGUAGE=CODE and that language's locale in LANG
// (gettext, and the library, read LANGUAGE only when the locale is not C): the library's sentences, menus
// and sheets in that language (the screenshots show them), and every sentence the tour checks
// is expected in it, not in English.
//
// --browser plays situation 3 with a real browser (Chromium, on a page served from 127.0.0.1)
// instead of the showcase's own Web Page window.
//
// Starts a private Xvfb (1280x800x24) when DISPLAY is unset (or with --private-display); with
// --wayland (or DRAGDROP_DISPLAY_BACKEND=wayland) the showcase runs on weston in a private Xvfb,
// launches `showcase --tour` on a fresh data directory, and prints one line per situation:
//
//   02 reminders ... ok (moved 'Oat milk' and 'Lemons' to 'Home' in one drop; …) [4.9 s]
//   01 notes ... pending (Coming with the text view widget (DragTextView).)
//
// A verdict comes from the app's state lines and from reading its SQLite store, never from a
// screenshot existing. The key moment of each played situation (mid-drag: badge and highlight)
// is saved to DIR/NN-slug.png. Exits 1 if a played situation fails, 2 on a usage or setup error.

// MARK: Main (the runner; the tour itself is in Tour.swift, each situation in its own file)

/// Prints a line at once (standard output may be a pipe: `make tour | tee`).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let started = Date()
let options: TourOptions
do {
    options = try TourOptions(arguments: CommandLine.arguments)
} catch {
    FileHandle.standardError.write(Data("showcase-tour: \(error)\n".utf8))
    exit(2)
}
guard FileManager.default.isExecutableFile(atPath: options.showcase) else {
    FileHandle.standardError.write(Data("showcase-tour: no showcase at \(options.showcase) (run `swift build`)\n".utf8))
    exit(2)
}

let display: XDisplay
let environmentDisplay = ProcessInfo.processInfo.environment["DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
do {
    if let name = environmentDisplay, !options.privateDisplay, options.backend == .x11 {
        display = XDisplay.existing(name)
        say("Tour on display \(name)")
    } else if options.backend == .wayland {
        display = try XDisplay.startPrivate(width: 1280, height: 800, backend: .wayland)
        say("Tour on Wayland: weston (desktop shell, 1280x800) in a private Xvfb \(display.name)")
    } else {
        display = try XDisplay.startPrivate(width: 1280, height: 800, backend: .x11)
        say("Tour on a private Xvfb \(display.name) (1280x800x24)")
    }
} catch {
    FileHandle.standardError.write(Data("showcase-tour: \(error)\n".utf8))
    exit(2)
}
defer { display.stop() }

var template = Array("/tmp/showcase-tour-XXXXXX".utf8CString)
guard let made = mkdtemp(&template) else {
    FileHandle.standardError.write(Data("showcase-tour: could not create a data directory\n".utf8))
    exit(2)
}
let dataDirectory = String(cString: made)
try? FileManager.default.createDirectory(atPath: options.out, withIntermediateDirectories: true)
for old in (try? FileManager.default.contentsOfDirectory(atPath: options.out)) ?? [] where old.hasSuffix(".png") {
    try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: options.out).appendingPathComponent(old).path)
}

var failures = 0
var tour: Tour?
do {
    let launchStart = Date()
    // On Wayland GTK draws the title bar inside the window (37 px): as much room for the panes.
    let app = try ShowcaseProcess.launch(
        executable: options.showcase, dataDirectory: dataDirectory, display: display,
        size: display.backend == .wayland ? (1100, 757) : (1100, 720),
        stderrPath: URL(fileURLWithPath: options.out).appendingPathComponent("showcase.log").path,
        extraArguments: ["--refresh-every", String(Tour.refreshEvery)],
        environment: options.languageEnvironment)
    say(String(format: "Showcase ready in %.1f s (data in %@)", Date().timeIntervalSince(launchStart), dataDirectory))
    let t = Tour(
        options: options, display: display, app: app,
        databasePath: URL(fileURLWithPath: dataDirectory).appendingPathComponent("showcase.sqlite").path)
    tour = t
    let line = try app.waitFor(SituationsLine.self, "the situations line")
    let situations = line.items.map { item in
        SituationInfo(
            number: item.number, slug: item.slug, title: item.title, implemented: item.pane == "implemented",
            pending: item.pending)
    }
    if situations.count != 15 { say("warning: the showcase lists \(situations.count) situations, not 15") }
    for info in situations where options.only?.contains(info.slug) ?? true {
        let start = Date()
        let verdict = t.play(info)
        let seconds = String(format: "%.1f s", Date().timeIntervalSince(start))
        let head = String(format: "%02d %@ ...", info.number, info.slug)
        switch verdict {
        case .ok(let detail): say("\(head) ok (\(detail)) [\(seconds)]")
        case .pending(let detail): say("\(head) pending (\(detail)) [\(seconds)]")
        case .failed(let detail):
            failures += 1
            let lines = detail.split(separator: "\n", omittingEmptySubsequences: false)
            say("\(head) FAILED (\(lines.first ?? "")) [\(seconds)]")
            for more in lines.dropFirst() { say("    \(more)") }
        }
    }
    let status = app.quit()
    if status != 0 {
        failures += 1
        say("The showcase did not quit cleanly (wait status \(status ?? -1)); see \(options.out)/showcase.log")
    }
} catch {
    failures += 1
    say("Tour FAILED: \(error)")
}
if let tour, !tour.screenshots.isEmpty {
    say("Screenshots:")
    for path in tour.screenshots { say("  \(path)") }
}
if options.keepData {
    say("Data kept in \(dataDirectory)")
} else {
    try? FileManager.default.removeItem(atPath: dataDirectory)
}
say(
    String(
        format: "Tour finished in %.1f s: %@", Date().timeIntervalSince(started),
        failures == 0 ? "no failures" : "\(failures) FAILED"))
display.stop()
exit(failures == 0 ? 0 : 1)
