import CGtk4

/// Everything in a text buffer that undo restores: the styled text and the selection.
struct TextSnapshot {
    var runs: [StyledRun]
    /// The selection, or the caret as an empty range.
    var selection: (start: Int, end: Int)
}

/// Styled-text operations on a `GtkTextBuffer` with a "bold" and an "italic" tag. Offsets count
/// Unicode scalars, as GTK's do.
@MainActor
struct StyledBuffer {
    let buffer: UnsafeMutablePointer<GtkTextBuffer>
    let bold: UnsafeMutablePointer<GtkTextTag>
    let italic: UnsafeMutablePointer<GtkTextTag>

    /// Adds the two tags to `buffer`'s tag table.
    init(_ buffer: UnsafeMutablePointer<GtkTextBuffer>) {
        self.buffer = buffer
        bold = Self.makeTag("bold", in: buffer) { tag in
            var value = GValue()
            g_value_init(&value, GType(24))  // G_TYPE_INT
            g_value_set_int(&value, 700)
            g_object_set_property(tag, "weight", &value)
            g_value_unset(&value)
        }
        italic = Self.makeTag("italic", in: buffer) { tag in
            var value = GValue()
            g_value_init(&value, pango_style_get_type())
            g_value_set_enum(&value, Int32(PANGO_STYLE_ITALIC.rawValue))
            g_object_set_property(tag, "style", &value)
            g_value_unset(&value)
        }
    }

    private static func makeTag(
        _ name: String, in buffer: UnsafeMutablePointer<GtkTextBuffer>,
        configure: (UnsafeMutablePointer<GObject>) -> Void
    ) -> UnsafeMutablePointer<GtkTextTag> {
        guard let tag = gtk_text_tag_new(name) else { preconditionFailure("gtk_text_tag_new returned NULL") }
        configure(gtkCast(tag, to: GObject.self))
        gtk_text_tag_table_add(gtk_text_buffer_get_tag_table(buffer), tag)
        g_object_unref(tag)  // the table holds it
        return tag
    }

    // MARK: Positions

    /// The number of characters.
    var count: Int { Int(gtk_text_buffer_get_char_count(buffer)) }

    func iter(at offset: Int) -> GtkTextIter {
        var iter = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &iter, Int32(max(0, min(offset, count))))
        return iter
    }

    func offset(of iter: GtkTextIter) -> Int {
        var copy = iter
        return Int(gtk_text_iter_get_offset(&copy))
    }

    /// The selection's start and end offsets, nil when nothing is selected.
    var selection: (start: Int, end: Int)? {
        var start = GtkTextIter()
        var end = GtkTextIter()
        guard gtk_text_buffer_get_selection_bounds(buffer, &start, &end) != 0 else { return nil }
        return (offset(of: start), offset(of: end))
    }

    /// Selects `start..<end` (a caret when they are equal).
    func select(_ start: Int, _ end: Int) {
        var a = iter(at: start)
        var b = iter(at: end)
        gtk_text_buffer_select_range(buffer, &b, &a)
    }

    /// A mark at `offset` (the caller deletes it with ``deleteMark(_:)``).
    func makeMark(at offset: Int, leftGravity: Bool) -> UnsafeMutablePointer<GtkTextMark>? {
        var at = iter(at: offset)
        return gtk_text_buffer_create_mark(buffer, nil, &at, leftGravity ? 1 : 0)
    }

    func offset(of mark: UnsafeMutablePointer<GtkTextMark>) -> Int {
        var at = GtkTextIter()
        gtk_text_buffer_get_iter_at_mark(buffer, &at, mark)
        return offset(of: at)
    }

    func deleteMark(_ mark: UnsafeMutablePointer<GtkTextMark>) { gtk_text_buffer_delete_mark(buffer, mark) }

    // MARK: Reading

    /// The plain characters of `start..<end`.
    func text(from start: Int, to end: Int) -> String {
        var a = iter(at: start)
        var b = iter(at: end)
        guard let raw = gtk_text_buffer_get_text(buffer, &a, &b, 0) else { return "" }
        defer { g_free(raw) }
        return String(cString: raw)
    }

    /// The styled runs of `start..<end`.
    func runs(from start: Int, to end: Int) -> [StyledRun] {
        var runs: [StyledRun] = []
        var position = start
        while position < end {
            var next = iter(at: position)
            gtk_text_iter_forward_to_tag_toggle(&next, nil)
            let stop = min(max(offset(of: next), position + 1), end)
            let style = self.style(of: position)
            StyledHTML.append(
                StyledRun(
                    text(from: position, to: stop), bold: style.bold, italic: style.italic, link: link(at: position)),
                to: &runs)
            position = stop
        }
        return runs
    }

    /// The style of the character at `offset`.
    func style(of offset: Int) -> (bold: Bool, italic: Bool) {
        var at = iter(at: offset)
        return (gtk_text_iter_has_tag(&at, bold) != 0, gtk_text_iter_has_tag(&at, italic) != 0)
    }

    /// The style text typed at `offset` takes: that of the character before it, else after it.
    func style(at offset: Int) -> (bold: Bool, italic: Bool) {
        if offset > 0 { return style(of: offset - 1) }
        return count > 0 ? style(of: 0) : (false, false)
    }

    /// The caret's offset.
    var cursor: Int {
        guard let insert = gtk_text_buffer_get_insert(buffer) else { return count }
        return offset(of: insert)
    }

    var snapshot: TextSnapshot {
        TextSnapshot(runs: runs(from: 0, to: count), selection: selection ?? (cursor, cursor))
    }

    // MARK: Changing

    /// Inserts `runs` at `offset`: with their own styles when `styled` (rich text, A7), else in
    /// the style of the text around the insertion point. Returns the inserted length.
    @discardableResult
    func insert(_ runs: [StyledRun], at offset: Int, styled: Bool) -> Int {
        let surrounding = style(at: offset)
        var cursor = offset
        for run in runs where !run.text.isEmpty {
            var at = iter(at: cursor)
            gtk_text_buffer_insert(buffer, &at, run.text, -1)
            let end = cursor + run.length
            setStyle(
                from: cursor, to: end, bold: styled ? run.bold : surrounding.bold,
                italic: styled ? run.italic : surrounding.italic)
            if styled, let link = run.link { setLink(link, from: cursor, to: end) }
            cursor = end
        }
        return cursor - offset
    }

    func delete(from start: Int, to end: Int) {
        guard start < end else { return }
        var a = iter(at: start)
        var b = iter(at: end)
        gtk_text_buffer_delete(buffer, &a, &b)
    }

    func setStyle(from start: Int, to end: Int, bold isBold: Bool, italic isItalic: Bool) {
        for (tag, on) in [(bold, isBold), (italic, isItalic)] {
            var a = iter(at: start)
            var b = iter(at: end)
            if on {
                gtk_text_buffer_apply_tag(buffer, tag, &a, &b)
            } else {
                gtk_text_buffer_remove_tag(buffer, tag, &a, &b)
            }
        }
    }

    /// Replaces everything with `snapshot`.
    func restore(_ snapshot: TextSnapshot) {
        delete(from: 0, to: count)
        insert(snapshot.runs, at: 0, styled: true)
        select(snapshot.selection.start, snapshot.selection.end)
    }

    // MARK: Links

    /// Tags named with this prefix and an address mark links (one tag per address).
    static let linkPrefix = "dd-link "

    /// The address the character at `offset` links to, if any.
    func link(at offset: Int) -> String? {
        var at = iter(at: offset)
        guard offset < count, let tags = gtk_text_iter_get_tags(&at) else { return nil }
        defer { g_slist_free(tags) }
        var node: UnsafeMutablePointer<GSList>? = tags
        while let current = node {
            if let tag = current.pointee.data, let name = Self.tagName(tag), name.hasPrefix(Self.linkPrefix) {
                return String(name.dropFirst(Self.linkPrefix.count))
            }
            node = current.pointee.next
        }
        return nil
    }

    /// The range of the link around `offset` (the characters with the same address).
    func linkRange(at offset: Int) -> (start: Int, end: Int, address: String)? {
        guard let address = link(at: offset) else { return nil }
        var start = offset
        while start > 0, link(at: start - 1) == address { start -= 1 }
        var end = offset + 1
        while end < count, link(at: end) == address { end += 1 }
        return (start, end, address)
    }

    /// Makes `start..<end` a link to `address` (blue and underlined, as links are).
    func setLink(_ address: String, from start: Int, to end: Int) {
        guard let table = gtk_text_buffer_get_tag_table(buffer) else { return }
        let name = Self.linkPrefix + address
        let tag =
            gtk_text_tag_table_lookup(table, name)
            ?? Self.makeTag(name, in: buffer) { tag in
                var color = GValue()
                g_value_init(&color, GType(16 << 2))  // G_TYPE_STRING
                g_value_set_string(&color, "#1a5fb4")
                g_object_set_property(tag, "foreground", &color)
                g_value_unset(&color)
                var value = GValue()
                g_value_init(&value, pango_underline_get_type())
                g_value_set_enum(&value, Int32(PANGO_UNDERLINE_SINGLE.rawValue))
                g_object_set_property(tag, "underline", &value)
                g_value_unset(&value)
            }
        var a = iter(at: start)
        var b = iter(at: end)
        gtk_text_buffer_apply_tag(buffer, tag, &a, &b)
    }

    private static func tagName(_ tag: UnsafeMutableRawPointer) -> String? {
        var value = GValue()
        g_value_init(&value, GType(16 << 2))  // G_TYPE_STRING
        defer { g_value_unset(&value) }
        g_object_get_property(tag.assumingMemoryBound(to: GObject.self), "name", &value)
        return g_value_get_string(&value).map { String(cString: $0) }
    }
}
