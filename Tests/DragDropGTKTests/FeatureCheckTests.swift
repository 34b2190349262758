import DragDrop
import Testing

@testable import DragDropGTK

/// A spring-loaded target registered without anything to open it is refused at registration,
/// saying why, instead of silently never opening (issue 25). The other features are methods
/// every delegate has (defaults in GtkDragHostFeatures.swift), so there is nothing to check.
/// No display needed.
@Suite("GTK: features checked at registration")
@MainActor
struct FeatureCheckTests {
    final class Springy: GtkSpringLoadingDelegate {
        func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult { .committed(undo: nil) }
        func dragHost(_ host: GtkDragHost, activate control: TargetID, explicit: Bool) {}
    }

    @Test(
        "SP1: a spring-loaded target registered with register(_:as:delegate:) is refused, saying how to register it; with springLoadedBy it is taken"
    )
    func springLoading() throws {
        var button = DragTarget(id: "next", name: "Next", frame: .zero, parent: "window")
        button.springLoading = SpringLoadingConfiguration()
        #expect(throws: GtkDragHostError.self) { try GtkDragHost.checkFeatures(of: button, springLoader: nil) }
        try GtkDragHost.checkFeatures(of: button, springLoader: Springy())
        do {
            try GtkDragHost.checkFeatures(of: button, springLoader: nil)
        } catch {
            #expect(
                error.description
                    == "Widget target 'next' is spring-loaded, but nothing registered with it is a GtkSpringLoadingDelegate: "
                    + "register it with register(_:as:springLoadedBy:) and one.")
        }
        // Not spring-loaded: nothing to open it needed.
        let plain = DragTarget(id: "label", name: "Label", frame: .zero, parent: "window")
        try GtkDragHost.checkFeatures(of: plain, springLoader: nil)
    }
}
