import DragDrop
import Testing

@testable import DragDropGTK

/// A target that asks for a feature its delegate cannot provide is refused at registration with
/// the reason, instead of the feature doing nothing (issue 25). No display needed.
@Suite("GTK: features checked at registration")
@MainActor
struct FeatureCheckTests {
    final class Plain: GtkDragHostDelegate {
        func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult { .committed(undo: nil) }
    }

    final class Springy: GtkSpringLoadingDelegate {
        func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult { .committed(undo: nil) }
        func dragHost(_ host: GtkDragHost, activate control: TargetID, explicit: Bool) {}
    }

    @Test("SP1: a spring-loaded target needs a GtkSpringLoadingDelegate; without one it is refused, saying so")
    func springLoading() throws {
        var button = DragTarget(id: "next", name: "Next", frame: .zero, parent: "window")
        button.springLoading = SpringLoadingConfiguration()
        #expect(throws: GtkDragHostError.self) { try GtkDragHost.checkFeatures(of: button, delegate: Plain()) }
        #expect(throws: GtkDragHostError.self) { try GtkDragHost.checkFeatures(of: button, delegate: nil) }
        try GtkDragHost.checkFeatures(of: button, delegate: Springy())
        do {
            try GtkDragHost.checkFeatures(of: button, delegate: Plain())
        } catch {
            #expect(
                error.description
                    == "Widget target 'next' is spring-loaded, but its delegate does not conform to GtkSpringLoadingDelegate: "
                    + "make it conform, or register the target with a delegate that does.")
        }
        // No feature asked for: any delegate, or none.
        let plain = DragTarget(id: "label", name: "Label", frame: .zero, parent: "window")
        try GtkDragHost.checkFeatures(of: plain, delegate: nil)
        try GtkDragHost.checkFeatures(of: plain, delegate: Plain())
    }

    @Test("M1: a container with model items needs a GtkModelItemsDelegate to name the rows that have no widget")
    func modelItems() throws {
        var list = DragTarget(id: "files", name: "Files", frame: .zero, parent: "window")
        list.modelItems = ModelItems(offers: ["application/x-file"], kind: Noun("file"))
        #expect(throws: GtkDragHostError.self) { try GtkDragHost.checkFeatures(of: list, delegate: Springy()) }
    }
}
