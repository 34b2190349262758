import DragDrop
import Foundation
import Testing

/// An app's value: a reminder, in the app's own JSON first, then as its title (text any app
/// takes, and text becomes a reminder).
private struct Reminder: Codable, Sendable, Equatable, Transferable {
    var title: String
    var done = false

    static let type: ContentType = "application/x-test-reminder"

    static var transferRepresentation: TransferRepresentation<Reminder> {
        TransferRepresentation.codable(contentType: type)
        TransferRepresentation.proxy(exporting: \.title) { Reminder(title: $0) }
    }
}

/// A value kept as a file: exported by naming a file, imported from the file the drop saved.
private struct Recording: Sendable, Transferable {
    var bytes: Data
    var importedFrom: String?

    static let type: ContentType = "audio/x-test"
    /// The files imports were given, to check their folders are gone afterwards.
    nonisolated(unsafe) static var seen: [URL] = []

    static var transferRepresentation: TransferRepresentation<Recording> {
        TransferRepresentation.file(
            contentType: type,
            exporting: { recording in
                let url = FileManager.default.temporaryDirectory.appendingPathComponent("recording-\(UUID().uuidString)")
                try recording.bytes.write(to: url)
                return url
            },
            importing: { url in
                seen.append(url)
                return Recording(bytes: try Data(contentsOf: url), importedFrom: url.path)
            })
    }
}

/// Opened access to `providers` for the app "Notes".
private func dropped(_ providers: [ItemProvider], requester: AppID = "Notes") -> DropDataAccess {
    let access = DropDataAccess(providers: providers, requester: requester)
    access.open()
    return access
}

@Suite("Typed values (Transferable)")
struct TransferableTests {
    @Test("P1, P5: a value is offered in the forms it gives, richest first; an app-only form is not shown to other apps")
    func offeredForms() {
        #expect(Reminder.exportedContentTypes == [Reminder.type, .utf8PlainText])
        #expect(Reminder.importedContentTypes == [Reminder.type, .utf8PlainText])
        #expect(URL.importedContentTypes == [.uriList])
        #expect(URL.exportedContentTypes == [.uriList, .utf8PlainText])
        let provider = ItemProvider(app: "Tasks", value: Reminder(title: "Milk"))
        #expect(provider.offeredTypes(to: "Mail") == [Reminder.type, .utf8PlainText])
        struct Secret: Codable, Sendable, Transferable {
            var code: Int
            static var transferRepresentation: TransferRepresentation<Secret> {
                TransferRepresentation.codable(contentType: "application/x-test-secret", visibility: .ownApp)
            }
        }
        #expect(ItemProvider(app: "Tasks", value: Secret(code: 1)).offeredTypes(to: "Mail").isEmpty)
        #expect(ItemProvider(app: "Tasks", value: Secret(code: 1)).offeredTypes(to: "Tasks").count == 1)
    }

    @Test("S1, A2: a dropped value arrives as itself, in its richest form")
    func roundTrip() async throws {
        let reminders = [Reminder(title: "Milk", done: true), Reminder(title: "Bread")]
        let access = dropped(reminders.map { ItemProvider(app: "Tasks", value: $0) }, requester: "Tasks")
        #expect(try await access.values(Reminder.self) == reminders, "done survives: the JSON form was read")
    }

    @Test("A2, A7: text from another app becomes a value through its proxy; HTML is read as its text")
    func fromOtherAppsText() async throws {
        let html = ItemProvider(app: "Browser", representations: [.text(.html, "<p>Buy <b>eggs</b></p>")])
        #expect(try await dropped([html]).value(Reminder.self, item: 0) == Reminder(title: "Buy eggs"))
        #expect(try await dropped([html]).value(String.self, item: 0) == "Buy eggs")
        let list = ItemProvider(app: "Files", representations: [.text(.uriList, "# a comment\r\nhttps://example.com/a\r\n")])
        #expect(try await dropped([list]).value(URL.self, item: 0) == URL(string: "https://example.com/a"))
    }

    @Test("A6: a form whose bytes do not decode gives way to the next one offered")
    func fallsBackToTheNextForm() async throws {
        let broken = ItemProvider(
            app: "Tasks",
            representations: [.data(Reminder.type, Data("{\"title\": 12}".utf8)), .text(.utf8PlainText, "Call Ana")])
        #expect(try await dropped([broken]).value(Reminder.self, item: 0) == Reminder(title: "Call Ana"))
    }

    @Test("A6: when no form works the load fails with the first form's typed error; nothing is returned")
    func typedErrors() async throws {
        let broken = ItemProvider(app: "Tasks", representations: [.data(Reminder.type, Data("not json".utf8))])
        await #expect {
            _ = try await dropped([broken]).value(Reminder.self, item: 0)
        } throws: { error in
            guard case .malformed(let type, _) = error as? TransferError else { return false }
            return type == Reminder.type.mimeType
        }
        let picture = ItemProvider(app: "Photos", representations: [.data(.png, Data([0x89, 0x50]))])
        await #expect(throws: TransferError.noAcceptableRepresentation(
            offered: ["image/png"], accepted: [Reminder.type.mimeType, ContentType.utf8PlainText.mimeType]))
        {
            _ = try await dropped([picture]).value(Reminder.self, item: 0)
        }
        // A drop takes all its items or none.
        let good = ItemProvider(app: "Tasks", value: Reminder(title: "Milk"))
        await #expect(throws: TransferError.self) { _ = try await dropped([good, picture]).values(Reminder.self) }
        // Before the drop only the types can be seen (P5).
        let closed = DropDataAccess(providers: [good], requester: "Tasks")
        await #expect(throws: TransferError.notDroppedYet) { _ = try await closed.value(Reminder.self, item: 0) }
    }

    @Test("P3: a file form is exported from a file and imported from a file of the drop's own, removed afterwards")
    func fileForm() async throws {
        let bytes = Data((0..<100_000).map { UInt8($0 % 251) })
        let access = dropped([ItemProvider(app: "Recorder", value: Recording(bytes: bytes))])
        let recording = try await access.value(Recording.self, item: 0)
        #expect(recording.bytes == bytes)
        let file = try #require(Recording.seen.last)
        #expect(recording.importedFrom == file.path)
        #expect(!FileManager.default.fileExists(atPath: file.deletingLastPathComponent().path), "the import's folder is gone")
    }
}
