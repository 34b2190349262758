import DragDrop
import Foundation
import DriverProtocol
import ShowcaseModel
import WindowDriver

#if canImport(Glibc)
    import Glibc
#endif

extension Tour {
    /// 6. Mail: a message dragged onto a mailbox moves there; the read-only Sent mailbox and the
    /// mailbox shown refuse; undo; the spring-loaded Back button (resting a message on it, and a
    /// click); the draft autoscrolls at its bottom edge and stops when the pointer leaves.
    func mail(_ info: SituationInfo) throws -> Verdict {
        let layout = try open("mail")
        let original = try require(app.state, "the mail state").lists
        try checkStore(.mail, equals: original)
        let inbox = try require(original["Inbox"], "Inbox")
        try check(inbox.count >= 2, "Inbox is too short: \(inbox)")
        let archiveID = try layout.target("Archive")
        let archive = try layout.row("Archive", in: "Mailboxes")

        var mark = app.lineCount
        // Pressed near the message's top-left corner and dropped on the right part of the
        // Archive row, the drag image leaves the highlighted row in view.
        let message = try layout.row(inbox[0], in: "Messages")
        try pointer.drag(
            from: (message.x + 24, message.y + 10), to: (archive.maxX - 24, archive.midY), release: false)
        try app.waitFor(FeedbackLine.self, "Archive highlighted as the drop's place", after: mark) {
            $0.event == "outlineDrop" && $0.place == "on" && $0.row == archiveID
        }
        usleep(300_000)
        try screenshot(String(format: "%02d-%@", info.number, info.slug))
        let release = app.lineCount
        try pointer.release()
        var expected = original
        expected["Inbox"] = Array(inbox.dropFirst())
        expected["Archive", default: []].append(inbox[0])
        try app.waitForState("'\(inbox[0])' in Archive", after: release) { $0.lists == expected }
        try checkStore(.mail, equals: expected)
        try settleAfterDrag(mark, pane: "mail")

        // Sent is read-only: a not-allowed badge, the message flies back, nothing changes.
        let now = try app.settledLayout(pane: "mail")
        mark = app.lineCount
        try pointer.drag(
            from: try now.row(inbox[1], in: "Messages").center, to: try now.row("Sent", in: "Mailboxes").center)
        let outcome = try app.waitFor(FeedbackLine.self, "the refused drop's outcome", after: mark) {
            $0.event == "outcome"
        }
        try check(outcome.outcome != "completed", "Sent took a drop")
        try check(
            events(from: mark, named: "preview").contains { $0.badge == "forbidden" },
            "S3: no not-allowed badge over Sent")
        try settleAfterDrag(mark, pane: "mail", flewBack: true)
        try check(
            app.state?.lists == expected, "the refused drop changed the mailboxes: \(app.state?.description ?? "")")

        // The mailbox shown refuses too: its messages are already there.
        mark = app.lineCount
        try pointer.drag(
            from: try now.row(inbox[1], in: "Messages").center, to: try now.row("Inbox", in: "Mailboxes").center)
        let own = try app.waitFor(FeedbackLine.self, "the second refused drop's outcome", after: mark) {
            $0.event == "outcome"
        }
        try check(own.outcome != "completed", "Inbox took its own message")
        try check(
            events(from: mark, named: "preview").contains { $0.badge == "forbidden" },
            "S3: no not-allowed badge over the mailbox shown")
        try settleAfterDrag(mark, pane: "mail", flewBack: true)
        try check(
            app.state?.lists == expected, "the refused drop changed the mailboxes: \(app.state?.description ?? "")")

        try press("ctrl+z", until: "the undone move", lists: original, store: .mail)

        // SP1: open Inbox (its messages replace the mailbox list), rest a message on Back: the
        // mailbox list springs open where it was, and the message is dropped on Archive.
        var opened = try openInbox(try app.settledLayout(pane: "mail"))
        let back = try opened.list("Back")
        let backID = try opened.target("Back")
        mark = app.lineCount
        let first = try opened.row(inbox[0], in: "Messages")
        try pointer.drag(from: (first.x + 24, first.y + 10), to: back.center, release: false)
        try app.waitFor(FeedbackLine.self, "Back arming", after: mark) {
            $0.event == "springArmed" && $0.target == backID
        }
        try waitForLevel("mailboxes", "the mailbox list springing open", after: mark)
        try check(
            events(from: mark, named: "springActivated").contains { $0.target == backID },
            "SP1: no spring-loading event for Back")
        // The list is back where it was before the mailbox opened: move onto Archive.
        try pointer.move(to: (archive.maxX - 30, archive.midY))
        usleep(60_000)
        try pointer.move(to: (archive.maxX - 24, archive.midY))
        try app.waitFor(FeedbackLine.self, "Archive highlighted after the spring", after: mark) {
            $0.event == "outlineDrop" && $0.place == "on" && $0.row == archiveID
        }
        usleep(300_000)
        try screenshot(String(format: "%02d-%@-back", info.number, info.slug))
        let springRelease = app.lineCount
        try pointer.release()
        try app.waitForState("'\(inbox[0])' in Archive after the spring", after: springRelease) { $0.lists == expected }
        try checkStore(.mail, equals: expected)
        try settleAfterDrag(mark, pane: "mail")
        try press("ctrl+z", until: "the undone move", lists: original, store: .mail)

        // SP2: the same by a click on Back.
        opened = try openInbox(try app.settledLayout(pane: "mail"))
        mark = app.lineCount
        try pointer.click(at: try opened.list("Back").center)
        try waitForLevel("mailboxes", "the mailbox list after a click on Back", after: mark)

        // A1: a paragraph of the draft dragged near its bottom edge scrolls it; leaving stops it.
        let shown = try app.settledLayout(pane: "mail")
        let draft = try shown.list("Draft")
        let startOffset = try draftOffset()
        let paragraph = try require(shown.rows["Draft"]?.first, "the draft's first paragraph")
        mark = app.lineCount
        try pointer.drag(from: paragraph.frame.center, to: (draft.midX, draft.maxY - 24), release: false)
        try app.waitFor(StateLine.self, "the draft scrolling", after: mark) {
            ($0.draftOffset ?? 0) > startOffset + 20
        }
        usleep(250_000)
        try screenshot(String(format: "%02d-%@-draft", info.number, info.slug))
        // Leave the draft (to the message list, which refuses drafts), then check it stopped.
        let messagesFrame = try shown.list("Messages")
        try pointer.move(to: (messagesFrame.midX, messagesFrame.midY))
        usleep(60_000)
        try pointer.move(to: (messagesFrame.midX + 1, messagesFrame.midY))
        usleep(300_000)
        let left = try draftOffset()
        usleep(700_000)
        let later = try draftOffset()
        try check(left > startOffset, "A1: the draft did not scroll (offset \(startOffset) → \(left))")
        try check(later == left, "A1: the draft kept scrolling after the pointer left (\(left) → \(later))")
        try pointer.release()
        try settleAfterDrag(mark, pane: "mail", flewBack: true)
        try check(app.state?.lists == original, "the draft drag changed the mailboxes")

        let tree = try mailboxTree()

        return .ok(
            tree
                + "; moved '\(inbox[0])' to 'Archive' and undid it; 'Sent' refused a drop with a not-allowed badge, and "
                + "so did the mailbox shown; with Inbox open, resting '\(inbox[0])' on Back sprang the mailbox "
                + "list open and it was dropped on 'Archive' (in the store), undone; a click on Back did the same; "
                + "the draft scrolled from \(Int(startOffset)) to \(Int(left)) px at its bottom edge and stopped "
                + "when the pointer left")
    }

    /// T1, T3, T6: the mailboxes are an outline. Receipts (inside Work) dragged onto Archive's
    /// middle goes into it; Work held over 2026, inside it, is refused with the reason; Receipts
    /// dragged to the gap under Drafts with the pointer at the left edge goes to the top level;
    /// undo puts it back into Archive, then inside Work. The store keeps every parent.
    func mailboxTree() throws -> String {
        let start = try require(app.state?.line.mailboxes, "the mailbox outline")
        try checkMailboxes(start)
        var layout = try app.settledLayout(pane: "mail")
        let receipts = try layout.row("Receipts", in: "Mailboxes")
        let archive = try layout.row("Archive", in: "Mailboxes")
        var mark = app.lineCount
        try pointer.drag(from: (receipts.x + 40, receipts.midY), to: (archive.maxX - 24, archive.midY), release: false)
        try app.waitFor(FeedbackLine.self, "Archive as the place Receipts goes into", after: mark) {
            $0.event == "outlineDrop" && $0.place == "on" && $0.row == (try? layout.target("Archive"))
        }
        usleep(300_000)
        try screenshot("06-mail-mailbox-into")
        var release = app.lineCount
        try pointer.release()
        var expected = start.filter { $0 != "  Receipts" }
        expected.insert("  Receipts", at: try require(expected.firstIndex(of: "Archive"), "Archive") + 1)
        try waitForMailboxes(expected, "Receipts inside Archive", after: release)
        try settleAfterDrag(mark, pane: "mail")

        // T3: Work cannot go inside 2026, which is inside it.
        layout = try app.settledLayout(pane: "mail")
        let work = try layout.row("Work", in: "Mailboxes")
        let year = try layout.row("2026", in: "Mailboxes")
        mark = app.lineCount
        try pointer.drag(from: work.center, to: year.center, release: false)
        let reason = said("'Work' cannot go inside '2026', which is inside it.") {
            OutlineRefusal.intoDescendant(item: "Work", descendant: "2026").description
        }
        try app.waitFor(FeedbackLine.self, "Work refused inside 2026", after: mark) {
            $0.event == "proposal" && $0.operation == "forbidden" && $0.reason == reason
        }
        try check(
            events(from: mark, named: "preview").contains { $0.badge == "forbidden" },
            "T3: no not-allowed badge over 2026")
        usleep(300_000)
        try screenshot("06-mail-mailbox-refused")
        try pointer.release()
        try settleAfterDrag(mark, pane: "mail", flewBack: true)
        try checkMailboxes(expected)

        // T1: under Drafts at the left edge, Receipts goes to the top level.
        layout = try app.settledLayout(pane: "mail")
        let moving = try layout.row("Receipts", in: "Mailboxes")
        let drafts = try layout.row("Drafts", in: "Mailboxes")
        mark = app.lineCount
        try pointer.drag(
            from: moving.center, to: (leading(drafts, 8), drafts.maxY - drafts.height / 8), release: false)
        try app.waitFor(FeedbackLine.self, "the line after Drafts at the top level", after: mark) {
            $0.event == "outlineDrop" && $0.place == "between" && $0.parent == nil && $0.depth == 0
        }
        release = app.lineCount
        try pointer.release()
        var topLevel = expected.filter { $0 != "  Receipts" }
        topLevel.insert("Receipts", at: try require(topLevel.firstIndex(of: "Drafts"), "Drafts") + 1)
        try waitForMailboxes(topLevel, "Receipts at the top level", after: release)
        try settleAfterDrag(mark, pane: "mail")

        // T6: undo twice: into Archive, then back inside Work.
        mark = app.lineCount
        try pointer.key("ctrl+z")
        try waitForMailboxes(expected, "Receipts back in Archive", after: mark)
        mark = app.lineCount
        try pointer.key("ctrl+z")
        try waitForMailboxes(start, "Receipts back inside Work", after: mark)
        return "dragged the mailbox 'Receipts' from 'Work' into 'Archive', then to the top level after 'Drafts'; "
            + "'Work' was refused inside '2026' (\(reason)); undone twice, in the store too"
    }

    /// Waits until the mail state's outline is `mailboxes`, then checks the store holds it.
    func waitForMailboxes(_ mailboxes: [String], _ what: String, after mark: Int) throws {
        try app.waitFor(StateLine.self, what, after: mark) { $0.pane == "mail" && $0.mailboxes == mailboxes }
        try checkMailboxes(mailboxes)
    }

    /// Checks that the store's mailboxes, each under its parent in the store's order, read
    /// `mailboxes` (two spaces a level).
    func checkMailboxes(_ mailboxes: [String]) throws {
        let store = try ShowcaseStore(path: databasePath, seed: false)
        let collections = try store.collections(in: .mail)
        let children = Dictionary(grouping: collections, by: \.parentId)
        func walk(_ parent: CollectionID?, _ indent: String) -> [String] {
            (children[parent] ?? []).flatMap { [indent + $0.name] + walk($0.id, indent + "  ") }
        }
        let stored = walk(nil, "")
        try check(stored == mailboxes, "the store's mailboxes are \(stored), the window shows \(mailboxes)")
    }

    /// Clicks Inbox in the mailbox list: its messages show in place of the list.
    func openInbox(_ layout: ShowcaseLayout) throws -> ShowcaseLayout {
        let mark = app.lineCount
        try pointer.click(at: try layout.row("Inbox", in: "Mailboxes").center)
        try waitForLevel("messages", "Inbox opened", after: mark)
        let opened = try app.settledLayout(pane: "mail")
        try check(opened.lists["Mailboxes"] == nil, "the mailbox list still shows with Inbox open")
        return opened
    }

    func waitForLevel(_ level: String, _ what: String, after mark: Int) throws {
        try app.waitFor(StateLine.self, what, after: mark) {
            $0.pane == "mail" && $0.level == level
        }
    }

    /// The draft's scroll offset in the latest mail state line.
    func draftOffset() throws -> Double {
        let line = try require(
            app.lines(StateLine.self).last { $0.pane == "mail" },
            "a mail state line")
        return try require(line.draftOffset, "the draft's offset")
    }
}
