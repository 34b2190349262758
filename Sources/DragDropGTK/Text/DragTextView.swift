import CDragDropGTKSupport
import CGtk4
import DragDrop

/// An editable text view with bold and italic text whose selection drags out and which takes
/// drops at the insertion point under the pointer (C3).
///
/// - Inside the same text view a drag moves the text; to another text view it copies (S2).
/// - A drag offers `text/html` (bold as `<b>`, italic as `<i>`) then plain text (P1); dropped
///   HTML keeps bold and italic, dropped plain text takes the style around the insertion
///   point (A7).
/// - While content hovers, a caret shows where it would land.
/// - The edit menu (secondary click, long press, Shift+F10) lists only the commands that apply
///   (C1, K2); a double click selects a word (GTK's own gesture). Typing, Cut, Paste, Delete and
///   drops are undo steps on the engine's stack, undone with Ctrl+Z and redone with
///   Ctrl+Shift+Z (U1, K2).
///
/// The view is a destination target; its selection is a child item target (on the same
/// widget) that drags only when the press landed on the selected text.
///
/// ```swift
/// let notes = DragTextView(id: "notes", name: "Notes", html: "Buy <b>milk</b>", host: host)
/// gtk_box_append(box, notes.widget)   // the view in its scrolled window
/// try notes.register(in: "main")
/// ```
@MainActor
public final class DragTextView: GtkDragRegistering {
    /// What the view takes from drops, richest first: styled text, plain text, and addresses
    /// (a browser's link, a file manager's files), which become links.
    public static let acceptedTypes: [ContentType] = [.html, .utf8PlainText, .plainText, .uriList, ImageIntake.mozURL]

    /// The most characters the view holds for drops (default ``defaultMaximumLength``; nil: no
    /// limit): a longer drop is refused with the reason, after reading at most a few times that
    /// many bytes. Every change of the text costs time on the main loop in proportion to its
    /// length, so an unbounded drop from another app could freeze the app.
    public var maximumLength: Int? = DragTextView.defaultMaximumLength
    /// 100,000 characters (about 50 pages).
    public static let defaultMaximumLength = 100_000

    /// The view's target identifier.
    public let id: TargetID
    /// The accessible name.
    public let name: String
    /// Called after the text or the selection changed.
    public var onChange: (@MainActor () -> Void)?
    /// Opens a link the person activated (Ctrl+click, or Open Link in the edit menu). Default:
    /// the desktop's handler for the address (`gtk_show_uri`).
    public var onOpenLink: (@MainActor (String) -> Void)?

    unowned let host: GtkDragHost
    let view: GObjectRef
    /// The scrolled window around the view: the text scrolls inside it, so a long text (a
    /// megabyte dropped from another app) never makes the window grow.
    let scroller: GObjectRef
    let styled: StyledBuffer
    /// The range being dragged out of this view, tracked by marks while the text changes.
    var dragRange: (start: UnsafeMutablePointer<GtkTextMark>, end: UnsafeMutablePointer<GtkTextMark>)?
    /// Whether the last primary press landed on the selected text.
    var pressOnSelection = false
    /// Nesting depth of changes the view makes itself (not recorded as typing).
    var programmaticChanges = 0
    /// The buffer as it was after the last change, the "before" of the next undo step.
    var lastSnapshot: TextSnapshot
    /// The typing step still growing, while it is the newest undo step.
    var typing: (step: EditStepBox, undoCount: Int)?
    /// Names the next change made by GTK's own key bindings (Cut, Paste).
    var pendingEditName: String?
    var editMenu: EditMenu?
    /// The capture-phase click gesture that notes where presses land.
    var pressTracker: GObjectRef?
    /// Whether the view took the last double click from GTK (L4), whose gesture then missed a
    /// click: a triple click that follows is done here too.
    var claimedDoubleClick = false
    /// The selection a claimed double or triple click made, made again once the button is up.
    var claimedSelection: (start: Int, end: Int)?
    /// Where the last primary press landed (widget coordinates).
    var pressPoint = (x: 0.0, y: 0.0)
    /// The drag image: the selected text in a label kept inside the view, far above its visible
    /// area, so GTK can render it (F2).
    var dragImage: GObjectRef?
    private var dropCaret: UnsafeMutablePointer<GtkTextMark>?
    /// The input method's composition under way at the caret (its preedit: a dead key's accent
    /// waiting for its letter, Hangul jamo being assembled), empty when none.
    var preedit = ""

    /// The item target that stands for the selected text in drags.
    public var selectionItem: TargetID { TargetID(id.rawValue + ".selection") }

    /// The text view in its scrolled window, to put in a window. It expands both ways; the
    /// text scrolls inside, whatever its length (the window keeps its size).
    public var widget: UnsafeMutablePointer<GtkWidget> { scroller.widget }

    /// The `GtkTextView` itself (the registered target's widget).
    public var textView: UnsafeMutablePointer<GtkWidget> { view.widget }

    /// The plain text.
    public var text: String { styled.text(from: 0, to: styled.count) }
    /// The text as HTML (bold `<b>`, italic `<i>`).
    public var html: String { StyledHTML.html(from: styled.runs(from: 0, to: styled.count)) }
    /// The text as styled runs (bold and italic).
    public var runs: [StyledRun] { styled.runs(from: 0, to: styled.count) }
    /// The HTML of the first `count` characters, cheap whatever the text's length.
    public func html(prefix count: Int) -> String {
        StyledHTML.html(from: styled.runs(from: 0, to: min(count, styled.count)))
    }
    /// The selected text, nil without a selection.
    public var selectedText: String? { styled.selection.map { styled.text(from: $0.start, to: $0.end) } }

    /// Creates a view showing `html` (the subset ``StyledHTML`` reads), managed by `host`.
    public init(id: TargetID? = nil, name: String, html: String, host: GtkDragHost) {
        self.id = id ?? GtkDragHost.uniqueID(name)
        self.name = name
        self.host = host
        view = GObjectRef(newWidget: gtk_text_view_new())
        scroller = GObjectRef(newWidget: gtk_scrolled_window_new())
        let scrolled = dd_scrolled_window(scroller.raw)
        gtk_scrolled_window_set_policy(scrolled, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(scrolled, view.widget)
        gtk_widget_set_vexpand(scroller.widget, 1)
        gtk_widget_set_hexpand(scroller.widget, 1)
        let textView = dd_text_view(view.raw)
        guard let buffer = gtk_text_view_get_buffer(textView) else { preconditionFailure("a text view has a buffer") }
        styled = StyledBuffer(buffer)
        // Every edit is an undo step on the engine's stack (Ctrl+Z reaches it first).
        gtk_text_buffer_set_enable_undo(buffer, 0)
        gtk_text_view_set_wrap_mode(textView, GTK_WRAP_WORD_CHAR)
        for margin in [gtk_text_view_set_left_margin, gtk_text_view_set_right_margin] { margin(textView, 8) }
        gtk_text_view_set_top_margin(textView, 6)
        gtk_widget_add_css_class(view.widget, "dd-text-view")
        dd_accessible_set_label(dd_accessible(view.raw), name)
        styled.insert(StyledHTML.runs(fromHTML: html), at: 0, styled: true)
        styled.select(0, 0)
        lastSnapshot = styled.snapshot
        GtkWidgetSupport.removeBuiltInDropTargets(from: view.widget)
        trackPresses()
        trackChanges()
        interceptClipboardBindings()
        editMenu = EditMenu(attachedTo: view.widget, name: name) { [weak self] in self?.editCommands() ?? [] }
        editMenu?.anchor = { [weak self] in self?.editMenuAnchor() }  // beside the selection (K6)
        makeDragImage()
        trackLinkClicks()
        GSignal.connect(
            view.raw, "preedit-changed",
            pointer: { [weak self] text in
                guard let self else { return }
                self.preedit = text.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
                self.host.diagnose("preedit \"\(self.preedit)\" in \(self.id)")
            })
        if id == nil { host.registerWhenPlaced(self) }
    }

    /// Registers the view (a destination) and its selection (a draggable item) with the host,
    /// inside the registered window `window`.
    public func register(in window: TargetID) throws(GtkDragHostError) {
        var container = DragTarget(id: id, name: name, frame: .zero, parent: window)
        container.accepts = Self.acceptedTypes
        container.insertion = .vertical
        try host.register(view.widget, as: container, delegate: self)
        var selection = DragTarget(id: selectionItem, name: WidgetText.selectedText(in: name), frame: .zero, parent: id)
        selection.offers = [.html, .utf8PlainText]
        selection.kind = Noun("text", plural: "text")
        try host.register(view.widget, as: selection, delegate: self)
        // The drag source must see the press-and-move before the view's own selection gesture.
        host.captureDragSource(of: selectionItem)
        host.groupDragSource(
            of: selectionItem, withGesturesOf: [gtk_gesture_click_get_type(), gtk_gesture_drag_get_type()],
            except: pressTracker.map { [$0.raw] } ?? [])
    }

    /// Replaces the text with `html` (not an undo step).
    public func setHTML(_ html: String) {
        changeProgrammatically {
            styled.delete(from: 0, to: styled.count)
            styled.insert(StyledHTML.runs(fromHTML: html), at: 0, styled: true)
        }
    }

    // MARK: Changes

    /// Runs a change the view makes itself: not recorded as typing; the next undo step starts
    /// from its result.
    func changeProgrammatically(_ body: () -> Void) {
        programmaticChanges += 1
        body()
        programmaticChanges -= 1
        lastSnapshot = styled.snapshot
        typing = nil
        changed()
    }

    /// Tells the app, and keeps the drag image showing the selection.
    func changed() {
        updateDragImage()
        onChange?()
    }

    /// Makes a change the view makes itself and registers it as the undo step `name`.
    func edit(_ name: String, _ body: () -> Void) {
        let before = styled.snapshot
        changeProgrammatically(body)
        let after = lastSnapshot
        host.registerEdit(
            name, in: id, undo: { [weak self] in self?.restore(before) }, redo: { [weak self] in self?.restore(after) })
    }

    /// Puts the buffer back as `snapshot` recorded it (undo and redo).
    func restore(_ snapshot: TextSnapshot) {
        changeProgrammatically { styled.restore(snapshot) }
    }

    /// Shows (or hides, for nil) the caret where a drop would land.
    func showDropCaret(at offset: Int?) {
        guard let offset else {
            if let dropCaret { gtk_text_mark_set_visible(dropCaret, 0) }
            return
        }
        if dropCaret == nil { dropCaret = styled.makeMark(at: offset, leftGravity: false) }
        guard let dropCaret else { return }
        var at = styled.iter(at: styled.nearestClusterBoundary(to: offset))
        gtk_text_buffer_move_mark(styled.buffer, dropCaret, &at)
        gtk_text_mark_set_visible(dropCaret, 1)
    }

    /// The caret position nearest to `x`, `y` in the view's widget coordinates: always between
    /// two characters as a reader sees them (grapheme clusters, L4), never inside one.
    func offset(atWidgetX x: Double, y: Double) -> Int {
        let textView = dd_text_view(view.raw)
        var bufferX: Int32 = 0
        var bufferY: Int32 = 0
        gtk_text_view_window_to_buffer_coords(
            textView, GTK_TEXT_WINDOW_WIDGET, Int32(x.rounded()), Int32(y.rounded()), &bufferX, &bufferY)
        var at = GtkTextIter()
        var trailing: Int32 = 0
        gtk_text_view_get_iter_at_position(textView, &at, &trailing, bufferX, bufferY)
        return styled.nearestClusterBoundary(to: min(styled.offset(of: at) + Int(trailing), styled.count))
    }

    /// The offsets of the first and last characters shown (the text scrolls in its view).
    public var visibleRange: (start: Int, end: Int) {
        let textView = dd_text_view(view.raw)
        var rect = GdkRectangle()
        gtk_text_view_get_visible_rect(textView, &rect)
        var first = GtkTextIter()
        var last = GtkTextIter()
        gtk_text_view_get_iter_at_location(textView, &first, rect.x, rect.y)
        gtk_text_view_get_iter_at_location(textView, &last, rect.x + rect.width, rect.y + rect.height)
        return (styled.offset(of: first), min(styled.count, styled.offset(of: last) + 1))
    }

    /// The plain characters `start..<end`.
    public func text(from start: Int, to end: Int) -> String { styled.text(from: start, to: end) }

    /// The number of characters.
    public var length: Int { styled.count }

    /// The frame of the characters `start..<end` (on their first line) in widget coordinates.
    public func frameOfText(from start: Int, to end: Int) -> (x: Double, y: Double, width: Double, height: Double) {
        let textView = dd_text_view(view.raw)
        var first = styled.iter(at: start)
        var last = styled.iter(at: max(start, end - 1))
        var a = GdkRectangle()
        var b = GdkRectangle()
        gtk_text_view_get_iter_location(textView, &first, &a)
        gtk_text_view_get_iter_location(textView, &last, &b)
        var x: Int32 = 0
        var y: Int32 = 0
        gtk_text_view_buffer_to_window_coords(textView, GTK_TEXT_WINDOW_WIDGET, a.x, a.y, &x, &y)
        return (Double(x), Double(y), Double(b.x + b.width - a.x), Double(a.height))
    }

    /// The offset of the first occurrence of `word`, if any.
    public func offset(of word: String) -> Int? {
        let scalars = Array(text.unicodeScalars)
        let target = Array(word.unicodeScalars)
        guard !target.isEmpty, scalars.count >= target.count else { return nil }
        return (0...(scalars.count - target.count)).first { Array(scalars[$0..<($0 + target.count)]) == target }
    }
}

/// A growing undo step's final state (typing coalesces into one step).
final class EditStepBox {
    var after: TextSnapshot
    init(after: TextSnapshot) { self.after = after }
}
