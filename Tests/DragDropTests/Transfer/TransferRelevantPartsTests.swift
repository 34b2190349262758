import DragDrop
import Foundation
import Testing

/// A3: a recipient field takes only the name and email of a dropped contact (example 9).
@Suite("Transfer: relevant parts")
struct TransferRelevantPartsTests {
    static let contact = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        N:Lima;Ana;;;\r
        FN:Ana Lima\r
        ORG:Example Co.\r
        EMAIL;TYPE=INTERNET:ana@example.com\r
        TEL;TYPE=CELL:+351 912 345 678\r
        ADR;TYPE=HOME:;;Rua das Flores 12;Lisboa;;1200-195;Portugal\r
        END:VCARD\r

        """

    static func recipient(_ vcard: String) async throws -> String {
        let item = ItemProvider(app: "Contacts", representations: [.text(Fixture.vcard, vcard)])
        let access = droppedData([item])
        let loaded = try await access.load(
            item: 0, accepting: [Fixture.vcard], options: LoadOptions(extract: RelevantParts.recipient))
        guard case .data(let type, let data) = loaded else {
            Issue.record("expected data, got \(loaded)")
            return ""
        }
        #expect(type == Fixture.vcard)
        return String(decoding: data, as: UTF8.self)
    }

    @Test("A3: a dropped contact gives a recipient field exactly \"Name <email>\"")
    func nameAndEmailOnly() async throws {
        let recipient = try await Self.recipient(Self.contact)
        #expect(recipient == "Ana Lima <ana@example.com>")
        #expect(!recipient.contains("Rua") && !recipient.contains("912"))
    }

    @Test("A3: folded vCard lines are unfolded before reading the name and email")
    func foldedLines() async throws {
        let folded = """
            BEGIN:VCARD\r
            VERSION:4.0\r
            FN:Maximilian Alexander \r
             von Humboldt-Sch\r
             ulze\r
            EMAIL:max.humboldt-schulze@exam\r
            \tple.org\r
            ADR:;;Unter den Linden 6;Berlin;;10117;Germany\r
            END:VCARD\r

            """
        #expect(
            try await Self.recipient(folded)
                == "Maximilian Alexander von Humboldt-Schulze <max.humboldt-schulze@example.org>")
    }

    @Test("A3: the preferred email wins over the first one (vCard 3 TYPE=pref and vCard 4 PREF=1)")
    func preferredEmail() async throws {
        let v3 = """
            BEGIN:VCARD
            VERSION:3.0
            FN:Bo Chen
            EMAIL;TYPE=INTERNET,WORK:bo@work.example
            EMAIL;TYPE=INTERNET,HOME,pref:bo@home.example
            END:VCARD
            """
        #expect(try await Self.recipient(v3) == "Bo Chen <bo@home.example>")
        let v4 = """
            BEGIN:VCARD
            VERSION:4.0
            FN:Bo Chen
            EMAIL;TYPE=work:bo@work.example
            EMAIL;PREF=1;TYPE=home:bo@home.example
            END:VCARD
            """
        #expect(try await Self.recipient(v4) == "Bo Chen <bo@home.example>")
        let ranked = """
            BEGIN:VCARD
            VERSION:4.0
            FN:Bo Chen
            EMAIL;PREF=2:second@example.com
            EMAIL:plain@example.com
            EMAIL;TYPE=work;PREF=1:first@example.com
            END:VCARD
            """
        #expect(try await Self.recipient(ranked) == "Bo Chen <first@example.com>")
        let v21 =
            "BEGIN:VCARD\nVERSION:2.1\nFN:Bo Chen\nEMAIL;INTERNET:a@example.com\nEMAIL;INTERNET;PREF:b@example.com\nEND:VCARD\n"
        #expect(try await Self.recipient(v21) == "Bo Chen <b@example.com>")
    }

    @Test("A3: grouped properties (item1.EMAIL, as Apple Contacts writes them) are read")
    func groupedProperties() throws {
        let grouped = """
            BEGIN:VCARD
            VERSION:3.0
            FN:Chloé Martin
            item1.EMAIL;type=INTERNET;type=pref:chloe@example.fr
            item1.X-ABLabel:_$!<Other>!$_
            item2.ADR;type=HOME:;;1 rue de Rivoli;Paris;;75001;France
            END:VCARD
            """
        #expect(try RelevantParts.recipient(fromVCard: grouped) == "Chloé Martin <chloe@example.fr>")
    }

    @Test("A3: vCard escapes in the name are decoded, and a name with a comma is quoted so it stays one recipient")
    func escapedName() throws {
        let card = """
            BEGIN:VCARD
            VERSION:3.0
            FN:Smith\\, Jr. John
            EMAIL:john@example.com
            END:VCARD
            """
        #expect(try RelevantParts.recipient(fromVCard: card) == "\"Smith, Jr. John\" <john@example.com>")
        let semicolon = """
            BEGIN:VCARD
            FN:R&D\\; Lab
            EMAIL:lab@example.com
            END:VCARD
            """
        #expect(try RelevantParts.recipient(fromVCard: semicolon) == "\"R&D; Lab\" <lab@example.com>")
    }

    @Test("A3: a contact without a name gives just the email")
    func noName() throws {
        let card = "BEGIN:VCARD\nVERSION:3.0\nEMAIL:anon@example.com\nEND:VCARD\n"
        #expect(try RelevantParts.recipient(fromVCard: card) == "anon@example.com")
    }

    @Test("A3: a contact without an email is refused with a typed error saying so")
    func missingEmail() async throws {
        let card = """
            BEGIN:VCARD
            VERSION:3.0
            FN:Dana Noemail
            TEL:+1 555 0100
            ADR:;;1 Main St;Springfield;;;USA
            END:VCARD
            """
        let item = ItemProvider(app: "Contacts", representations: [.text(Fixture.vcard, card)])
        let error = await loadError(
            droppedData([item]), accepting: [Fixture.vcard], options: LoadOptions(extract: RelevantParts.recipient))
        #expect(error == .malformed(type: "text/vcard", reason: "the contact has no email address"))
        #expect(error?.description == "The dropped data is not valid text/vcard: the contact has no email address.")
    }

    @Test("A3: text that is not a vCard, and an invalid email, are typed errors")
    func notAVCard() {
        #expect(throws: TransferError.malformed(type: "text/vcard", reason: "it has no BEGIN:VCARD line")) {
            try RelevantParts.recipient(fromVCard: "FN:Someone\nEMAIL:someone@example.com\n")
        }
        #expect(
            throws: TransferError.malformed(type: "text/vcard", reason: "the email address 'not-an-email' is not valid")
        ) {
            try RelevantParts.recipient(fromVCard: "BEGIN:VCARD\nFN:X\nEMAIL:not-an-email\nEND:VCARD\n")
        }
    }
}
