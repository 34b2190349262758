import CDragDropGTKSupport
import CGtk4
import DragDrop

// The edit menu's details (K6) for text: "Select" picks a whole word, the menu sits beside the
// selection (or the caret) without covering it, and selectable labels get the same menu (Copy,
// Select, Select All) instead of GTK's, which shows commands that do not apply, greyed.

/// Word boundaries in plain text, in Unicode scalar offsets: text selection defaults to whole
/// words (K6).
enum TextWords {
    /// The word at `offset` (the character there, else the one before it: a caret right after a
    /// word), or nil when neither belongs to a word. Words are ICU's (UAX 29, with its
    /// dictionary for Japanese and Chinese, which have no spaces: "東京に行きます" holds 東京,
    /// に, 行き, ます), as a reader of the text's language expects (L4): a Korean eojeol runs
    /// from space to space, particles included ("한국어를"); a hyphen between letters joins a
    /// compound ("кто-нибудь", "Wi-Fi"), while other punctuation («», commas, dashes) ends a
    /// word.
    static func word(at offset: Int, in text: String) -> (start: Int, end: Int)? {
        let scalars = Array(text.unicodeScalars)
        guard !scalars.isEmpty else { return nil }
        let index = min(max(0, offset), scalars.count - 1)
        let units = Array(text.utf16)
        // UTF-16 offsets of every scalar offset, for ICU.
        var unitOffsets = [0]
        unitOffsets.reserveCapacity(scalars.count + 1)
        for scalar in scalars { unitOffsets.append(unitOffsets[unitOffsets.count - 1] + scalar.utf16.count) }
        let locale = scalars.contains(where: isJapaneseOrChinese) ? "ja" : ""
        func segment(_ at: Int) -> (start: Int, end: Int)? {
            guard scalars.indices.contains(at) else { return nil }
            var start: Int32 = 0
            var end: Int32 = 0
            let status = units.withUnsafeBufferPointer {
                dd_icu_word_segment($0.baseAddress, Int32(units.count), Int32(unitOffsets[at]), locale, &start, &end)
            }
            guard status >= dd_icu_word_none_limit(),
                let from = unitOffsets.firstIndex(of: Int(start)), let to = unitOffsets.firstIndex(of: Int(end))
            else { return nil }
            return (from, to)
        }
        guard var word = segment(index) ?? segment(index - 1) else { return nil }
        // A hyphen between two words joins them into one (дефис: "из-за", "Ростов-на-Дону").
        func isHyphen(_ i: Int) -> Bool {
            scalars.indices.contains(i) && (scalars[i] == "-" || scalars[i] == "\u{2010}")
        }
        while isHyphen(word.end), let next = segment(word.end + 1), next.start == word.end + 1 { word.end = next.end }
        while isHyphen(word.start - 1), let previous = segment(word.start - 2), previous.end == word.start - 1 {
            word.start = previous.start
        }
        return word
    }

    /// Kana and Han ideographs: text ICU breaks into words with its Japanese dictionary.
    static func isJapaneseOrChinese(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF66...0xFF9F,
            0x20000...0x3FFFF:
            true
        default: false
        }
    }

    /// The byte index in UTF-8 `text` of scalar offset `offset` (for Pango).
    static func utf8Index(of offset: Int, in text: String) -> Int32 {
        var bytes = 0
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if index >= offset { break }
            bytes += String(scalar).utf8.count
        }
        return Int32(bytes)
    }

    /// The rectangle covering scalars `start..<end` of `layout`'s text (Pango units turned into
    /// pixels), one line tall, or the caret at `start` when the range is empty. Across lines it
    /// spans the layout's width.
    static func rect(of start: Int, to end: Int, in layout: OpaquePointer, text: String) -> Rect {
        var a = PangoRectangle()
        var b = PangoRectangle()
        pango_layout_index_to_pos(layout, utf8Index(of: start, in: text), &a)
        pango_layout_index_to_pos(layout, utf8Index(of: max(start, end - 1), in: text), &b)
        let scale = Double(PANGO_SCALE)
        if end <= start {
            return Rect(x: Double(a.x) / scale, y: Double(a.y) / scale, width: 1, height: Double(a.height) / scale)
        }
        if a.y == b.y {
            let right = max(b.x + b.width, a.x + a.width)
            return Rect(
                x: Double(a.x) / scale, y: Double(a.y) / scale, width: Double(right - a.x) / scale,
                height: Double(a.height) / scale)
        }
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        return Rect(
            x: 0, y: Double(a.y) / scale, width: Double(logical.width) / scale,
            height: Double(b.y + b.height - a.y) / scale)
    }
}

// MARK: Text views

extension DragTextView {
    /// Selects the word at the menu's press, or at the caret (K6: selection by whole words).
    func selectWord(near point: (x: Double, y: Double)?) {
        let offset = point.map { characterOffset(atWidgetX: $0.x, y: $0.y) } ?? styled.cursor
        guard let word = word(at: offset) else { return }
        styled.select(word.start, word.end)
    }

    /// The selection, or the caret, in the view's coordinates: where its edit menu points.
    func editMenuAnchor() -> Rect? {
        let range = styled.selection ?? (styled.cursor, styled.cursor)
        let textView = dd_text_view(view.raw)
        var first = styled.iter(at: range.start)
        var last = styled.iter(at: max(range.start, range.end))
        var a = GdkRectangle()
        var b = GdkRectangle()
        gtk_text_view_get_iter_location(textView, &first, &a)
        gtk_text_view_get_iter_location(textView, &last, &b)
        var ax: Int32 = 0, ay: Int32 = 0, bx: Int32 = 0, by: Int32 = 0
        gtk_text_view_buffer_to_window_coords(textView, GTK_TEXT_WINDOW_WIDGET, a.x, a.y, &ax, &ay)
        gtk_text_view_buffer_to_window_coords(textView, GTK_TEXT_WINDOW_WIDGET, b.x, b.y, &bx, &by)
        if ay == by {
            return Rect(x: Double(ax), y: Double(ay), width: Double(max(1, bx - ax)), height: Double(a.height))
        }
        return Rect(
            x: 0, y: Double(ay), width: Double(gtk_widget_get_width(view.widget)), height: Double(by + b.height - ay))
    }
}

// MARK: Text fields

extension DragEntry {
    /// Selects the word at the menu's press, or at the caret (K6).
    func selectWord(near point: (x: Double, y: Double)?) {
        let at = point.map { self.offset(atWidgetX: $0.x) } ?? Int(gtk_editable_get_position(editable))
        guard let word = TextWords.word(at: at, in: text) else { return }
        gtk_editable_select_region(editable, Int32(word.start), Int32(word.end))
    }

    /// The selection, or the caret, in the field's coordinates: where its edit menu points.
    func editMenuAnchor() -> Rect? {
        guard let area = textArea, let layout = gtk_widget_create_pango_layout(area, text) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let caret = Int(gtk_editable_get_position(editable))
        let range = selection ?? (caret, caret)
        let inArea = TextWords.rect(of: range.start, to: range.end, in: layout, text: text)
        var origin = graphene_point_t(x: Float(inArea.minX), y: 0)
        var inEntry = graphene_point_t()
        guard gtk_widget_compute_point(area, entry.widget, &origin, &inEntry) != 0 else { return nil }
        return Rect(
            x: Double(inEntry.x), y: Double(inEntry.y), width: max(1, inArea.width),
            height: Double(gtk_widget_get_height(area)))
    }
}

// MARK: Labels

/// The edit menu of a selectable label (K3, K6): Copy with a selection, Select (a whole word)
/// and Select All as they apply, beside the selection; GTK's own label menu shows Cut, Paste and
/// Delete greyed, which K6 rules out.
@MainActor
public enum SelectableLabelMenu {
    /// Gives the selectable label `label` the edit menu, named after its text.
    public static func attach(to label: UnsafeMutablePointer<GtkWidget>) {
        let raw = UnsafeMutableRawPointer(label)
        guard dd_is_label(raw) != 0 else { return }
        let text = gtk_label_get_text(dd_label(raw)).map { String(cString: $0) } ?? ""
        let labelBits = PointerBits(raw)
        weak var menuRef: EditMenu?
        let menu = EditMenu(attachedTo: label, name: String(text.prefix(40))) {
            guard let pointer = labelBits.pointer else { return [] }
            return commands(for: pointer, openedAt: menuRef?.openedAt)
        }
        menu.anchor = {
            guard let pointer = labelBits.pointer else { return nil }
            return anchor(of: pointer)
        }
        menuRef = menu
    }

    /// The label's selection as scalar offsets, nil without one.
    static func selection(of raw: UnsafeMutableRawPointer) -> (start: Int, end: Int)? {
        var start: Int32 = 0
        var end: Int32 = 0
        guard gtk_label_get_selection_bounds(dd_label(raw), &start, &end) != 0, start != end else { return nil }
        return (Int(min(start, end)), Int(max(start, end)))
    }

    static func commands(for raw: UnsafeMutableRawPointer, openedAt: (x: Double, y: Double)?) -> [EditCommand] {
        let label = dd_label(raw)
        let text = gtk_label_get_text(label).map { String(cString: $0) } ?? ""
        let count = text.unicodeScalars.count
        guard count > 0 else { return [] }
        let widget = raw.assumingMemoryBound(to: GtkWidget.self)
        let bits = PointerBits(raw)
        var commands: [EditCommand] = []
        let selected = selection(of: raw)
        if let selected {
            commands.append(
                EditCommand("Copy") {
                    var view = String.UnicodeScalarView()
                    view.append(contentsOf: Array(text.unicodeScalars)[selected.start..<selected.end])
                    EditClipboard.copy(text: String(view), from: widget)
                })
        } else {
            commands.append(
                EditCommand("Select") {
                    guard let raw = bits.pointer else { return }
                    let at = openedAt.map { Self.offset(in: raw, atX: $0.x, y: $0.y) } ?? 0
                    guard let word = TextWords.word(at: at, in: text) else { return }
                    gtk_label_select_region(dd_label(raw), Int32(word.start), Int32(word.end))
                })
        }
        if !(selected.map { $0.start == 0 && $0.end == count } ?? false) {
            commands.append(
                EditCommand("Select All") {
                    guard let raw = bits.pointer else { return }
                    gtk_label_select_region(dd_label(raw), 0, -1)
                })
        }
        return commands
    }

    /// The scalar offset of the character at `x`, `y` in the label.
    static func offset(in raw: UnsafeMutableRawPointer, atX x: Double, y: Double) -> Int {
        let label = dd_label(raw)
        guard let layout = gtk_label_get_layout(label) else { return 0 }
        var dx: Int32 = 0
        var dy: Int32 = 0
        gtk_label_get_layout_offsets(label, &dx, &dy)
        var index: Int32 = 0
        var trailing: Int32 = 0
        _ = pango_layout_xy_to_index(
            layout, Int32((x - Double(dx)) * Double(PANGO_SCALE)), Int32((y - Double(dy)) * Double(PANGO_SCALE)),
            &index, &trailing)
        let text = gtk_label_get_text(label).map { String(cString: $0) } ?? ""
        let bytes = Array(text.utf8).prefix(Int(max(0, index)))
        return String(decoding: bytes, as: UTF8.self).unicodeScalars.count
    }

    /// The label's selection in its own coordinates, or nil without one (the menu then points at
    /// the press).
    static func anchor(of raw: UnsafeMutableRawPointer) -> Rect? {
        guard let selected = selection(of: raw), let layout = gtk_label_get_layout(dd_label(raw)) else { return nil }
        let label = dd_label(raw)
        let text = gtk_label_get_text(label).map { String(cString: $0) } ?? ""
        var dx: Int32 = 0
        var dy: Int32 = 0
        gtk_label_get_layout_offsets(label, &dx, &dy)
        let inLayout = TextWords.rect(of: selected.start, to: selected.end, in: layout, text: text)
        return Rect(
            x: inLayout.minX + Double(dx), y: inLayout.minY + Double(dy), width: inLayout.width,
            height: inLayout.height)
    }
}
