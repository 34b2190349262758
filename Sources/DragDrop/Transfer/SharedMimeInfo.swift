import Foundation

/// Reads type conformance from the freedesktop shared-mime-info database that Linux desktops
/// install (Debian's `shared-mime-info`): its `subclasses` file ("child parent" per line) and
/// `aliases` file ("alias canonical" per line), under each directory of `XDG_DATA_DIRS`.
///
/// ```swift
/// let conformance = SharedMimeInfo.systemConformance()   // built-in table + the database
/// conformance.conforms("text/html", to: "text/plain")    // true
/// ```
public enum SharedMimeInfo {
    /// Where the database lives: `$XDG_DATA_HOME/mime` then `mime` under each of
    /// `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`).
    public static func searchDirectories(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> [String]
    {
        var dirs: [String] = []
        if let home = environment["XDG_DATA_HOME"], !home.isEmpty {
            dirs.append(home)
        } else if let home = environment["HOME"] {
            dirs.append(home + "/.local/share")
        }
        let shared = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        dirs += shared.split(separator: ":").map(String.init)
        return dirs.map { $0 + "/mime" }
    }

    /// The built-in table extended with every database found; where none is installed, the
    /// built-in table alone.
    public static func systemConformance(
        base: TypeConformance = TypeConformance(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> TypeConformance {
        var table = base
        for dir in searchDirectories(environment: environment).reversed() {
            load(directory: dir, into: &table)
        }
        return table
    }

    /// Adds the `subclasses` and `aliases` of one database directory to `table`. Missing or
    /// unreadable files add nothing; malformed lines are skipped.
    /// Returns how many relations were read.
    @discardableResult
    public static func load(directory: String, into table: inout TypeConformance) -> Int {
        var count = 0
        if let aliases = try? String(contentsOfFile: directory + "/aliases", encoding: .utf8) {
            for (alias, canonical) in pairs(aliases) {
                table.declareAlias(ContentType(alias), of: ContentType(canonical))
                count += 1
            }
        }
        if let subclasses = try? String(contentsOfFile: directory + "/subclasses", encoding: .utf8) {
            for (child, parent) in pairs(subclasses) {
                table.declare(ContentType(child), conformsTo: [ContentType(parent)])
                count += 1
            }
        }
        return count
    }

    /// Two well-formed MIME types per line; comments and malformed lines are skipped.
    static func pairs(_ text: String) -> [(String, String)] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            if line.hasPrefix("#") { return nil }
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 2 else { return nil }
            let a = ContentType(String(parts[0]))
            let b = ContentType(String(parts[1]))
            guard a.isWellFormed, b.isWellFormed else { return nil }
            return (a.essence, b.essence)
        }
    }
}
