import Foundation
import DriverProtocol
import WindowDriver
import Testing

/// The files written for other apps (`FileExport`): a photo of the Web Page window dragged onto
/// another app becomes a file in a private cache, written at the drop (P5). What happens to that
/// file depends on where the drag ended: an app that took it may read it long after (P3), so
/// the file stays; an app that refused it never will, so nothing is left behind. The other app
/// is `dragdrop-hostile-source` as a destination, a second process on the same display.
@Suite(
    "Showcase: files written for other apps, kept or removed as the drag ends", .serialized,
    .enabled(
        if: Tools.xvfb != nil && Tools.xdotool != nil,
        "Xvfb or xdotool is not installed (run `make deps`): showcase tests skipped.")
)
struct DragExportTests: ShowcaseTesting {
    @Test(
        "P3, P5, F7: the Web Page's photo dropped on an app that reads and refuses it leaves no drag folder; dropped on one that takes it, its file stays with the photo's bytes"
    )
    func refusedDropLeavesNothing() throws {
        try withDataDirectory { data in
            let display = try XDisplay.startPrivate()
            defer { display.stop() }
            let page = try ShowcaseProcess.launch(
                executable: try Self.showcaseExecutable(), dataDirectory: data, display: display,
                size: (300, 520), at: (0, 0), extraArguments: ["--role", "page"], windowName: "^Web Page$")
            defer { page.stop() }
            let target = try HostileSource.launch(
                executable: try Self.showcaseExecutable(named: "dragdrop-hostile-source"), display: display,
                appName: "picky-app")
            defer { target.stop() }
            let pointer = Pointer(display: display)
            let exports = URL(fileURLWithPath: data).appendingPathComponent("Drag exports")

            /// Drags the photo onto the other app, behaving as `behaviour`; returns the outcome.
            func dropPhoto(_ behaviour: String) throws -> String? {
                var mark = target.lineCount
                try target.send(line: #"{"cmd": "target", "behaviour": "\#(behaviour)"}"#)
                try target.waitFor("the target's behaviour", after: mark) { $0.kind == "target" }
                let beach = try page.settledLayout(pane: "page").list("Beach")
                mark = target.lineCount
                let pageMark = page.lineCount
                try pointer.drag(from: beach.center, to: target.handle, steps: 12, pause: 0.4)
                let read = try target.waitFor("the other app read the drop", after: mark) {
                    $0.kind == "gtk" && $0.json.contains("bytes of")
                }
                let message = read.decode(GtkLine.self)?.message ?? read.json
                #expect(message.hasSuffix("of text/uri-list"), "the other app asked for the file: \(message)")
                let outcome = try page.waitFor(FeedbackLine.self, "the drag's end", after: pageMark, timeout: 10) {
                    $0.event == "outcome"
                }
                _ = try page.waitFor(GtkLine.self, "GTK's drag-end", after: pageMark) { $0.message.hasPrefix("drag-end") }
                return outcome.outcome
            }

            let removedMark = page.lineCount
            let refused = try dropPhoto("refuse")
            #expect(refused == "returnToSource", "F7: a refused drop fails")
            // Said once the folder is gone (GTK's drag-end line comes just before).
            try page.waitFor(GtkLine.self, "the folder removed", after: removedMark) { $0.message.hasPrefix("export removed") }
            let left = (try? FileManager.default.contentsOfDirectory(atPath: exports.path)) ?? []
            #expect(
                left.filter { $0.hasPrefix("drag-") }.isEmpty,
                "the refused drag's folder is removed: \(regularFiles(in: exports)); \(page.messages(from: 0).filter { $0.contains("export") || $0.hasPrefix("drag-") || $0.contains("drop in another") })")
            #expect(regularFiles(in: exports).isEmpty)

            let taken = try dropPhoto("finish")
            #expect(taken?.hasPrefix("handedOff") == true, "the other app took it: \(taken ?? "none")")
            let kept = regularFiles(in: exports)
            #expect(kept.map(\.lastPathComponent) == ["Beach.png"], "P3: the file it took stays")
            let bytes = try Data(contentsOf: try #require(kept.first))
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "the photo's PNG bytes")
            expectNoGLibProblems(page)
            expectNoGLibProblems(target.process)
        }
    }
}
