import Foundation
import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol
import ShowcaseModel

/// Situation 1: two styled notes side by side (DragTextView). Selected text dragged inside a
/// note moves (S2), dragged to the other note it copies keeping bold and italic (A7); the
/// insertion point follows the pointer. Every change is saved to the note's item in the store.
@MainActor
final class NotesPane: ShowcasePane {
    let situation = Situation.named("notes")!
    let widget: UnsafeMutablePointer<GtkWidget>
    var onChange: (@MainActor () -> Void)?
    var onError: (@MainActor (String) -> Void)?

    private let store: ShowcaseStore
    private unowned let host: GtkDragHost
    private let row: UnsafeMutablePointer<GtkWidget>
    /// The notes shown: their store item, title, view and the payload last saved.
    private var notes: [(item: ItemID, title: String, view: DragTextView, saved: NotePayload)] = []
    private var registered = false
    /// Opens a link activated in a note (set by the window in `--tour` mode to print it).
    var onOpenLink: (@MainActor (String) -> Void)?

    init(store: ShowcaseStore, host: GtkDragHost) {
        self.store = store
        self.host = host
        row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 18)
        gtk_box_set_homogeneous(dd_box(UnsafeMutableRawPointer(row)), 1)
        gtk_widget_set_vexpand(row, 1)
        widget = row
    }

    func activate(in window: TargetID) {
        if notes.isEmpty { buildNotes() }
        for note in notes {
            do { try note.view.register(in: window) } catch { onError?("\(error)") }
        }
        registered = true
        onChange?()
    }

    func deactivate() {
        for note in notes {
            host.unregister(note.view.selectionItem)
            host.unregister(note.view.id)
        }
        registered = false
    }

    /// The views keep their own text; undo and redo go through them and are saved on change.
    func reload() { onChange?() }

    private func buildNotes() {
        let items: [ShowcaseItem]
        do {
            guard let collection = try store.collection(pane: .notes, key: "notes"), let id = collection.id else {
                onError?(words("The showcase has no notes."))
                return
            }
            items = try store.items(in: id)
        } catch {
            onError?(Sentence.explaining(words("Could not read the notes"), error))
            return
        }
        // Two notes whose styles the text view shows as they are (bold and italic).
        let shown = items.filter { item in
            guard let payload = Self.payload(of: item) else { return false }
            return payload.runs.allSatisfy { Set($0.styles).isSubset(of: ["bold", "italic", "link"]) }
        }.prefix(2)
        for item in shown {
            guard let id = item.id, let payload = Self.payload(of: item) else { continue }
            let column = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
            UI.append(column, UI.label(item.title, selectable: true, css: ["heading"]))
            let view = DragTextView(
                id: TargetID("note-\(id)"), name: item.title, html: Self.html(of: payload), host: host)
            gtk_widget_set_vexpand(view.widget, 1)
            gtk_widget_add_css_class(view.widget, "card")
            UI.append(column, view.widget)
            UI.append(row, column)
            let index = notes.count
            notes.append((id, item.title, view, Self.payload(fromRuns: view.runs)))
            view.onChange = { [weak self] in self?.changed(index) }
            // With --tour the tour reads which link was opened; nothing is launched.
            if let onOpenLink { view.onOpenLink = onOpenLink }
        }
    }

    /// Saves the note when its text changed (a drop, typing, an undo), then tells the window.
    /// Straight from the view's runs (no HTML in between): a long note costs one pass.
    private func changed(_ index: Int) {
        guard index < notes.count else { return }
        let payload = Self.payload(fromRuns: notes[index].view.runs)
        if payload != notes[index].saved {
            do {
                try store.setPayload(ShowcaseJSON.encode(payload), of: notes[index].item)
                notes[index].saved = payload
            } catch {
                onError?(Sentence.explaining(words("Could not save '{title}'", ["title": notes[index].title]), error))
            }
        }
        if registered { onChange?() }
    }

    // MARK: Note payloads and HTML

    static func payload(of item: ShowcaseItem) -> NotePayload? {
        guard let data = item.payload else { return nil }
        return try? JSONDecoder().decode(NotePayload.self, from: data)
    }

    /// The note as the text view's HTML: each character's bold and italic, runs merged.
    static func html(of note: NotePayload) -> String {
        let scalars = Array(note.text.unicodeScalars)
        var bold = [Bool](repeating: false, count: scalars.count)
        var italic = bold
        var link = [String?](repeating: nil, count: scalars.count)
        for run in note.runs {
            let range = max(0, run.start)..<min(scalars.count, run.start + run.length)
            guard !range.isEmpty else { continue }
            for i in range {
                if run.styles.contains("bold") || run.styles.contains("heading") { bold[i] = true }
                if run.styles.contains("italic") { italic[i] = true }
                if run.styles.contains("link"), let address = run.link.flatMap(StyledHTML.safeLink) {
                    link[i] = address
                }
            }
        }
        var runs: [StyledRun] = []
        for (i, scalar) in scalars.enumerated() {
            if let last = runs.last, last.bold == bold[i], last.italic == italic[i], last.link == link[i] {
                runs[runs.count - 1].text.unicodeScalars.append(scalar)
            } else {
                runs.append(StyledRun(String(scalar), bold: bold[i], italic: italic[i], link: link[i]))
            }
        }
        return StyledHTML.html(from: runs)
    }

    /// The text view's HTML as a note payload (character offsets in Unicode scalars).
    static func payload(fromHTML html: String) -> NotePayload { payload(fromRuns: StyledHTML.runs(fromHTML: html)) }

    /// The text view's runs as a note payload.
    static func payload(fromRuns styledRuns: [StyledRun]) -> NotePayload {
        var text = ""
        var runs: [NotePayload.Run] = []
        var offset = 0
        for run in styledRuns {
            let length = run.text.unicodeScalars.count
            var styles: [String] = []
            if run.bold { styles.append("bold") }
            if run.italic { styles.append("italic") }
            if run.link != nil { styles.append("link") }
            if !styles.isEmpty && length > 0 {
                runs.append(.init(start: offset, length: length, styles: styles, link: run.link))
            }
            text += run.text
            offset += length
        }
        return NotePayload(text: text, runs: runs)
    }

    // MARK: Tour

    /// The most characters of a note whose HTML the state line gives (then "…"): a long note
    /// would make every line long and slow to print.
    static let stateCharacters = 2_000

    /// `lists`: each note's HTML (one entry; its first ``stateCharacters`` characters then "…"
    /// when longer); `lengths`: each note's length in characters; `selected`: each note's
    /// selected text (its start only, likewise).
    func state() -> StateLine {
        let limit = Self.stateCharacters
        func shortened(_ text: String) -> String {
            text.unicodeScalars.count > limit
                ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit))) + "…" : text
        }
        var state = StateLine()
        state.lists = keyed(
            notes.map { note in
                (note.title, [note.view.html(prefix: limit) + (note.view.length > limit ? "…" : "")])
            })
        state.lengths = keyed(notes.map { ($0.title, $0.view.length) })
        state.selected = keyed(notes.map { ($0.title, $0.view.selectedText.map { [shortened($0)] } ?? []) })
        return state
    }

    /// Each note is a list; its words are its rows (window coordinates), for the tour to point at.
    func layout() -> PaneLayout? {
        var layout = PaneLayout()
        for note in notes {
            guard let frame = host.frameInWindow(of: note.view.id), frame.height > 0 else { return nil }
            layout.lists.append((note.title, frame))
            layout.targets.append((note.title, note.view.id))
            var words: [(title: String, frame: Rect)] = []
            // The words shown only: a long note scrolls, and its hidden words have no place on
            // the screen (measuring them all would also block the loop for long).
            let visible = note.view.visibleRange
            let scalars = Array(note.view.text(from: visible.start, to: visible.end).unicodeScalars)
            var start: Int?
            for i in 0...scalars.count {
                let isSpace = i == scalars.count || scalars[i].properties.isWhitespace
                if isSpace, let s = start {
                    let word = String(String.UnicodeScalarView(scalars[s..<i]))
                    let f = note.view.frameOfText(from: visible.start + s, to: visible.start + i)
                    words.append(
                        (word, Rect(x: frame.minX + f.x, y: frame.minY + f.y, width: f.width, height: f.height)))
                    start = nil
                } else if !isSpace, start == nil {
                    start = i
                }
            }
            layout.rows.append((note.title, words))
        }
        return layout
    }
}
