import Foundation
import DriverProtocol
import WindowDriver

/// What the GTK tests need beyond WindowDriver's tools: whether they can run, and the fixture.
extension Tools {
    /// Why the GTK suite cannot run here, or nil when it can.
    static var missing: String? {
        xvfb == nil ? "Xvfb is not installed (apt-get install xvfb, or run `make deps`); skipping the GTK tests." : nil
    }

    /// The fixture executable: `$DRAGDROP_GTK_FIXTURE`, else `.build/debug/dragdrop-gtk-fixture`
    /// at the package root (found from this file's path). The tests never build it: `swift test`
    /// and `make test` build every product first.
    static func fixture(filePath: String = #filePath) throws -> String {
        var root = URL(fileURLWithPath: filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }  // Support/, DragDropGTKTests/, Tests/, file
        return try built("dragdrop-gtk-fixture", variable: "DRAGDROP_GTK_FIXTURE", packageRoot: root)
    }
}
