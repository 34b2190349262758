import Foundation

/// A value that drags and drops as itself: an app's reminder, task or contact, given to other
/// places and apps in the forms it declares and taken back from any of them.
///
/// The forms are declared richest first with ``TransferRepresentationBuilder``, the way
/// SwiftUI's `Transferable` declares them:
///
/// ```swift
/// struct Reminder: Codable, Sendable, Transferable {
///     var title: String
///     static var transferRepresentation: TransferRepresentation<Reminder> {
///         TransferRepresentation.codable(contentType: "application/x-reminder")
///         TransferRepresentation.proxy(exporting: \.title) { Reminder(title: $0) }
///     }
/// }
/// ```
///
/// A drop hands a destination the values themselves (``DropDataAccess/value(_:item:)``,
/// ``DropRequest/values(_:)``): each form the destination could read is tried in order, and one
/// whose bytes do not decode gives way to the next (A2, A6); only when none works is the drop
/// refused, with a typed ``TransferError``. A drag offers ``ItemProvider/init(app:value:suggestedName:)``,
/// whose forms are produced only when a destination asks (P1, P5).
public protocol Transferable: Sendable {
    /// The forms of the value, richest first.
    @TransferRepresentationBuilder<Self>
    static var transferRepresentation: TransferRepresentation<Self> { get }
}

extension Transferable {
    /// The content types a value is offered as, richest first: a drag source's
    /// ``DragTarget/offers``.
    public static var exportedContentTypes: [ContentType] {
        transferRepresentation.forms.filter { $0.export != nil }.map(\.contentType).uniqued()
    }

    /// The content types a value can be read from, richest first: a destination's
    /// ``DragTarget/accepts``.
    public static var importedContentTypes: [ContentType] {
        transferRepresentation.forms.filter { $0.importing != nil }.map(\.contentType).uniqued()
    }
}

/// The forms a ``Transferable`` value takes: each a content type, how a value becomes bytes of
/// it (exporting), how such bytes become a value (importing), or both. Built with the static
/// functions below and combined with ``TransferRepresentationBuilder``.
public struct TransferRepresentation<Item: Sendable>: Sendable {
    /// One form: its type, who may receive it, and the two directions.
    struct Form: Sendable {
        var contentType: ContentType
        var visibility: RepresentationVisibility
        var export: (@Sendable (Item) async throws -> RepresentationContent)?
        var importing: (@Sendable (TransferImport) async throws -> Item)?
        /// Whether importing reads a file (the drop is saved to one, never whole in memory).
        var importsFile = false
    }

    var forms: [Form]

    init(forms: [Form]) { self.forms = forms }

    /// The value as JSON of `contentType` (a private type of the app, usually; by default the
    /// one named after `Item`, ``ContentType/of(_:)``), both ways. A payload that does not
    /// decode is a ``TransferError/malformed(type:reason:)``.
    public static func codable(
        contentType: ContentType = .of(Item.self), visibility: RepresentationVisibility = .everyone
    ) -> TransferRepresentation where Item: Codable {
        TransferRepresentation(forms: [
            Form(
                contentType: contentType, visibility: visibility,
                export: { item in .data(try JSONEncoder.sorted.encode(item)) },
                importing: { content in
                    let data = try content.bytes()
                    do { return try JSONDecoder().decode(Item.self, from: data) } catch {
                        throw TransferError.malformed(type: contentType.mimeType, reason: Self.reason(error))
                    }
                })
        ])
    }

    /// The value as bytes of `contentType`, both ways.
    public static func data(
        contentType: ContentType, visibility: RepresentationVisibility = .everyone,
        exporting: @escaping @Sendable (Item) async throws -> Data,
        importing: @escaping @Sendable (Data) async throws -> Item
    ) -> TransferRepresentation {
        TransferRepresentation(forms: [
            Form(
                contentType: contentType, visibility: visibility, export: { .data(try await exporting($0)) },
                importing: { try await importing(try $0.bytes()) })
        ])
    }

    /// The value given as bytes of `exportedContentType` only (read from nothing).
    public static func data(
        exportedContentType: ContentType, visibility: RepresentationVisibility = .everyone,
        exporting: @escaping @Sendable (Item) async throws -> Data
    ) -> TransferRepresentation {
        TransferRepresentation(forms: [
            Form(
                contentType: exportedContentType, visibility: visibility, export: { .data(try await exporting($0)) },
                importing: nil)
        ])
    }

    /// The value read from bytes of `importedContentType` only (given as nothing).
    public static func data(
        importedContentType: ContentType, importing: @escaping @Sendable (Data) async throws -> Item
    ) -> TransferRepresentation {
        TransferRepresentation(forms: [
            Form(
                contentType: importedContentType, visibility: .everyone, export: nil,
                importing: { try await importing(try $0.bytes()) })
        ])
    }

    /// The value as a file of `contentType`: exporting names a file to read (in chunks, never
    /// whole in memory); importing receives a file the dropped bytes were saved to, in a folder
    /// of the drop's own that is removed when the import returns (move or copy what you keep).
    public static func file(
        contentType: ContentType, visibility: RepresentationVisibility = .everyone,
        exporting: (@Sendable (Item) async throws -> URL)? = nil,
        importing: (@Sendable (URL) async throws -> Item)? = nil
    ) -> TransferRepresentation {
        var export: (@Sendable (Item) async throws -> RepresentationContent)?
        if let exporting {
            export = { item in .file(path: try await exporting(item).path) }
        }
        var read: (@Sendable (TransferImport) async throws -> Item)?
        if let importing {
            read = { content in try await Self.readFile(content, with: importing) }
        }
        return TransferRepresentation(forms: [
            Form(
                contentType: contentType, visibility: visibility, export: export, importing: read,
                importsFile: read != nil)
        ])
    }

    /// Calls `importing` with a file holding `content` (written to one first when it came in
    /// memory).
    private static func readFile(_ content: TransferImport, with importing: @Sendable (URL) async throws -> Item)
        async throws -> Item
    {
        switch content {
        case .file(let url):
            return try await importing(url)
        case .data(let data):
            let folder = try ImportFolder()
            defer { folder.remove() }
            try data.write(to: folder.file)
            return try await importing(folder.file)
        }
    }

    /// The value through another ``Transferable``: given as `exporting(value)`'s forms, and,
    /// with `importing`, read from them. `proxy(exporting: \.title)` makes a reminder travel as
    /// text to any app; with `importing: { Reminder(title: $0) }` text becomes a reminder.
    public static func proxy<Proxy: Transferable>(
        exporting: @escaping @Sendable (Item) -> Proxy, importing: (@Sendable (Proxy) throws -> Item)? = nil
    ) -> TransferRepresentation {
        var forms: [Form] = []
        for form in Proxy.transferRepresentation.forms {
            var export: (@Sendable (Item) async throws -> RepresentationContent)?
            if let proxyExport = form.export {
                export = { item in try await proxyExport(exporting(item)) }
            }
            var read: (@Sendable (TransferImport) async throws -> Item)?
            if let importing, let proxyRead = form.importing {
                read = { content in try importing(try await proxyRead(content)) }
            }
            forms.append(
                Form(
                    contentType: form.contentType, visibility: form.visibility, export: export, importing: read,
                    importsFile: form.importsFile))
        }
        return TransferRepresentation(forms: forms)
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.keyNotFound(_, let context),
            DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return context.debugDescription
        default:
            return String(describing: error)
        }
    }
}

/// What an importing form reads: bytes in memory, or a file the drop was saved to.
enum TransferImport: Sendable {
    case data(Data)
    case file(URL)
}

extension TransferImport {
    /// The bytes, read from the file when the drop was saved to one.
    func bytes() throws -> Data {
        switch self {
        case .data(let data): return data
        case .file(let url): return try Data(contentsOf: url)
        }
    }
}

/// Combines ``TransferRepresentation`` values, richest first, in a ``Transferable``'s
/// `transferRepresentation`.
@resultBuilder
public enum TransferRepresentationBuilder<Item: Sendable> {
    public static func buildExpression(_ representation: TransferRepresentation<Item>) -> TransferRepresentation<Item> {
        representation
    }

    public static func buildBlock(_ parts: TransferRepresentation<Item>...) -> TransferRepresentation<Item> {
        TransferRepresentation(forms: parts.flatMap(\.forms))
    }

    public static func buildOptional(_ part: TransferRepresentation<Item>?) -> TransferRepresentation<Item> {
        part ?? TransferRepresentation(forms: [])
    }

    public static func buildEither(first part: TransferRepresentation<Item>) -> TransferRepresentation<Item> { part }

    public static func buildEither(second part: TransferRepresentation<Item>) -> TransferRepresentation<Item> { part }

    public static func buildArray(_ parts: [TransferRepresentation<Item>]) -> TransferRepresentation<Item> {
        TransferRepresentation(forms: parts.flatMap(\.forms))
    }
}

// MARK: Standard values

extension String: Transferable {
    /// Text: UTF-8 plain text both ways; read from any text another app offers (HTML is read as
    /// its text, A7).
    public static var transferRepresentation: TransferRepresentation<String> {
        TransferRepresentation.data(
            contentType: .utf8PlainText, exporting: { Data($0.utf8) },
            importing: { data in
                guard let text = String(data: data, encoding: .utf8) else {
                    throw TransferError.malformed(
                        type: ContentType.utf8PlainText.mimeType, reason: Localization.format(.notUTF8))
                }
                return text
            })
    }
}

extension URL: Transferable {
    /// A `text/uri-list` of one address both ways, then the address as plain text (given only).
    public static var transferRepresentation: TransferRepresentation<URL> {
        TransferRepresentation.data(
            contentType: .uriList, exporting: { Data(($0.absoluteString + "\r\n").utf8) },
            importing: { data in
                let text = String(decoding: data, as: UTF8.self)
                let line = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                    .first { !$0.isEmpty && !$0.hasPrefix("#") }
                guard let line, let url = URL(string: line), url.scheme != nil else {
                    throw TransferError.malformed(
                        type: ContentType.uriList.mimeType, reason: Localization.format(.namesNoAddress))
                }
                return url
            })
        TransferRepresentation.data(exportedContentType: .utf8PlainText) { Data($0.absoluteString.utf8) }
    }
}

// MARK: Bridges

extension ItemProvider {
    /// A provider of `value` in every form it gives (``Transferable``), richest first; nothing is
    /// produced until a destination loads it (P1, P5).
    public init<Value: Transferable>(app: AppID, value: Value, suggestedName: String? = nil) {
        let representations = Value.transferRepresentation.forms.compactMap { form -> Representation? in
            guard let export = form.export else { return nil }
            return Representation(form.contentType, visibility: form.visibility) { try await export(value) }
        }
        self.init(app: app, representations: representations, suggestedName: suggestedName)
    }
}

extension DropDataAccess {
    /// Item `index` as a `Value`: each importing form the item can be read as (richest first,
    /// converting where the chooser can, A7) is loaded and decoded; a form whose bytes fail to
    /// load or decode gives way to the next one. Throws the first form's error when none
    /// works, ``TransferError/noAcceptableRepresentation(offered:accepted:)`` when no form
    /// matches what the item offers.
    public func value<Value: Transferable>(_ type: Value.Type, item index: Int) async throws(TransferError) -> Value {
        let forms = Value.transferRepresentation.forms.filter { $0.importing != nil }
        var firstError: TransferError?
        var tried: Set<ContentType> = []
        for form in forms where !tried.contains(form.contentType) {
            tried.insert(form.contentType)
            guard let importing = form.importing, choice(item: index, accepting: [form.contentType]) != nil else {
                continue
            }
            do {
                let content: TransferImport
                var folder: ImportFolder?
                defer { folder?.remove() }
                if form.importsFile {
                    let saved = try ImportFolder()
                    folder = saved
                    _ = try await load(
                        item: index, accepting: [form.contentType],
                        options: LoadOptions(target: .file(path: saved.file.path)))
                    content = .file(saved.file)
                } else {
                    guard case .data(_, let data) = try await load(item: index, accepting: [form.contentType]) else {
                        continue
                    }
                    content = .data(data)
                }
                do { return try await importing(content) } catch let error as TransferError { throw error } catch {
                    throw TransferError.malformed(type: form.contentType.mimeType, reason: String(describing: error))
                }
            } catch let error as TransferError {
                if error == .accessFinished || error == .notDroppedYet || error == .cancelled { throw error }
                if firstError == nil { firstError = error }
            } catch {
                if firstError == nil { firstError = .malformed(type: form.contentType.mimeType, reason: "\(error)") }
            }
        }
        throw firstError
            ?? .noAcceptableRepresentation(
                offered: offeredTypes(item: index).map(\.mimeType), accepted: forms.map(\.contentType.mimeType))
    }

    /// Every item as a `Value`, in order; the first item that cannot be read ends the load with
    /// its error (a drop takes all of them or none, A6).
    public func values<Value: Transferable>(_ type: Value.Type) async throws(TransferError) -> [Value] {
        var values: [Value] = []
        for index in 0..<itemCount { values.append(try await value(type, item: index)) }
        return values
    }
}

extension DropRequest {
    /// The dropped items as `Value`s (see ``DropDataAccess/value(_:item:)``).
    public func values<Value: Transferable>(_ type: Value.Type) async throws(TransferError) -> [Value] {
        try await data.values(type)
    }
}

/// A private folder for one import's file, removed when the import is done.
struct ImportFolder {
    let folder: URL
    /// The file the dropped bytes are saved to.
    var file: URL { folder.appendingPathComponent("dropped") }

    init() throws(TransferError) {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "dragdrop-import-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .io(path: folder.path, reason: String(describing: error))
        }
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

extension JSONEncoder {
    /// An encoder whose output is the same for the same value (sorted keys).
    fileprivate static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

extension Array where Element: Hashable {
    /// The elements without repeats, first occurrences kept in order.
    fileprivate func uniqued() -> [Element] {
        var seen: Set<Element> = []
        return filter { seen.insert($0).inserted }
    }
}
