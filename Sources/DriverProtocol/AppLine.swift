import Foundation

/// One kind of line an app prints for its driver: a Codable value whose JSON object carries
/// `"kind": Self.kind` beside its own fields. The apps (the showcase, the GTK fixture, the
/// hostile source) write these with ``LineWriter``; the driver reads them back as ``AppLine``
/// and asks for the type it expects (`line.decode(PaneState.self)`), so both sides share one
/// schema and neither reads dictionaries back with casts.
public protocol AppEvent: Codable, Sendable, Equatable {
    /// The `kind` field that tells this line from the others (`"state"`, `"layout"`...).
    static var kind: String { get }
}

/// A line an app printed, as the driver received it: its kind, and its fields decoded on
/// demand into the ``AppEvent`` type of that kind.
public struct AppLine: Sendable, CustomStringConvertible {
    /// The line's `kind` (empty when the line was not a JSON object with a kind).
    public let kind: String
    /// The line as printed (JSON).
    public let json: String
    /// The line decoded, once: a driver's waits read the same lines again and again (a line
    /// listing 100,000 items decoded at every look kept a core busy).
    private let decoded = DecodedOnce()

    private struct KindOnly: Decodable { var kind: String }

    /// Reads a line of text (without its line break).
    public init(_ json: String) {
        self.json = json
        kind = (try? JSONDecoder().decode(KindOnly.self, from: Data(json.utf8)))?.kind ?? ""
    }

    /// Whether the line is of `type`'s kind.
    public func `is`<E: AppEvent>(_ type: E.Type) -> Bool { kind == E.kind }

    /// The line as `type`, or nil when it is of another kind. A line of the right kind that
    /// does not decode is a broken protocol: it is reported on standard error and read as nil.
    public func decode<E: AppEvent>(_ type: E.Type) -> E? {
        guard kind == E.kind else { return nil }
        return decoded.value(of: type) {
            do {
                return try JSONDecoder().decode(E.self, from: Data(json.utf8))
            } catch {
                FileHandle.standardError.write(
                    Data("DriverProtocol: a \(kind) line does not decode (\(error)): \(json)\n".utf8))
                return nil
            }
        }
    }

    public var description: String { json }
}

/// A line's decoded value, kept by the type asked for (a line has one kind, so in practice one).
private final class DecodedOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [ObjectIdentifier: Any?] = [:]

    func value<E>(of type: E.Type, decode: () -> E?) -> E? {
        let key = ObjectIdentifier(type)
        lock.lock()
        if let known = values[key] {
            lock.unlock()
            return known as? E
        }
        lock.unlock()
        let value = decode()
        lock.lock()
        values[key] = .some(value)
        lock.unlock()
        return value
    }
}

/// Encodes an event with its kind (``AppEvent/kind``) as one JSON object.
struct Tagged<E: AppEvent>: Encodable {
    let event: E
    private enum Key: String, CodingKey { case kind }
    func encode(to encoder: any Encoder) throws {
        try event.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(E.kind, forKey: .kind)
    }
}
