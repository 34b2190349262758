import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes ``AppEvent``s as JSON lines on standard output, each at once (unbuffered, so the
/// driver sees it immediately): the one writer of the showcase, the GTK fixture and the hostile
/// source. Keys are sorted, so the same event always prints the same text.
public enum LineWriter {
    /// The JSON text of `event`, `kind` included, without a line break.
    public static func text<E: AppEvent>(_ event: E) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(Tagged(event: event)) else {
            // Only a non-finite number fails to encode: say so rather than print nothing.
            return #"{"kind":"error","message":"a \#(E.kind) line could not be encoded"}"#
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Prints `event` as one line.
    public static func write<E: AppEvent>(_ event: E) { write(line: text(event)) }

    /// Prints `line` and a line break on standard output, retrying short writes.
    public static func write(line: String) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            offset += written
        }
    }
}

/// Prints an event only when it differs from the last one printed under the same key (a
/// layout after every paint, a list's state after every change).
public final class ChangedLineWriter {
    private var last: [String: String] = [:]

    public init() {}

    /// Prints `event` unless the last event printed under `key` (default: its kind) was the
    /// same; returns whether it printed.
    @discardableResult
    public func write<E: AppEvent>(_ event: E, key: String? = nil) -> Bool {
        let text = LineWriter.text(event)
        let key = key ?? E.kind
        guard last[key] != text else { return false }
        last[key] = text
        LineWriter.write(line: text)
        return true
    }
}
