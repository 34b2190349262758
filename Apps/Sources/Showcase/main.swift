import CGtk4
import DragDropGTK
import Foundation
import Glibc
import ShowcaseModel

// The DragDrop showcase: one window, fifteen situations from the guidelines.
//
//   showcase [--data-dir DIR] [--pane SLUG] [--size WIDTHxHEIGHT] [--title TITLE] [--tour]
//            [--role showcase|page] [--transfer-timeout SECONDS] [--transfer-deadline SECONDS]
//            [--check] [--refresh-every SECONDS] [--big-data on|off] [--loop-report SECONDS]
//
// --data-dir   where the documents live (default: $XDG_DATA_HOME/DragDropShowcase, else
//              ~/.local/share/DragDropShowcase); seeded with example data on first use.
// --pane       the situation shown first: notes, reminders, web-mail, home-screen, photos, mail,
//              calendar, files, contacts-mail, charts, drawing, upload, home-pages, settings, inbox
//              (default: reminders).
// --title      the window's title (default: DragDrop Showcase), to tell two showcases apart
//              (a second one, with its own data, is another app to drag files from).
// --tour       prints the app's state as JSON lines on stdout (see TourOutput) and quits at the
//              end of standard input; `make tour` drives it.
// --role page  opens the "Web Page" window instead (situation 3: its photos offer image/png to
//              other apps, to drag into the showcase's new message); `make run` starts it too.
// --transfer-timeout  a drop from another app fails when nothing arrives for this long
//              (default 15 s); --transfer-deadline: or when it is still arriving after this
//              long (default 60 s). Tests of sources that never answer or trickle shorten them.
// --refresh-every  how often the Mail Inbox checks for mail by itself (default 180 s).
// --big-data   on: the big collections are generated on first run (All Mail's 100,000
//              messages, 20,000 more photos in the Library, the Files pane's Archive of 100,000
//              files); off: not (yet). Default: on, but off with --tour, so the tests that do not
//              need them start as fast as before.
// --loop-report  how often, in --tour mode, the main loop's longest block is printed (default
//              1 s; a stall is printed at once whatever this is). Tests that wait for a report
//              after each of many drops shorten it.
// --check      shows every pane in turn, prints the HIG check's findings for each (K1, K3, K7,
//              K9-K12; see ShowcaseCheck) and quits: status 0 when there are none, 1 otherwise.

struct ShowcaseOptions {
    var dataDirectory = ShowcasePaths.dataDirectory()
    var pane = "reminders"
    var size: (width: Int32, height: Int32) = (1100, 720)
    var title = "DragDrop Showcase"
    var tour = false
    /// "showcase" or "page" (the Web Page window of situation 3, its own process).
    var role = "showcase"
    /// Seconds without bytes before a drop from another app fails (nil: the host's default).
    var transferTimeout: Double?
    /// Seconds a drop from another app may take in all (nil: `DropLoading`'s default).
    var transferDeadline: Double?
    /// `--check`: print the HIG check of every pane and quit.
    var check = false
    /// How often the Mail Inbox (situation 15) refreshes by itself.
    var refreshEvery: Duration = .seconds(180)
    /// `--big-data`: nil for the default (on, off in tour mode).
    var bigDataFlag: Bool?
    /// `--loop-report`: seconds between the main loop's reports in tour mode.
    var loopReportSeconds = 1.0
    /// Whether the big collections are generated (on first run) and shown.
    var bigData: Bool { bigDataFlag ?? !tour }

    /// The default options (no arguments).
    init() {}

    /// Whether `--data-dir` was given: the files dragged out to other apps are then written
    /// under it (`Drag exports`) instead of the user's cache, so a test's data stays in one place.
    var dataDirectoryGiven = false

    var databasePath: String { dataDirectory.appendingPathComponent("showcase.sqlite").path }
    /// Where dragged items are written as files for other apps, when not the default cache.
    var exportsDirectory: URL? {
        dataDirectoryGiven ? dataDirectory.appendingPathComponent("Drag exports", isDirectory: true) : nil
    }

    static let usage = """
        usage: showcase [--data-dir DIR] [--pane SLUG] [--size WIDTHxHEIGHT] [--title TITLE] [--tour] [--role showcase|page]
                        [--transfer-timeout SECONDS] [--transfer-deadline SECONDS] [--check] [--refresh-every SECONDS]
                        [--big-data on|off] [--loop-report SECONDS]
        panes: \(Situation.all.map(\.slug).joined(separator: ", "))
        """

    init(arguments: [String]) throws {
        var rest = arguments.dropFirst()
        func value(_ flag: String) throws -> String {
            guard let v = rest.popFirst() else { throw UsageError("\(flag) needs a value") }
            return v
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--data-dir":
                let path = try value(argument)
                dataDirectory =
                    URL(
                        fileURLWithPath: path, isDirectory: true,
                        relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
                    ).standardizedFileURL
                dataDirectoryGiven = true
            case "--pane":
                pane = try value(argument)
                guard Situation.named(pane) != nil else { throw UsageError("unknown pane '\(pane)'") }
            case "--size":
                let parts = try value(argument).split(separator: "x").compactMap { Int32($0) }
                guard parts.count == 2, parts.allSatisfy({ $0 > 0 }) else { throw UsageError("--size is WIDTHxHEIGHT") }
                size = (parts[0], parts[1])
            case "--title":
                title = try value(argument)
            case "--transfer-timeout", "--transfer-deadline":
                guard let seconds = Double(try value(argument)), seconds > 0 else {
                    throw UsageError("\(argument) is a number of seconds")
                }
                if argument == "--transfer-timeout" { transferTimeout = seconds } else { transferDeadline = seconds }
            case "--loop-report":
                guard let seconds = Double(try value(argument)), seconds >= 0.05, seconds.isFinite else {
                    throw UsageError("--loop-report is a number of seconds, at least 0.05")
                }
                loopReportSeconds = seconds
            case "--tour":
                tour = true
            case "--check":
                check = true
            case "--refresh-every":
                guard let seconds = Double(try value(argument)), seconds > 0, seconds.isFinite else {
                    throw UsageError("--refresh-every is a number of seconds above 0")
                }
                refreshEvery = .milliseconds(Int64(seconds * 1000))
            case "--big-data":
                let flag = try value(argument)
                guard ["on", "off"].contains(flag) else { throw UsageError("--big-data is on or off") }
                bigDataFlag = flag == "on"
            case "--role":
                role = try value(argument)
                guard ["showcase", "page"].contains(role) else { throw UsageError("--role is showcase or page") }
            case "-h", "--help":
                print(Self.usage)
                exit(0)
            default:
                throw UsageError("unknown argument '\(argument)'")
            }
        }
    }
}

struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let options: ShowcaseOptions
do {
    options = try ShowcaseOptions(arguments: CommandLine.arguments)
} catch {
    FileHandle.standardError.write(Data("showcase: \(error)\n\(ShowcaseOptions.usage)\n".utf8))
    exit(2)
}

// The HIG check (`--check`, and the tour's `controls` lines) reads accessible names, which GTK
// keeps only with an accessibility context: on the test drivers' private displays GTK_A11Y is
// "none", so use GTK's in-process test context instead (no bus, nothing left running).
if options.check || options.tour, ProcessInfo.processInfo.environment["GTK_A11Y"] == "none" {
    setenv("GTK_A11Y", "test", 1)
}

let isPage = options.role == "page"
let showcase = ShowcaseWindow(options: options)
let page = WebPageWindow(tour: options.tour, exports: options.exportsDirectory)
if isPage { g_set_prgname("web-page") }
guard let app = gtk_application_new(isPage ? "org.dragdrop.webpage" : "org.dragdrop.showcase", G_APPLICATION_NON_UNIQUE)
else { exit(1) }
GLibMainActorBridge.install()
let quit: @MainActor () -> Void = { g_application_quit(dd_application(app)) }
var checkStatus: Int32 = 0
GSignal.connect(UnsafeMutableRawPointer(app), "activate") {
    // In Hebrew or Arabic the window mirrors (L3) even where the system has no such locale
    // (GTK takes its direction from the locale, the words from LANGUAGE).
    if Localization.current.layoutDirection == .rightToLeft { gtk_widget_set_default_direction(GTK_TEXT_DIR_RTL) }
    if isPage { page.activate(app) } else { showcase.activate(app) }
    if options.check, !isPage {
        ShowcaseCheck.run(showcase) { status in
            checkStatus = status
            quit()
        }
    }
}
GLibSource.onUnixSignal(SIGTERM, quit)
GLibSource.onUnixSignal(SIGINT, quit)
if options.tour {
    // The tour closes our standard input to end the app.
    GLibSource.onEndOfInput(quit)
}
let status = g_application_run(dd_application(app), 0, nil)
exit(status != 0 ? status : checkStatus)
