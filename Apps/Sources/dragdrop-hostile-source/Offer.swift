import Foundation

/// What the hostile source offers in its next drag: one or more representations, each any bytes
/// under any MIME type, served the way it says (at once, never, a byte at a time, or dying
/// half-way).
struct Offer: Sendable {
    /// How a representation answers the app that reads it.
    enum Behaviour: String, Sendable {
        /// Writes every byte, in chunks, then ends the transfer.
        case send
        /// Never writes and never ends the transfer (a frozen app).
        case silent
        /// Writes `after` bytes, then one byte every `interval` milliseconds, forever.
        case trickle
        /// Writes `after` bytes, then kills itself (SIGKILL), mid-transfer.
        case die
        /// Says nothing for `interval` milliseconds, then writes every byte: an app that wakes
        /// up after the reader gave up, whose late answer must go nowhere.
        case late
    }

    struct Representation: Sendable {
        var type: String
        var bytes: Data
        var behaviour: Behaviour
        var after: Int
        var interval: UInt32
        /// Flushes GTK's stream after every chunk: on X11 each chunk then goes out as one INCR
        /// piece, while unflushed writes pile up in one property that X refuses past ~16 MB.
        var flush: Bool
    }

    var representations: [Representation]
    /// The representation whose bytes are a file transfer key for `portalPaths`, if any.
    var portalIndex: Int?
    /// The files to hand the file transfer portal (an item's `"portal": [paths]`).
    var portalPaths: [String]?

    /// The representations of a command line: `{"cmd": "offer", "items": [{"type": …, one of
    /// "text", "base64", "file" or "repeat" with "count", "behaviour", "after", "interval"}]}`.
    init(command: [String: Any]) throws {
        guard let items = command["items"] as? [[String: Any]], !items.isEmpty else {
            throw CommandError("an offer needs items")
        }
        if let index = items.firstIndex(where: { $0["portal"] != nil }) {
            guard let paths = items[index]["portal"] as? [String], !paths.isEmpty else {
                throw CommandError("\"portal\" lists the paths of the files to offer")
            }
            portalIndex = index
            portalPaths = paths
        }
        representations = try items.map { item in
            guard let type = item["type"] as? String, !type.isEmpty else { throw CommandError("an item needs a type") }
            let bytes: Data
            if let text = item["text"] as? String {
                bytes = Data(text.utf8)
            } else if let base64 = item["base64"] as? String {
                guard let decoded = Data(base64Encoded: base64) else { throw CommandError("bad base64 for \(type)") }
                bytes = decoded
            } else if let path = item["file"] as? String {
                bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            } else if let unit = item["repeat"] as? String, let count = item["count"] as? Int, count >= 0 {
                let piece = Data(unit.utf8)
                var data = Data(capacity: piece.count * count)
                for _ in 0..<count { data.append(piece) }
                bytes = data
            } else {
                bytes = Data()
            }
            let name = item["behaviour"] as? String ?? "send"
            guard let behaviour = Behaviour(rawValue: name) else { throw CommandError("unknown behaviour \(name)") }
            return Representation(
                type: type, bytes: bytes, behaviour: behaviour, after: item["after"] as? Int ?? 0,
                interval: UInt32(item["interval"] as? Int ?? 100), flush: item["flush"] as? Bool ?? false)
        }
    }
}

struct CommandError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
