import DragDrop
import Foundation
import Testing

/// P5: before the drop a destination sees only the offered types; an item can be limited to
/// its own app. P3: nothing is produced before the drop.
@Suite("Transfer: privacy and drop-only access")
struct TransferPrivacyTests {
    /// A chart whose native form never leaves the Charts app, and a PNG anyone may take.
    static func chart(produced: Shared<[String]>) -> ItemProvider {
        ItemProvider(
            app: "Charts",
            representations: [
                Representation(Fixture.chart, visibility: .ownApp, size: Int64(Fixture.chartJSON.count)) {
                    produced.update { $0.append("chart") }
                    return .data(Fixture.chartJSON)
                },
                Representation(.png, size: Int64(Fixture.png.count)) {
                    produced.update { $0.append("png") }
                    return .data(Fixture.png)
                },
            ])
    }

    @Test("P5: offered types are visible before the drop, the data is not")
    func typesBeforeDrop() async throws {
        let produced = Shared<[String]>([])
        let access = DropDataAccess(providers: [Self.chart(produced: produced)], requester: "Charts")
        #expect(!access.isOpen)
        #expect(access.itemCount == 1)
        #expect(access.offeredTypes(item: 0) == [Fixture.chart, .png])
        #expect(access.choice(item: 0, accepting: [.png])?.offered == .png)
        #expect(await loadError(access, accepting: [.png]) == .notDroppedYet)
        #expect(
            TransferError.notDroppedYet.description == "The data is not available before the drop; only its types are.")
        // P3: nothing was produced before the drop.
        #expect(produced.value.isEmpty)

        access.open()
        #expect(access.isOpen)
        #expect(try await access.load(item: 0, accepting: [.png]) == .data(.png, Fixture.png))
        #expect(produced.value == ["png"])
    }

    @Test("P5: after finish() every load is refused")
    func refusedAfterFinish() async throws {
        let produced = Shared<[String]>([])
        let access = droppedData([Self.chart(produced: produced)], requester: "Charts")
        _ = try await access.load(item: 0, accepting: [.png])
        access.finish()
        #expect(!access.isOpen)
        #expect(await loadError(access, accepting: [.png]) == .accessFinished)
        // Opening again does not bring a finished drop back.
        access.open()
        #expect(await loadError(access, accepting: [.png]) == .accessFinished)
        #expect(produced.value == ["png"])
        // Types stay readable: they were never secret.
        #expect(access.offeredTypes(item: 0) == [Fixture.chart, .png])
    }

    @Test("P5: an own-app representation is not offered to another app")
    func ownAppHiddenFromOthers() {
        let produced = Shared<[String]>([])
        let provider = Self.chart(produced: produced)
        #expect(provider.offeredTypes(to: "Mail") == [.png])
        #expect(provider.offeredTypes(to: "Charts") == [Fixture.chart, .png])
        let access = DropDataAccess(providers: [provider], requester: "Mail")
        #expect(access.offeredTypes(item: 0) == [.png])
        #expect(access.choice(item: 0, accepting: [Fixture.chart]) == nil)
    }

    @Test("P5: another app asking for an own-app representation is refused, and it is never produced")
    func ownAppRefusedToOthers() async throws {
        let produced = Shared<[String]>([])
        let access = droppedData([Self.chart(produced: produced)], requester: "Mail")
        let error = await loadError(access, accepting: [Fixture.chart])
        #expect(error == .ownAppOnly(type: "application/x-dragdrop-chart"))
        #expect(error?.dropFailure.code == .failed)
        // Accepting both, the other app gets the image, not the chart.
        #expect(try await access.load(item: 0, accepting: [Fixture.chart, .png]) == .data(.png, Fixture.png))
        #expect(produced.value == ["png"])
    }

    @Test("P5: the refusal names the own-app representation the destination could have used")
    func refusalNamesTheRightType() async throws {
        let photo = ItemProvider(
            app: "Photos",
            representations: [
                .data("application/x-photos-edit-session", Data("{}".utf8), visibility: .ownApp),
                .data("image/heic", Data("heic".utf8), visibility: .ownApp),
                .data(.jpeg, Fixture.jpeg),
            ])
        let access = droppedData([photo], requester: "Mail")
        #expect(await loadError(access, accepting: ["image/heic"]) == .ownAppOnly(type: "image/heic"))
        // Through a conversion too: an own-app chart that only a conversion would turn into a PNG.
        let chart = ItemProvider(
            app: "Charts", representations: [.data(Fixture.chart, Fixture.chartJSON, visibility: .ownApp)])
        let converting = droppedData([chart], chooser: RepresentationChooser(conversions: [Fixture.chartToPNG]))
        #expect(await loadError(converting, accepting: [.png]) == .ownAppOnly(type: "application/x-dragdrop-chart"))
        // Nothing the destination could use at all: the usual refusal, listing only visible types.
        #expect(
            await loadError(access, accepting: ["text/plain"])
                == .noAcceptableRepresentation(offered: ["image/jpeg"], accepted: ["text/plain"]))
    }

    @Test("P5: the source app itself gets its own-app representation")
    func ownAppServedToItself() async throws {
        let produced = Shared<[String]>([])
        let access = droppedData([Self.chart(produced: produced)], requester: "Charts")
        #expect(
            try await access.load(item: 0, accepting: [Fixture.chart, .png]) == .data(Fixture.chart, Fixture.chartJSON))
        #expect(produced.value == ["chart"])
    }

    @Test("P5: asking for an item that does not exist is a typed error")
    func noSuchItem() async {
        let access = droppedData([])
        #expect(access.offeredTypes(item: 3) == [])
        #expect(await loadError(access, item: 3, accepting: [.png]) == .noSuchItem(3))
    }
}
