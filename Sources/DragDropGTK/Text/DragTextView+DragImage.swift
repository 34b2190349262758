import CGtk4
import DragDrop

/// The drag image of a text drag: the selected text with its styles, not the whole view (F2).
extension DragTextView {
    public func dragHost(_ host: GtkDragHost, dragImageFor items: [TargetID])
        -> (widget: UnsafeMutablePointer<GtkWidget>, hotspot: (x: Double, y: Double))?
    {
        guard items == [selectionItem], let image = dragImage, let selection = styled.selection else { return nil }
        let width = Double(gtk_widget_get_width(image.widget))
        let height = Double(gtk_widget_get_height(image.widget))
        guard width > 0, height > 0 else { return nil }
        // Held where the press landed on the selected text.
        let start = frameOfText(from: selection.start, to: selection.end)
        let hotspot = (x: min(max(0, pressPoint.x - start.x), width), y: min(max(0, pressPoint.y - start.y), height))
        return (image.widget, hotspot)
    }

    /// Adds the (always laid out, never visible) label that renders the drag image; room on its
    /// right keeps the text clear of the badge the drag image shows there.
    func makeDragImage() {
        let label = GObjectRef(newWidget: gtk_label_new(""))
        gtk_widget_add_css_class(label.widget, "dd-text-drag-image")
        gtk_widget_set_can_target(label.widget, 0)
        GtkWidgetSupport.installCSS(
            ".dd-text-drag-image { background-color: white; padding: 2px 28px 2px 4px; }", key: "dd-text-drag-image",
            for: view.widget)
        // A long selection wraps and stops after a few lines: the image never widens the view
        // (nor its window), and laying it out stays cheap whatever was selected.
        gtk_label_set_wrap(dd_label(label.raw), 1)
        gtk_label_set_max_width_chars(dd_label(label.raw), Self.dragImageWidthChars)
        gtk_label_set_lines(dd_label(label.raw), Int32(Self.dragImageLines))
        gtk_label_set_ellipsize(dd_label(label.raw), PANGO_ELLIPSIZE_END)
        gtk_text_view_add_overlay(dd_text_view(view.raw), label.widget, 0, -100_000)
        dragImage = label
    }

    /// The drag image's text: at most this many characters of the selection, …
    static let dragImageCharacters = 400
    /// … on at most this many lines of at most this many characters.
    static let dragImageLines = 6
    static let dragImageWidthChars: Int32 = 40

    /// Shows the current selection in the drag-image label, so it is laid out before a drag.
    func updateDragImage() {
        guard let image = dragImage else { return }
        var runs: [StyledRun] = []
        if let selection = styled.selection {
            let end = min(selection.end, selection.start + Self.dragImageCharacters)
            runs = styled.runs(from: selection.start, to: end)
            if end < selection.end { StyledHTML.append(StyledRun("…"), to: &runs) }
        }
        gtk_label_set_markup(dd_label(image.raw), StyledHTML.pangoMarkup(from: runs))
    }
}
