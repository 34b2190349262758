import DragDrop
import DragDropGTK
import DriverProtocol
import Foundation
import WindowDriver
import Testing

/// Autoscroll of the virtualized collection ends with the drag: GtkListView's own drag
/// autoscroll, which stops only on a drag-leave (a drop sends none), must not run beside the
/// engine's (found by `gtk-list-bench`, issue 12).
@Suite(
    "GTK: a virtualized list stops scrolling when the drag ends", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct CollectionViewAutoscrollTests {
    @Test("A1: dropped while held at the archive's bottom edge, the archive stops scrolling at the drop")
    func scrollingStopsAtTheDrop() async throws {
        try await CollectionViewTests.withCollections { app, pointer in
            let layout = try await app.settledSceneLayout()
            let lunch = try layout.frame("inbox/Lunch")
            let archive = try layout.frame("archive")
            // 6 px from the edge: inside the engine's edge zone and inside GtkListView's own
            // (15 px), where both scrolled before.
            let edge = (archive.midX, archive.maxY - 6)
            let mark = app.lineCount
            try pointer.drag(from: (lunch.midX, lunch.midY), to: edge, pause: 1.0, release: false)
            try await CollectionViewTests.waitFor(app, "archive", "the archive scrolled", after: mark) { $0.offset > 300 }
            let before = app.lineCount
            try pointer.release()
            try await app.waitFor(FeedbackLine.self, "the end of the drop", after: before) { $0.event == "outcome" }
            try await CollectionViewTests.waitFor(app, "archive", "Lunch in the archive", after: before) {
                $0.others["Lunch"] != nil
            }
            // The drop's own layout settles; from then on the archive stays where it is.
            try await Task.sleep(for: .milliseconds(500))
            let settled = app.lineCount
            let offset = try #require(app.lines(CollectionLine.self).last { $0.id == "archive" }).offset
            try await Task.sleep(for: .milliseconds(1500))
            let later = app.lines(CollectionLine.self, from: settled).filter { $0.id == "archive" }.map(\.offset)
            #expect(later.allSatisfy { abs($0 - offset) <= 1 }, "the archive scrolled on after the drop: \(offset) then \(later)")
            #expect(!app.eventNames(from: settled).contains("autoscrolled"))
        }
    }
}
