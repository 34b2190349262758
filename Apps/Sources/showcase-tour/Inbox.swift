import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel

#if canImport(Glibc)
    import Glibc
#endif

extension Tour {
    /// How often the tour's showcase checks for mail by itself (`--refresh-every`).
    static let refreshEvery = 9.0

    /// 15. Mail Inbox: a pull from the inbox's empty area past its top shows the refresh control
    /// and fetches the oldest waiting message (in the store); wheel steps past the top fetch the
    /// next; To: takes a contact from its button ("Name <email>", as a dropped contact gives) and
    /// still takes typing, saved; a message dragged to Archive moves without refreshing; the
    /// inbox checks by itself on its schedule.
    func inbox(_ info: SituationInfo) throws -> Verdict {
        let pane = "inbox"
        var layout = try open(pane)
        let start = try require(stateObject(pane), "the inbox's state")
        let waiting = start.waiting ?? 0
        try check(waiting >= 3, "messages wait on the server: \(waiting)")
        let original = try require(app.state, "the state").lists
        try checkStore(.inbox, equals: original.filter { $0.key != "To" })
        let store = try ShowcaseStore(path: databasePath, seed: false)
        let server = try require(try store.collection(pane: .inbox, key: "server"), "the server")
        let arriving = try store.items(in: server.id ?? 0).map(\.title)

        // K8: a pull from the empty area below the messages, down past the top.
        let list = try layout.list("Messages")
        let empty = (list.midX, list.maxY - 30)
        var mark = app.lineCount
        try pointer.drag(from: empty, to: (empty.0, empty.1 + 110), steps: 8, release: false)
        try waitForStateObject(pane, "the control pulled out", after: mark) { ($0.pulled ?? 0) >= 64 }
        try pointer.release()
        try waitForStateObject(pane, "a check for mail", after: mark) {
            $0.refreshing == true && $0.trigger == "pull"
        }
        usleep(150_000)
        try screenshot(String(format: "%02d-%@", info.number, info.slug))
        var lists = try app.waitForState("the first waiting message in the inbox", after: mark) {
            $0.lists["Inbox"]?.first == arriving[0]
        }.lists
        try checkStore(.inbox, equals: lists.filter { $0.key != "To" })
        try check(events(from: mark, named: "lifted").isEmpty, "K8: the pull started no content drag")
        try waitForStateObject(pane, "the check ending", after: mark) { $0.refreshing == false }

        // Wheel steps up past the top fetch the next one.
        usleep(300_000)
        mark = app.lineCount
        for _ in 0..<4 { try pointer.click(at: (list.midX, list.y + 30), button: 4) }
        try waitForStateObject(pane, "a check by scrolling", after: mark) { $0.trigger == "scroll" }
        lists = try app.waitForState("the second waiting message in the inbox", after: mark) {
            $0.lists["Inbox"]?.first == arriving[1]
        }.lists
        try waitForStateObject(pane, "the check ending", after: mark) { $0.refreshing == false }

        // K5: the contact-add button adds "Name <email>"; the field still takes typing.
        layout = try app.settledLayout(pane: pane)
        let contacts = try require(try store.collection(pane: .contacts, key: "all"), "the contacts")
        let first = try require(try store.items(in: contacts.id ?? 0).first, "a contact")
        let card = try require(first.payload(as: ContactPayload.self), "the card")
        let recipient = "\(card.name) <\(card.email)>"
        mark = app.lineCount
        try pointer.click(at: try layout.list("Add Contact").center)
        let picker = try app.waitFor(PickerLine.self, "the contact list", after: mark)
        // Printed in window coordinates, as the layout's frames: the window's place plus its surface.
        let surface = app.last(LayoutLine.self)?.surface ?? [0, 0]
        let row = try require(
            picker.frames[card.name]?.map {
                ScreenRect($0, from: (app.window.x + surface[0], app.window.y + surface[1]))
            },
            "\(card.name) in the contact list")
        mark = app.lineCount
        try pointer.click(at: row.center)
        try app.waitForState("the picked contact in To:", after: mark) { $0.lists["To"] == [recipient] }
        mark = app.lineCount
        try pointer.type(", lee@example.org")
        let typed = recipient + ", lee@example.org"
        try app.waitForState("the typed address", after: mark) { $0.lists["To"] == [typed] }
        try screenshot(String(format: "%02d-%@-to", info.number, info.slug))
        try check(try storedSettings("inbox.")["inbox.to"] == typed, "To: is saved")

        // A message dragged to Archive: a move, and no check for mail.
        layout = try app.settledLayout(pane: pane)
        let checks = try require(stateObject(pane)?.refreshes, "the checks")
        let message = try require(lists["Inbox"]?.last, "a message")
        mark = app.lineCount
        try pointer.drag(
            from: try layout.row(message, in: "Inbox").center, to: try layout.list("Archive").center, pause: 0.2)
        try settleAfterDrag(mark, pane: pane)
        lists = try app.waitForState("the message archived", after: mark) { $0.lists["Archive"] == [message] }.lists
        try checkStore(.inbox, equals: lists.filter { $0.key != "To" })
        try check(stateObject(pane)?.refreshes == checks, "K8: the drag did not check for mail")

        // K8: the schedule checks by itself (every \(Self.refreshEvery) s after the last check).
        mark = app.lineCount
        try waitForStateObject(pane, "a check by itself", after: mark, timeout: Self.refreshEvery + 6) {
            $0.trigger == "schedule"
        }
        try app.waitForState("the third waiting message in the inbox", after: mark) {
            $0.lists["Inbox"]?.first == arriving[2]
        }
        return .ok(
            "a pull from the empty area fetched '\(arriving[0])' (no content drag), wheel steps past the top "
                + "'\(arriving[1])', the schedule '\(arriving[2])' by itself; To: took '\(recipient)' from the "
                + "contact-add button and still took typing (saved); '\(message)' dragged to Archive moved without a check"
        )
    }
}
