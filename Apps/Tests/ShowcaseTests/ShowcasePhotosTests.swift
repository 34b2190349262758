import Foundation
import DriverProtocol
import WindowDriver
import Testing

/// What a person sees in Photos: each tile of the Library shows its photo (a thumbnail drawn
/// from the photo's colour and shape by the data source, `DragCollectionView.Thumbnail`).
@Suite(
    "Showcase: photo thumbnails", .serialized,
    .enabled(
        if: Tools.xvfb != nil && Tools.xdotool != nil && Tools.imageMagickImport != nil,
        "Xvfb, xdotool or ImageMagick is not installed (run `make deps`): showcase tests skipped.")
)
struct ShowcasePhotosTests: ShowcaseTesting {
    /// The thumbnail's hill: the photo's colour darkened (PhotosPane.thumbnail(_:)).
    static func hill(_ hex: UInt32) -> (red: UInt8, green: UInt8, blue: UInt8) {
        (
            UInt8(Double(hex >> 16 & 0xFF) * 0.55), UInt8(Double(hex >> 8 & 0xFF) * 0.6),
            UInt8(Double(hex & 0xFF) * 0.55)
        )
    }

    @Test("F2, P1: every Library tile shows its own photo: the tile of Tram 28 (amber) holds its colours, the tile of Belém tower (blue-grey) its own and not Tram 28's; a sun on both")
    func tilesShowTheirPhotos() throws {
        try withShowcase(pane: "photos") { app, pointer, _ in
            let layout = try app.settledLayout(pane: "photos")
            let tram = try layout.row("Tram 28.jpg", in: "Library")
            let belem = try layout.row("Belém tower.jpg", in: "Library")
            let shot = try Screenshot.capture(pointer.display)
            let amber = Self.hill(0xE8B04A)
            let blueGrey = Self.hill(0x9FB7C9)
            let sun: (red: UInt8, green: UInt8, blue: UInt8) = (255, 244, 200)
            let tramHill = shot.count(amber, in: tram, tolerance: 6)
            let belemHill = shot.count(blueGrey, in: belem, tolerance: 6)
            #expect(tramHill > 300, "Tram 28's tile shows its hill: \(tramHill) pixels in \(tram)")
            #expect(belemHill > 300, "Belém tower's tile shows its hill: \(belemHill) pixels in \(belem)")
            #expect(shot.count(amber, in: belem, tolerance: 6) < 20, "Belém tower's tile is not Tram 28's picture")
            #expect(shot.count(sun, in: tram, tolerance: 6) > 40, "a sun on Tram 28's tile")
            #expect(shot.count(sun, in: belem, tolerance: 6) > 40, "a sun on Belém tower's tile")
        }
    }
}
