import DragDrop
import Foundation
import DriverProtocol
import WindowDriver
import Testing

@testable import DragDropGTK

/// ``ImageIntake/gdk(images:limit:fetcher:)``: the intake of destinations that show pictures
/// judges each form with ``DroppedImage``'s checks (no decoding, no display) and, when no form
/// holds a picture it can show, fails with DroppedImage's own reason, which the person reads.
@MainActor
@Suite("ImageIntake for GTK: a refused picture says why")
struct ImageIntakeGDKTests {
    static let good = TestImage.png(width: 64, height: 48, seed: 2)

    /// Another app's item offering `representations`, open as after the drop.
    func drop(_ representations: [Representation]) -> DropDataAccess {
        let access = DropDataAccess(
            providers: [ItemProvider(app: "other", representations: representations)], requester: "Showcase")
        access.open()
        return access
    }

    func failure(_ representations: [Representation]) async -> TransferError? {
        do throws(TransferError) {
            _ = try await ImageIntake.gdk(images: [.png, .jpeg]).load(from: drop(representations))
            return nil
        } catch {
            return error
        }
    }

    /// `png` with the size its header declares changed (its checksum then no longer matches:
    /// the size is judged first).
    static func declaring(_ width: UInt32, _ height: UInt32, _ png: Data) -> Data {
        var data = png
        for (offset, value) in [(16, width), (20, height)] {
            for i in 0..<4 { data[offset + i] = UInt8((value >> (24 - 8 * UInt32(i))) & 0xFF) }
        }
        return data
    }

    @Test("A6: a whole PNG is taken, as it came")
    func goodPicture() async throws {
        let image = try await ImageIntake.gdk(images: [.png, .jpeg]).load(from: drop([.data(.png, Self.good)]))
        #expect(image.type == .png && image.data == Self.good && image.origin == .image)
    }

    @Test(
        "A6: a PNG cut short, one with a corrupt chunk, a signature and noise, and one declaring 30,000 × 30,000 pixels are refused with DroppedImage's reason"
    )
    func reasons() async {
        var corrupt = Self.good
        corrupt[corrupt.count - 30] ^= 0xFF
        let cases: [(String, Data, DroppedImage.Problem)] = [
            (
                "cut short", Self.good.prefix(60) + Data(repeating: 0x5A, count: 40),
                .damaged("it is cut short in its IDAT chunk")
            ),
            ("corrupt", corrupt, .damaged("its IDAT chunk is corrupt")),
            ("noise", Self.good.prefix(8) + Data("thirteen byte".utf8), .noHeader(format: "PNG")),
            ("bomb", Self.declaring(30_000, 30_000, Self.good), .tooLarge(width: 30_000, height: 30_000)),
        ]
        for (name, bytes, problem) in cases {
            #expect(DroppedImage.problem(bytes, type: .png) == problem, "\(name)")
            let error = await failure([.data(.png, bytes)])
            #expect(
                error == .malformed(type: "image/png", reason: problem.clause), "\(name): \(String(describing: error))")
        }
        #expect(DroppedImage.Problem.tooLarge(width: 30_000, height: 30_000).clause.contains("30,000 × 30,000"))
        #expect(
            DropLoading.refusal(.photo, DroppedImage.Problem.damaged("its IDAT chunk is corrupt").clause).message
                == "The photo was not added: it is damaged (its IDAT chunk is corrupt).")
    }

    @Test("A6: a damaged PNG among a browser's forms is the reason given, not the forms holding no picture")
    func reasonAmongForms() async {
        let cut = Self.good.prefix(60) + Data(repeating: 0x5A, count: 40)
        let error = await failure([
            .data(.octetStream, cut), .text(.html, "<p>no picture here</p>"),
        ])
        #expect(
            error
                == .malformed(
                    type: "image/png", reason: DroppedImage.Problem.damaged("it is cut short in its IDAT chunk").clause)
        )
    }
}
