import DragDrop
import Foundation

/// What a drag offers other apps: MIME type names, richest first, each with the representations
/// that produce its bytes when another app asks (P1). Only representations visible to every app
/// are offered (P5); nothing else is: this app's own windows recognize its drags by GDK's drag
/// object (`gdk_drop_get_drag`), not by a private type other apps would see. An item limited to
/// its app offers other apps no type at all.
struct ExportPlan {
    /// One offered MIME type.
    struct Entry {
        /// The name other apps see (`text/plain;charset=utf-8`).
        var mimeType: String
        /// The representations whose bytes are sent, one per item, in drag order.
        var parts: [Representation]
        /// Written between parts (several items joined into one text).
        var separator: Data
        /// Whether the parts' `text/uri-list` is handed to the file transfer portal and its key
        /// sent instead (``FileTransferPortal``).
        var viaPortal = false
    }

    var entries: [Entry] = []

    /// The plan for `providers` (one per item). One item offers every visible representation;
    /// several items offer the text types all of them have (plain text, URI lists, HTML),
    /// joined by line breaks.
    init(providers: [ItemProvider], conformance: TypeConformance) {
        guard !providers.isEmpty else { return }
        let visible = providers.map { $0.representations.filter { $0.visibility == .everyone } }
        var seen: Set<String> = []
        for representation in visible[0] {
            var parts = [representation]
            if providers.count > 1 {
                guard StandardMimeTypes.joinable(representation.type) else { continue }
                let others = visible.dropFirst().map { reps in reps.first { $0.type == representation.type } }
                guard others.allSatisfy({ $0 != nil }) else { continue }
                parts += others.compactMap { $0 }
            }
            let separator = Data((representation.type == .uriList ? "\r\n" : "\n").utf8)
            for name in StandardMimeTypes.exported(representation.type, conformance: conformance)
            where seen.insert(name.lowercased()).inserted {
                entries.append(Entry(mimeType: name, parts: parts, separator: separator))
            }
        }
    }

    /// A plan from bytes computed up front (a delegate's exported representations).
    init(eager representations: [ExportedRepresentation]) {
        var seen: Set<String> = []
        for r in representations where seen.insert(r.mimeType.lowercased()).inserted {
            let type = ContentType(r.mimeType)
            entries.append(Entry(mimeType: r.mimeType, parts: [.data(type, Data(r.bytes))], separator: Data()))
        }
    }

    /// The plan with the file transfer portal's types first when it offers a `text/uri-list`
    /// (``FileTransferPortal``): a sandboxed app reads its files through them.
    func offeringPortal() -> ExportPlan {
        guard let files = entries.first(where: { ContentType($0.mimeType).essence == ContentType.uriList.essence })
        else { return self }
        var plan = self
        plan.entries.insert(
            contentsOf: FileTransferPortal.mimeTypes.map {
                Entry(mimeType: $0, parts: files.parts, separator: files.separator, viaPortal: true)
            }, at: 0)
        return plan
    }

    /// The MIME names GTK offers other apps, richest first (possibly none).
    var mimeTypes: [String] { entries.map(\.mimeType) }
}
