import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel

extension Tour {
    /// 9. Contacts and Mail: a contact (offered as a whole vCard) dropped on To: adds exactly
    /// "Name <email>" (A3); Ctrl+Z empties the field again.
    func contactsMail(_ info: SituationInfo) throws -> Verdict {
        let layout = try open("contacts-mail")
        let state = try app.waitForState("the contacts", after: 0) { $0.pane == "contacts-mail" }
        try check(state.lists["To"] == [""], "To: should start empty: \(state.lists["To"] ?? [])")
        let names = try require(state.lists["Contacts"], "the contacts")
        let name = try require(names.first, "a contact")
        let store = try ShowcaseStore(path: databasePath, seed: false)
        let collection = try require(try store.collection(pane: .contacts, key: "all"), "the contacts collection")
        let item = try require(try store.items(in: collection.id ?? 0).first { $0.title == name }, name)
        let card = try JSONDecoder().decode(ContactPayload.self, from: try require(item.payload, "the card"))
        let expected = "\(card.name) <\(card.email)>"

        let field = try layout.list("To")
        let toID = try layout.target("To")
        var mark = app.lineCount
        try pointer.drag(from: try layout.row(name, in: "Contacts").center, to: field.center, release: false)
        try app.waitFor(FeedbackLine.self, "the highlight on To:", after: mark) {
            $0.event == "highlightOn" && $0.target == toID
        }
        usleep(300_000)
        try screenshot(String(format: "%02d-%@", info.number, info.slug))
        try pointer.release()
        try settleAfterDrag(mark, pane: "contacts-mail")
        let to = try app.waitForState("the recipient", after: mark) { ($0.lists["To"] ?? [""]) != [""] }.lists["To"]
        try check(to == [expected], "A3: To: reads \(to ?? []), expected exactly '\(expected)'")
        try check(
            events(from: mark, named: "committed").last?.operation == "copy",
            "S2: the contact was not copied")

        mark = app.lineCount
        try pointer.key("ctrl+z")
        try app.waitForState("the undone drop", after: mark) { $0.lists["To"] == [""] }
        return .ok(
            "dropped '\(name)' on To:, which reads exactly '\(expected)' (no phone or address); Ctrl+Z empties it")
    }
}
