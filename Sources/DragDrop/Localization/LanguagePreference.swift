/// Which languages a person asked for, read from the environment as gettext (and so every GTK
/// app) reads it (L1).
public enum LanguagePreference {
    /// The language tags to try, most wanted first, each followed by its fallbacks.
    ///
    /// The locale of messages is the first set of `LC_ALL`, `LC_MESSAGES` and `LANG`. When it
    /// is unset, `C` or `POSIX` (with or without a codeset), the answer is English (`[]`) and
    /// `LANGUAGE` is not consulted, as gettext does. Otherwise `LANGUAGE`, a colon-separated
    /// list, wins over the locale when set. Each tag is expanded `ll_CC.codeset@mod` → `ll_CC@mod`,
    /// `ll_CC`, `ll@mod`, `ll`; repeats are dropped.
    ///
    /// ```swift
    /// LanguagePreference.candidates(environment: ["LANG": "ru_RU.UTF-8", "LANGUAGE": "ko:ja"])
    /// // ["ko", "ja"]
    /// ```
    public static func candidates(environment: [String: String]) -> [String] {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let locale, !isPlainC(locale) else { return [] }
        let list = environment["LANGUAGE"].map { $0.split(separator: ":").map(String.init) } ?? []
        return expand(list.isEmpty ? [locale] : list)
    }

    /// `tags` each followed by its fallbacks, without repeats and without empty tags. A `C` or
    /// `POSIX` entry ends the list (English from there on).
    public static func expand(_ tags: [String]) -> [String] {
        var result: [String] = []
        for tag in tags {
            if isPlainC(tag) { break }
            for candidate in fallbacks(of: tag) where !result.contains(candidate) { result.append(candidate) }
        }
        return result
    }

    /// `ll_CC.codeset@mod` → `ll_CC@mod`, `ll_CC`, `ll@mod`, `ll`.
    package static func fallbacks(of tag: String) -> [String] {
        var rest = Substring(tag.trimmingCharacters(in: " "))
        var modifier: Substring?
        if let at = rest.firstIndex(of: "@") {
            modifier = rest[rest.index(after: at)...]
            rest = rest[..<at]
        }
        if let dot = rest.firstIndex(of: ".") { rest = rest[..<dot] }
        let language = rest.prefix { $0 != "_" }
        let territory = rest.count > language.count ? rest : nil
        guard !language.isEmpty, language.allSatisfy({ $0.isASCII && $0.isLetter }) else { return [] }
        var result: [String] = []
        if let territory, let modifier, !modifier.isEmpty { result.append("\(territory)@\(modifier)") }
        if let territory { result.append(String(territory)) }
        if let modifier, !modifier.isEmpty { result.append("\(language)@\(modifier)") }
        result.append(String(language))
        return result
    }

    private static func isPlainC(_ locale: String) -> Bool {
        let name = locale.prefix { $0 != "." && $0 != "@" }
        return name == "C" || name == "POSIX"
    }
}

extension String {
    func trimmingCharacters(in character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}
