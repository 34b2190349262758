import CGtk4

/// One place where a live window breaks a rule of the controls page (K1-K12).
public struct HIGFinding: Sendable, Hashable, CustomStringConvertible {
    /// The rule's ID in the requirements ("K1", "K10").
    public var rule: String
    /// What is wrong, as a sentence ending with one full stop.
    public var message: String
    /// The widget it is about: its GTK type and the text it shows ("GtkButton 'cancel'").
    public var widget: String

    /// Creates a finding.
    public init(rule: String, message: String, widget: String) {
        self.rule = rule
        self.message = message
        self.widget = widget
    }

    /// The rule ID and the message: "K1: …".
    public var description: String { "\(rule): \(message)" }
}

/// The checks of the controls page that can be read from a window's widget tree, in one place:
/// the showcase's `--check` and `controls` lines and the GTK tests use it.
///
/// ``findings(in:options:)`` walks the visible widgets under a root (a window, a popover) and
/// reports, each with its rule ID:
///
/// - **K1** a button title that is not a short title-case command: more than three words, a
///   word not in title case, closing punctuation, or a first word that is not a command verb
///   (``Options/verbs``). Segments of a linked control (toggle buttons in a `.linked` box) name
///   views and may be nouns; edit-menu items (`dd-menu-item`) are menu commands, not buttons.
/// - **K3** a static label that cannot be selected to copy it (labels inside a control, a row, a
///   tile, a field or one of ``Options/titleContainers`` are titles, not text to copy).
/// - **K7** a page indicator with more than ten pages (any widget with the CSS class
///   `dd-page-control` and its page count under the GObject data key `dd-page-count`, as
///   the page control of this module sets them).
/// - **K9** a slider named for audio volume.
/// - **K10** a switch outside a list row (in a toolbar or header bar, say), and a switch row
///   whose label says "on" or "off".
/// - **K11** a text field with neither a placeholder nor a label, and a password field that
///   shows what is typed.
/// - **K12** a control without an accessible name (a button showing only an icon, a switch, a
///   slider, a field, a page indicator), or one the keyboard cannot reach.
///
/// GTK's own window decoration is not the app's: the title bar GTK adds itself when it draws
/// the window's frame (on Wayland: a `GtkHeaderBar` with the CSS class `default-decoration`,
/// the window's title and a close button) and the `GtkWindowControls` of any header bar are
/// skipped (`isWindowDecoration(_:)`).
///
/// Accessible names are read from GTK's accessibility context, which GTK does not create with
/// `GTK_A11Y=none`: then the check cannot see names, and says so with one K12 finding instead
/// of a finding per control. Run it with an accessibility context (`GTK_A11Y=test` needs no bus).
///
/// ```swift
/// for finding in HIGCheck.findings(in: window) { print(finding) }
/// // K1: The button title 'cancel upload' is not in title case ('cancel').
/// ```
///
/// Cost: one visit per visible widget, O(widgets).
@MainActor
public enum HIGCheck {
    /// What the check takes as given.
    public struct Options {
        /// Verbs a button title may start with (K1). "Back" is the standard title of the
        /// navigation button that returns to the parent.
        public var verbs: Set<String> = HIGCheck.commandVerbs
        /// Widgets whose labels are their titles rather than text to copy (K3): drag sources
        /// and destinations, whose press starts a drag.
        public var titleContainers: Set<UnsafeMutableRawPointer> = []

        /// Options with the standard verbs and no title containers.
        public init() {}

        /// Options whose title containers are the widgets registered with `host` (its windows
        /// excepted): drag sources and destinations.
        @MainActor
        public init(titleContainersOf host: GtkDragHost) {
            let windows = Set(host.windowOrigins.keys)
            titleContainers = Set(
                host.registeredTargetIDs.filter { !windows.contains($0) }.compactMap { host.widget(for: $0) }.map {
                    UnsafeMutableRawPointer($0)
                })
        }
    }

    /// The most pages a page control shows (K7): more need a grid that reaches any page at once.
    public nonisolated static let maximumPages = 10

    /// The command verbs a button title may start with (K1).
    public nonisolated static let commandVerbs: Set<String> = [
        "Add", "Back", "Cancel", "Check", "Close", "Copy", "Cut", "Delete", "Done", "Drop", "Edit", "Forget", "Join",
        "Move", "Open", "Paste", "Pick", "Redo", "Refresh", "Reply", "Save", "Select", "Send", "Share", "Show", "Stop",
        "Turn", "Undo", "Upload",
    ]

    /// Words that stay lower case inside a title ("Move To…" capitalises "To" as a verb's
    /// particle; "Save as Draft" may keep "as").
    nonisolated static let minorWords: Set<String> = [
        "a", "an", "and", "as", "at", "but", "by", "for", "from", "in", "nor", "of", "on", "or", "the", "to", "with",
    ]

    /// How a title is used: a command (a button) or a segment naming a view (a noun is fine).
    public enum TitleUse: Sendable {
        case command
        case segment
    }

    /// The problems with a button title per K1, as sentences; empty when it is a short
    /// title-case command (or, for a segment, a short title-case name).
    public nonisolated static func titleProblems(_ title: String?, use: TitleUse, verbs: Set<String> = commandVerbs)
        -> [String]
    {
        guard let title, !title.trimmingCharacters(in: .whitespaces).isEmpty else {
            return ["The button has no title."]
        }
        var problems: [String] = []
        let words = title.split(separator: " ").map(String.init)
        if words.count > 3 { problems.append("The button title '\(title)' is longer than three words.") }
        for (index, word) in words.enumerated() {
            let letters = word.trimmingCharacters(in: .punctuationCharacters)
            guard let first = letters.first, first.isLetter else { continue }
            let isMinor = index > 0 && minorWords.contains(letters.lowercased())
            if !first.isUppercase && !isMinor {
                problems.append("The button title '\(title)' is not in title case ('\(word)').")
                break
            }
        }
        if let last = title.last, [".", "!", ":", "?"].contains(last) {
            problems.append("The button title '\(title)' ends with punctuation.")
        }
        // Case is the rule above; here only the word counts ("cancel" is a verb, badly cased).
        if use == .command, let first = words.first?.trimmingCharacters(in: .punctuationCharacters).lowercased(),
            !verbs.contains(where: { $0.lowercased() == first })
        {
            problems.append("The button title '\(title)' does not start with a command verb.")
        }
        return problems
    }

    /// Whether a switch row's label says on or off (K10: the switch shows its state).
    package nonisolated static func statesOnOff(_ text: String) -> Bool {
        let words = text.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init)
        return words.contains { ["on", "off", "enabled", "disabled"].contains($0) }
    }

    /// Whether a field's hint or name asks for a secret (K11: it must be a secure field).
    nonisolated static func asksForSecret(_ text: String) -> Bool {
        let lower = text.lowercased()
        return ["password", "passcode", "passphrase", "pin code", "secret"].contains { lower.contains($0) }
            || lower.split(whereSeparator: { !$0.isLetter }).contains("pin")
    }

    /// The findings for the visible widgets under `root`, in the order of the widget tree.
    public static func findings(
        in root: UnsafeMutablePointer<GtkWidget>, options: Options = Options()
    ) -> [HIGFinding] {
        var walker = Walker(options: options, namesReadable: accessibleNamesReadable())
        walker.walk(root, insideControl: false, row: nil)
        if !walker.namesReadable, walker.controlsNeedingNames > 0 {
            walker.findings.append(
                HIGFinding(
                    rule: "K12",
                    message:
                        "Accessible names could not be read (GTK runs without an accessibility context, GTK_A11Y=none); "
                        + "\(walker.controlsNeedingNames) controls were not checked.",
                    widget: typeName(root)))
        }
        return walker.findings
    }

    /// How many controls of each kind the last walk looked at: what a report says it checked.
    public static func census(in root: UnsafeMutablePointer<GtkWidget>, options: Options = Options()) -> [String: Int] {
        var walker = Walker(options: options, namesReadable: accessibleNamesReadable())
        walker.walk(root, insideControl: false, row: nil)
        return walker.census
    }

    /// Whether GTK keeps accessible properties in this process (it does not with
    /// `GTK_A11Y=none`): a label's name, set and read back.
    package static func accessibleNamesReadable() -> Bool {
        if let known = namesReadableCache { return known }
        let probe = GObjectRef(newWidget: gtk_label_new(""))
        dd_accessible_set_label(dd_accessible(probe.raw), "probe")
        let readable = dd_accessible_has_property(dd_accessible(probe.raw), GTK_ACCESSIBLE_PROPERTY_LABEL) != 0
        namesReadableCache = readable
        return readable
    }

    private static var namesReadableCache: Bool?

    /// Whether `widget` is window decoration GTK draws itself, not one of the app's controls:
    /// the title bar GTK makes for a window without one of its own (client-side decoration, as
    /// on Wayland), or the minimize, maximize and close buttons of any header bar.
    static func isWindowDecoration(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        switch typeName(widget) {
        case "GtkWindowControls": return true
        case "GtkHeaderBar": return gtk_widget_has_css_class(widget, "default-decoration") != 0
        default: return false
        }
    }

    static func typeName(_ widget: UnsafeMutablePointer<GtkWidget>) -> String {
        dd_type_name(UnsafeMutableRawPointer(widget)).map { String(cString: $0) } ?? "GtkWidget"
    }

    /// The walk over one tree.
    @MainActor
    private struct Walker {
        let options: Options
        let namesReadable: Bool
        var findings: [HIGFinding] = []
        var census: [String: Int] = [:]
        var controlsNeedingNames = 0

        mutating func walk(
            _ widget: UnsafeMutablePointer<GtkWidget>, insideControl: Bool, row: UnsafeMutablePointer<GtkWidget>?
        ) {
            guard gtk_widget_get_mapped(widget) != 0, !HIGCheck.isWindowDecoration(widget) else { return }
            let raw = UnsafeMutableRawPointer(widget)
            visit(widget, insideControl: insideControl, row: row)
            let isRow = dd_is_list_box_row(raw) != 0
            let control =
                insideControl || options.titleContainers.contains(raw) || dd_is_button(raw) != 0
                || dd_is_menu_button(raw) != 0 || isRow || dd_is_flow_box_child(raw) != 0 || dd_is_entry(raw) != 0
                || dd_is_password_entry(raw) != 0 || dd_is_editable(raw) != 0 || dd_is_check_button(raw) != 0
            var child = gtk_widget_get_first_child(widget)
            while let current = child {
                walk(current, insideControl: control, row: isRow ? widget : row)
                child = gtk_widget_get_next_sibling(current)
            }
        }

        private mutating func add(_ rule: String, _ message: String, _ widget: UnsafeMutablePointer<GtkWidget>) {
            let text = ControlText.first(in: widget).map { " '\($0)'" } ?? ""
            findings.append(HIGFinding(rule: rule, message: message, widget: HIGCheck.typeName(widget) + text))
        }

        private mutating func count(_ kind: String) { census[kind, default: 0] += 1 }

        private mutating func visit(
            _ widget: UnsafeMutablePointer<GtkWidget>, insideControl: Bool, row: UnsafeMutablePointer<GtkWidget>?
        ) {
            let raw = UnsafeMutableRawPointer(widget)
            if dd_is_menu_button(raw) != 0 {
                count("buttons")
                let title = gtk_menu_button_get_label(dd_menu_button(raw)).map { String(cString: $0) }
                checkButton(widget, title: title, use: .command)
            } else if dd_is_button(raw) != 0 {
                // A menu button's own toggle is part of the menu button, checked above.
                guard !isInsideMenuButton(widget), gtk_widget_has_css_class(widget, "dd-menu-item") == 0 else {
                    return
                }
                count("buttons")
                let title = gtk_button_get_label(dd_button(raw)).map { String(cString: $0) }
                let segment = gtk_widget_get_parent(widget).map { gtk_widget_has_css_class($0, "linked") != 0 } ?? false
                checkButton(widget, title: title, use: segment ? .segment : .command)
            } else if dd_is_switch(raw) != 0 {
                count("switches")
                checkSwitch(widget, row: row)
            } else if dd_is_scale(raw) != 0 {
                count("sliders")
                checkNamed(widget, what: "The slider")
                checkReachable(widget, what: "The slider")
                if namesReadable, let name = AccessibleProperties.label(of: widget),
                    name.lowercased().contains("volume")
                {
                    add("K9", "A slider adjusts '\(name)': audio volume needs a volume view, not a slider.", widget)
                }
            } else if dd_is_entry(raw) != 0 || dd_is_password_entry(raw) != 0 {
                count("fields")
                checkField(widget)
            } else if dd_is_label(raw) != 0, !insideControl {
                let label = dd_label(raw)
                let text = gtk_label_get_text(label).map { String(cString: $0) } ?? ""
                if !text.isEmpty {
                    count("labels")
                    if gtk_label_get_selectable(label) == 0 {
                        add("K3", "The label '\(text)' cannot be selected to copy it.", widget)
                    }
                }
            }
            if gtk_widget_has_css_class(widget, "dd-page-control") != 0 {
                count("pageControls")
                let pages = dd_object_get_int_data(raw, "dd-page-count")
                if pages > HIGCheck.maximumPages {
                    add(
                        "K7",
                        "A page control shows \(pages) pages; more than \(HIGCheck.maximumPages) need a grid that "
                            + "reaches any page directly.", widget)
                }
                checkNamed(widget, what: "The page control")
                checkReachable(widget, what: "The page control")
            }
        }

        private mutating func checkButton(_ widget: UnsafeMutablePointer<GtkWidget>, title: String?, use: TitleUse) {
            if let title, !title.isEmpty {
                for problem in HIGCheck.titleProblems(title, use: use, verbs: options.verbs) {
                    add("K1", problem, widget)
                }
            } else if ControlText.first(in: widget) == nil {
                // An icon button: its name is its accessible label.
                checkNamed(widget, what: "The icon button", relationCounts: false)
            }
            checkReachable(widget, what: "The button")
        }

        private mutating func checkSwitch(
            _ widget: UnsafeMutablePointer<GtkWidget>, row: UnsafeMutablePointer<GtkWidget>?
        ) {
            checkNamed(widget, what: "The switch")
            checkReachable(widget, what: "The switch")
            guard let row else {
                add("K10", "A switch is outside a list row: switches belong only in list rows.", widget)
                return
            }
            for text in ControlText.all(in: row) where HIGCheck.statesOnOff(text) {
                add("K10", "The switch row's label '\(text)' says on or off: the switch shows its state.", row)
            }
        }

        private mutating func checkField(_ widget: UnsafeMutablePointer<GtkWidget>) {
            let raw = UnsafeMutableRawPointer(widget)
            var placeholder = ""
            var visible = true
            if dd_is_entry(raw) != 0 {
                placeholder = gtk_entry_get_placeholder_text(dd_entry(raw)).map { String(cString: $0) } ?? ""
                visible = gtk_entry_get_visibility(dd_entry(raw)) != 0
            } else {
                let value = dd_object_dup_string(raw, "placeholder-text")
                placeholder = value.map { String(cString: $0) } ?? ""
                g_free(value)
                visible = false  // a GtkPasswordEntry always hides what is typed
            }
            let label = namesReadable ? AccessibleProperties.label(of: widget) ?? "" : ""
            let labelledBy =
                namesReadable
                && dd_accessible_has_relation(dd_accessible(raw), GTK_ACCESSIBLE_RELATION_LABELLED_BY) != 0
            if placeholder.isEmpty, label.isEmpty, !labelledBy {
                if namesReadable {
                    add("K11", "A text field has neither a placeholder nor a label.", widget)
                } else {
                    controlsNeedingNames += 1
                }
            }
            if visible, HIGCheck.asksForSecret(placeholder + " " + label) {
                add(
                    "K11",
                    "The field '\(label.isEmpty ? placeholder : label)' asks for a secret but shows it: use a secure field.",
                    widget)
            }
            checkReachable(widget, what: "The text field")
        }

        /// K12: the widget has an accessible name (its label property; with `relationCounts`,
        /// also a labelled-by relation).
        private mutating func checkNamed(
            _ widget: UnsafeMutablePointer<GtkWidget>, what: String, relationCounts: Bool = true
        ) {
            guard namesReadable else {
                controlsNeedingNames += 1
                return
            }
            let accessible = dd_accessible(UnsafeMutableRawPointer(widget))
            let label = AccessibleProperties.label(of: widget) ?? ""
            let related =
                relationCounts && dd_accessible_has_relation(accessible, GTK_ACCESSIBLE_RELATION_LABELLED_BY) != 0
            if label.trimmingCharacters(in: .whitespaces).isEmpty, !related {
                add("K12", "\(what) has no accessible name.", widget)
            }
        }

        /// K12: a sensitive control the keyboard can reach (it takes the focus).
        private mutating func checkReachable(_ widget: UnsafeMutablePointer<GtkWidget>, what: String) {
            guard gtk_widget_is_sensitive(widget) != 0 else { return }
            if gtk_widget_get_focusable(widget) == 0 && !hasFocusableDescendant(widget)
                || gtk_widget_get_can_focus(widget) == 0
            {
                add("K12", "\(what) cannot be reached with the keyboard.", widget)
            }
        }

        private func hasFocusableDescendant(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
            var child = gtk_widget_get_first_child(widget)
            while let current = child {
                if gtk_widget_get_focusable(current) != 0 || hasFocusableDescendant(current) { return true }
                child = gtk_widget_get_next_sibling(current)
            }
            return false
        }

        private func isInsideMenuButton(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
            guard let parent = gtk_widget_get_parent(widget) else { return false }
            return dd_is_menu_button(UnsafeMutableRawPointer(parent)) != 0
        }
    }
}

/// The text a control shows: its labels, in tree order.
@MainActor
enum ControlText {
    /// The first non-empty label text at or below `widget` (a button's label included).
    static func first(in widget: UnsafeMutablePointer<GtkWidget>) -> String? { all(in: widget).first }

    /// Every non-empty label text at or below `widget`.
    static func all(in widget: UnsafeMutablePointer<GtkWidget>) -> [String] {
        var texts: [String] = []
        collect(widget, into: &texts)
        return texts
    }

    private static func collect(_ widget: UnsafeMutablePointer<GtkWidget>, into texts: inout [String]) {
        let raw = UnsafeMutableRawPointer(widget)
        // A menu button's popover is what it opens, not its title.
        if dd_is_popover(raw) != 0 { return }
        if dd_is_label(raw) != 0, let text = gtk_label_get_text(dd_label(raw)).map({ String(cString: $0) }),
            !text.isEmpty
        {
            texts.append(text)
        }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            collect(current, into: &texts)
            child = gtk_widget_get_next_sibling(current)
        }
    }
}
