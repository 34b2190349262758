import Foundation
import DriverProtocol
import WindowDriver

#if canImport(Glibc)
    import Glibc
#endif

extension Tour {
    /// 12. Upload: a video dropped on the channel shows a placeholder with progress at once, then
    /// arrives (in the store too); a second upload is cancelled: the placeholder goes away, a
    /// notice says so, nothing is lost.
    func upload(_ info: SituationInfo) throws -> Verdict {
        let layout = try open("upload")
        let original = try require(app.state, "the upload state").lists
        try checkStore(.upload, equals: original)
        let video = try require(original["Uploads"]?.first, "a video in Uploads")
        let before = original["Channel"] ?? []
        let channel = try layout.list("Channel")
        let channelID = try layout.target("Channel")

        func uploading(_ line: AppLine) -> [StateLine.Upload]? {
            guard let state = line.decode(StateLine.self), state.pane == "upload" else { return nil }
            return state.uploading
        }
        // A4, A5: the placeholder appears at once and its bar advances.
        var mark = app.lineCount
        try pointer.drag(from: try layout.row(video, in: "Uploads").center, to: channel.center)
        try app.waitFor(FeedbackLine.self, "the placeholder on the channel", after: mark) {
            $0.event == "placeholderInserted" && $0.target == channelID
        }
        try app.waitFor("the upload a third done", after: mark) {
            (uploading($0)?.first?.fraction ?? 0) >= 0.33
        }
        try check(
            events(from: mark, named: "placeholderProgress").count >= 2, "A5: the placeholder's progress never advanced"
        )
        try screenshot(String(format: "%02d-%@", info.number, info.slug))
        var expected = original
        expected["Channel"] = before + [video]
        try app.waitForState("'\(video)' uploaded to the channel", after: mark, timeout: 10) { $0.lists == expected }
        try check(
            !events(from: mark, named: "placeholderResolved").isEmpty, "A4: the placeholder was never resolved")
        try checkStore(.upload, equals: expected)
        try settleAfterDrag(mark, pane: "upload")
        // U1: Ctrl+Z takes the upload off the channel (in the store too), Ctrl+Shift+Z puts it back.
        try press("ctrl+z", until: "the undone upload", lists: original, store: .upload)
        try press("ctrl+shift+z", until: "the redone upload", lists: expected, store: .upload)

        // A6: a second upload, cancelled: the placeholder goes away, a notice, nothing lost.
        let now = try app.settledLayout(pane: "upload")
        mark = app.lineCount
        try pointer.drag(from: try now.row(video, in: "Uploads").center, to: try now.list("Channel").center)
        try app.waitFor("the second upload under way", after: mark) {
            (uploading($0)?.first?.fraction ?? 0) >= 0.16
        }
        // Cancelled soon, with about 2.5 s of the upload left: where its Cancel button is once
        // the rows stand still a moment (a slow machine waiting longer for a settled layout saw
        // the upload end first); clicked again if the first click came while it still moved.
        try app.waitForDragEnd(after: mark)
        var answer: StateLine?
        for _ in 0..<3 where answer == nil {
            _ = try app.settledLayout(pane: "upload", quiet: 0.15)
            let cancel = try require(app.latestLayout?.lists["Cancel"], "the Cancel Upload button")
            let click = app.lineCount
            try pointer.click(at: cancel.center)
            answer = try? app.waitFor(StateLine.self, "the cancelled upload", after: click, timeout: 1.5) {
                $0.pane == "upload" && $0.uploading?.isEmpty == true
            }
        }
        let click = mark
        let cancelled = try require(answer, "the upload was not cancelled by its Cancel button")
        try check(
            options.language == nil
                ? cancelled.notice?.hasPrefix("Upload cancelled") == true
                : isSaid(cancelled.notice, "Upload cancelled"),
            "A6: no 'Upload cancelled' notice: \(cancelled.notice ?? "none")")
        try check(!events(from: click, named: "placeholderFailed").isEmpty, "A6: the placeholder did not go away")
        usleep(3_500_000)  // longer than an upload: it must never arrive
        try check(
            app.state?.lists == expected, "the cancelled upload changed the lists: \(app.state?.description ?? "")")
        try checkStore(.upload, equals: expected)

        return .ok(
            "dropped '\(video)' on the channel: a placeholder showed the upload's progress, then it arrived (in "
                + "the store too); Ctrl+Z and Ctrl+Shift+Z took it off and put it back; a second upload was cancelled: the placeholder went away, 'Upload cancelled' "
                + "was shown, and nothing changed")
    }
}
