import Foundation
import Synchronization

/// The language the engine speaks in, and where its sentences come from (L1).
///
/// Sentences are looked up, in this order: an app's overrides (``Localizer/override(_:with:language:)``),
/// then the `.mo` catalogs of the chosen language in the directories an app added
/// (``Localizer/addCatalogDirectory(_:)``), those built into the package, and
/// `locale/<lang>/LC_MESSAGES/dragdrop.mo` under `$XDG_DATA_DIRS`; the English text of
/// ``EngineMessage`` when none has it. The language is the first of the person's
/// (``LanguagePreference``) or the app's (``Localizer/setLanguages(_:)``) that has a catalog;
/// English otherwise.
///
/// The process has one ``shared`` localizer, configured by the app at start. Code that needs
/// another language for a while (a test, a preview) runs it inside ``withLocalizer(_:_:)``,
/// which binds a localizer to the current task and what it calls, leaving other tasks alone.
public enum Localization {
    /// The gettext domain of the engine's catalogs: `dragdrop.mo`.
    public static let domain = "dragdrop"

    /// The process's localizer, reading the environment.
    public static let shared = Localizer()

    @TaskLocal static var scoped: Localizer?

    /// The localizer in effect: the one bound by ``withLocalizer(_:_:)``, else ``shared``.
    public static var current: Localizer { scoped ?? shared }

    /// Runs `body` with `localizer` in effect for this task and the synchronous code it calls
    /// (and tasks it creates), so every sentence formatted there is in its language.
    public static func withLocalizer<R>(_ localizer: Localizer, _ body: () throws -> R) rethrows -> R {
        try $scoped.withValue(localizer, operation: body)
    }

    /// Runs `body` with the engine speaking `language` (with the package's catalogs and the
    /// shared localizer's directories and overrides ignored): a shorthand for tests and previews.
    public static func withLanguage<R>(_ language: String, _ body: () throws -> R) rethrows -> R {
        try withLocalizer(Localizer(languages: [language], environment: [:], searchSystem: false), body)
    }

    /// `message` in the current language with `arguments` put in its placeholders; `count`
    /// chooses the plural form and fills `{count}` (the GTK layer's failures and reasons say
    /// theirs through it too).
    package static func format(
        _ message: EngineMessage, count: Int? = nil, _ arguments: [String: MessageArgument] = [:]
    )
        -> String
    {
        current.format(message, count: count, arguments)
    }

    /// A length of time inside a reason: "1 second", "15 seconds", "0.5 seconds".
    package static func duration(seconds value: Double) -> String {
        if value == value.rounded(), value.magnitude < Double(Int.max) {
            return current.format(.seconds, count: Int(value), [:])
        }
        return current.format(.secondsFraction, count: nil, ["seconds": .text(String(format: "%.1f", value))])
    }
}

/// A value for a placeholder.
package enum MessageArgument {
    /// A name (of an item, a place, an app): its bidirectional controls are removed, and it is
    /// isolated (U+2068 … U+2069) when it reads the other way from the sentence (L2).
    case name(String)
    /// Text put in as it is: a number, a data type, a sentence that is a reason.
    case text(String)
}

/// Chooses a language and finds its sentences; see ``Localization``. Thread-safe: its state is
/// behind a lock, and the catalogs are read once, when first needed after a change.
public final class Localizer: Sendable {
    private struct Key: Hashable {
        var context: String?
        var id: String
        var language: String?
    }

    private struct State {
        var environment: [String: String]
        var languages: [String]?
        var directories: [String] = []
        var searchBundle: Bool
        var searchSystem: Bool
        var overrides: [Key: String] = [:]
        var resolved: Resolved?
    }

    /// The chosen language and its catalogs, most preferred first.
    private struct Resolved {
        var language: String
        var catalogs: [MessageCatalog]
        var ignored: [IgnoredCatalog]
    }

    /// A catalog file that was found but refused.
    public struct IgnoredCatalog: Sendable, Hashable {
        /// Its path.
        public var path: String
        /// Why it was refused.
        public var error: MessageCatalogError
    }

    private let state: Mutex<State>

    /// The largest catalog file read (bigger ones are refused as unreadable).
    public static let maximumCatalogSize = 16 << 20

    /// A localizer for the person's languages as `environment` names them (see
    /// ``LanguagePreference``), or for `languages` (tags such as `ko`, `pt_BR`) when given.
    /// `searchBundle` includes the catalogs built into the package; `searchSystem` those under
    /// `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`).
    public init(
        languages: [String]? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        searchBundle: Bool = true, searchSystem: Bool = true
    ) {
        state = Mutex(
            State(
                environment: environment, languages: languages, searchBundle: searchBundle, searchSystem: searchSystem))
    }

    /// Sets the languages to speak, most wanted first (tags such as `ko`, `ja_JP`, `ru`; `en` for
    /// English); `nil` goes back to the environment's.
    public func setLanguages(_ languages: [String]?) {
        state.withLock {
            $0.languages = languages
            $0.resolved = nil
        }
    }

    /// Adds a directory laid out as gettext's (`<dir>/<lang>/LC_MESSAGES/dragdrop.mo`), searched
    /// before the package's own catalogs: an app's new language, or its own wording of some
    /// sentences in a language the package has.
    public func addCatalogDirectory(_ path: String) {
        state.withLock {
            $0.directories.append(path)
            $0.resolved = nil
        }
    }

    /// Replaces `message` with `template` (the same placeholders; `{count}` for a count) in
    /// `language` (a tag as the chosen language is named, `ko`), or in every language when
    /// `language` is `nil`; a `nil` template removes the replacement.
    ///
    /// ```swift
    /// Localization.shared.override(.overCopy, with: "{destination}: drop to copy here.")
    /// ```
    public func override(_ message: EngineMessage, with template: String?, language: String? = nil) {
        state.withLock {
            $0.overrides[Key(context: message.context, id: message.id, language: language)] = template
        }
    }

    /// The language chosen: the tag whose catalog is used (`ko`, `ru`), or `en`.
    public var language: String { resolve().language }

    /// The direction the chosen language is read in: right to left for Hebrew, Arabic,
    /// Persian… (L3). An app whose locale the system cannot set (GTK reads its direction from
    /// the locale) can lay itself out by it.
    public var layoutDirection: LayoutDirection {
        TextDirection.of(language: language) == .rightToLeft ? .rightToLeft : .leftToRight
    }

    /// The plural rule of the chosen language's first catalog; `nil` for English.
    public var pluralRule: PluralRule? { resolve().catalogs.first?.pluralRule }

    /// Catalog files found for the chosen language but refused, with why.
    public var ignoredCatalogs: [IgnoredCatalog] { resolve().ignored }

    /// The text of `message` for `count` before its placeholders are filled: an override, a
    /// catalog's translation, or the English.
    public func template(for message: EngineMessage, count: Int? = nil) -> String {
        let (resolved, overrides) = state.withLock { state -> (Resolved, [Key: String]) in
            (ensureResolved(&state), state.overrides)
        }
        return template(for: message, count: count, resolved: resolved, overrides: overrides)
    }

    private func template(for message: EngineMessage, count: Int?, resolved: Resolved, overrides: [Key: String])
        -> String
    {
        if !overrides.isEmpty {
            if let text = overrides[Key(context: message.context, id: message.id, language: resolved.language)]
                ?? overrides[Key(context: message.context, id: message.id, language: nil)]
            {
                return text
            }
        }
        for catalog in resolved.catalogs {
            guard let forms = catalog.translations(of: message.id, context: message.context) else { continue }
            let index = message.plural == nil ? 0 : count.flatMap { catalog.pluralRule.form(for: $0) } ?? 0
            if index < forms.count, !forms[index].isEmpty { return forms[index] }
        }
        return english(message, count: count)
    }

    /// `name` ready to go into a sentence of the chosen language (L2): its bidirectional
    /// controls removed, and isolated (U+2068 … U+2069) when it reads the other way from the
    /// language, as the library puts names into its own sentences ("מעל ⁨Groceries⁩: …"). For
    /// an app's own sentences with names in them.
    public func isolated(_ name: String) -> String {
        Self.isolated(
            BidiControls.neutralized(name), in: TextDirection.of(language: resolve().language))
    }

    private static func isolated(_ value: String, in direction: TextDirection) -> String {
        if let own = TextDirection.of(text: value), own != direction { return "\u{2068}\(value)\u{2069}" }
        return value
    }

    /// Whether `message` has a translation (or an override) in the chosen language.
    func isTranslated(_ message: EngineMessage) -> Bool {
        state.withLock { state in
            let resolved = ensureResolved(&state)
            if state.overrides[Key(context: message.context, id: message.id, language: resolved.language)] != nil
                || state.overrides[Key(context: message.context, id: message.id, language: nil)] != nil
            {
                return true
            }
            return resolved.catalogs.contains { $0.translations(of: message.id, context: message.context) != nil }
        }
    }

    private func english(_ message: EngineMessage, count: Int?) -> String {
        guard let plural = message.plural, let count else { return message.id }
        return PluralRule.english.form(for: count) == 0 ? message.id : plural
    }

    /// `message` formatted: see ``Localization``.
    func format(_ message: EngineMessage, count: Int?, _ arguments: [String: MessageArgument]) -> String {
        let (resolved, overrides) = state.withLock { state -> (Resolved, [Key: String]) in
            (ensureResolved(&state), state.overrides)
        }
        let text = template(for: message, count: count, resolved: resolved, overrides: overrides)
        let direction = TextDirection.of(language: resolved.language)
        var result = ""
        for piece in MessageTemplate(text).pieces {
            switch piece {
            case .literal(let literal): result += literal
            case .placeholder(let name, let modifier):
                let raw: String
                let argument: MessageArgument? = name == "count" ? count.map { .text(String($0)) } : arguments[name]
                switch argument {
                case .name(let value)?:
                    let value = BidiControls.neutralized(value)
                    raw = value
                    result += Self.isolated(value, in: direction)
                case .text(let value)?:
                    raw = value
                    result += value
                case nil:
                    // A catalog's placeholder the engine does not fill: shown as written.
                    raw = ""
                    result += "{\(name)}"
                }
                if let modifier, let particle = KoreanParticle.particle(modifier, after: raw) { result += particle }
            }
        }
        guard message.finishes else { return result }
        // One closing stop however the last placeholder ended (Sentence.finished).
        let stop = text.last.map { Sentence.closing.contains($0) ? String($0) : "" } ?? ""
        let body = Sentence.clause(result)
        return body.isEmpty ? "" : body + stop
    }

    /// The resolved state, reading the catalogs if needed.
    private func resolve() -> Resolved { state.withLock { ensureResolved(&$0) } }

    private func ensureResolved(_ state: inout State) -> Resolved {
        if let resolved = state.resolved { return resolved }
        let resolved = Self.resolve(state)
        state.resolved = resolved
        return resolved
    }

    private static func resolve(_ state: State) -> Resolved {
        let candidates =
            state.languages.map(LanguagePreference.expand)
            ?? LanguagePreference.candidates(environment: state.environment)
        var ignored: [IgnoredCatalog] = []
        let paths = CatalogPaths(state: state)
        for (index, candidate) in candidates.enumerated() {
            var catalogs = paths.load(candidate, ignored: &ignored)
            guard !catalogs.isEmpty else {
                if candidate.hasPrefix("en"), candidate.prefix(while: \.isLetter) == "en" { break }
                continue
            }
            // Less specific tags of the same language fill in what this one lacks (ko_KR, then ko).
            let base = candidate.prefix { $0.isLetter }
            for fallback in candidates[(index + 1)...] where fallback.prefix(while: \.isLetter) == base {
                catalogs += paths.load(fallback, ignored: &ignored)
            }
            return Resolved(language: candidate, catalogs: catalogs, ignored: ignored)
        }
        return Resolved(language: "en", catalogs: [], ignored: ignored)
    }

    /// Where catalogs for a language are looked for.
    private struct CatalogPaths {
        var directories: [String]
        var bundle: String?
        var system: [String]

        init(state: State) {
            directories = state.directories
            bundle = state.searchBundle ? Localizer.bundledCatalogDirectory : nil
            let xdg =
                state.environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
            system = state.searchSystem ? xdg.split(separator: ":").map { "\($0)/locale" } : []
        }

        func load(_ language: String, ignored: inout [IgnoredCatalog]) -> [MessageCatalog] {
            let file = "\(language)/LC_MESSAGES/\(Localization.domain).mo"
            var paths = directories.map { "\($0)/\(file)" }
            if let bundle { paths.append("\(bundle)/\(language).mo") }
            paths += system.map { "\($0)/\(file)" }
            var catalogs: [MessageCatalog] = []
            for path in paths where FileManager.default.fileExists(atPath: path) {
                do {
                    catalogs.append(try Localizer.readCatalog(at: path))
                } catch {
                    ignored.append(IgnoredCatalog(path: path, error: error))
                }
            }
            return catalogs
        }
    }

    /// Reads one `.mo` file.
    static func readCatalog(at path: String) throws(MessageCatalogError) -> MessageCatalog {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable(path: path) }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maximumCatalogSize + 1), data.count <= maximumCatalogSize else {
            throw .unreadable(path: path)
        }
        return try MessageCatalog(bytes: [UInt8](data))
    }

    /// The directory of the catalogs built into the package (`ko.mo`, ...): the package's
    /// resource bundle, when it is where SwiftPM puts it next to the program. The bundle is not
    /// touched otherwise (Foundation's `Bundle.module` stops the program when it finds none, as
    /// when a program is copied without its resources): sentences are then in English unless
    /// another directory has the language.
    static let bundledCatalogDirectory: String? = {
        let beside = Bundle.main.bundleURL.appendingPathComponent("DragDrop_DragDrop.resources").path
        guard FileManager.default.fileExists(atPath: beside) else { return nil }
        return Bundle.module.resourcePath
    }()
}
