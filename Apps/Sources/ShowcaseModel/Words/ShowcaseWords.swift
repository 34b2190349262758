import DragDrop
import Foundation
import Synchronization

/// The showcase's own words in the person's language (L1): the panes' titles, explanations,
/// buttons, states and refusal reasons. Each is written in English in the code, as
/// `words("Drop messages on a mailbox.")` or with named placeholders,
/// `words("{name} is read-only.", ["name": mailbox.name])`; the English text is the message's
/// identity in the showcase's gettext catalogs (`Words/po/<lang>.po`, template
/// `showcase.pot`), compiled at build time by the package's `CompileMessageCatalogs` plugin,
/// as an app built on DragDrop would ship its own.
///
/// The language is the engine's (`Localization.current`): what the library says and what the
/// showcase shows never differ. A sentence a catalog lacks stays English.
public enum ShowcaseWords {
    /// The catalog of each language asked for so far (nil: none shipped).
    private static let catalogs = Mutex<[String: MessageCatalog?]>([:])

    /// The catalog of `language`, read once from the target's resources.
    static func catalog(_ language: String) -> MessageCatalog? {
        if let known = catalogs.withLock({ $0[language] }) { return known }
        var found: MessageCatalog?
        if let url = Bundle.module.url(forResource: language, withExtension: "mo"),
            let data = try? Data(contentsOf: url)
        {
            found = try? MessageCatalog(bytes: [UInt8](data))
        }
        catalogs.withLock { $0[language] = .some(found) }
        return found
    }

    /// `english` in the current language, with `values` put in its `{placeholders}`
    /// (``Localizer/isolated(_:)``).
    public static func text(_ english: String, _ values: KeyValuePairs<String, String> = [:]) -> String {
        let language = Localization.current.language
        var text = english
        if language != "en", let translated = catalog(language)?.translations(of: english)?.first,
            !translated.isEmpty
        {
            text = translated
        }
        // A name goes in as the library puts names into its sentences: no controls of its
        // own, isolated when it reads the other way (an English title in a Hebrew sentence).
        for (name, value) in values {
            text = text.replacingOccurrences(of: "{\(name)}", with: Localization.current.isolated(value))
        }
        return text
    }

    /// The placeholders of a sentence (`{name}`), for the catalogs' checks.
    public static func placeholders(in text: String) -> Set<String> {
        var found: Set<String> = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            found.insert(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return found
    }
}

/// `english` in the person's language: ``ShowcaseWords/text(_:_:)``.
public func words(_ english: String, _ values: KeyValuePairs<String, String> = [:]) -> String {
    ShowcaseWords.text(english, values)
}
