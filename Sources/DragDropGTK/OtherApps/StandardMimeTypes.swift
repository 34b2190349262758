import CGtk4
import DragDrop

/// The MIME type names other Linux apps understand, for what we offer and what we receive.
enum StandardMimeTypes {
    /// The names under which a representation of `type` is offered to other apps, most precise
    /// first. UTF-8 text is also offered as bare `text/plain` (what older apps ask for; GDK adds
    /// the X11 names `UTF8_STRING`, `STRING`... itself); aliases become their standard name
    /// (`image/jpg` → `image/jpeg`); other types keep their name (an app's native type, P2).
    static func exported(_ type: ContentType, conformance: TypeConformance) -> [String] {
        let essence = conformance.canonical(type.essence)
        switch essence {
        case "text/plain": return ["text/plain;charset=utf-8", "text/plain"]
        default:
            // Keep parameters that matter (a charset other than UTF-8 stays as given).
            return [essence == type.essence ? type.mimeType : essence]
        }
    }

    /// The content types another app's drop offers, richest first (A2), from GDK's format
    /// names: in the other app's order, except that plain text, the poorest form of anything,
    /// goes last (Qt lists `text/plain` before the `text/html` of the same selection). X11
    /// target names that are not MIME types (`UTF8_STRING`, `TARGETS`), wildcards and repeats
    /// of a kind already offered (`text/plain` after `text/plain;charset=utf-8`: the first,
    /// richer spelling is read) are left out.
    static func received(_ names: [String]) -> [ContentType] {
        var result: [ContentType] = []
        var seen = Set<String>()
        for name in names where name.contains("/") {
            let type = ContentType(name)
            guard type.isWellFormed, !type.isWildcard, seen.insert(type.essence).inserted else { continue }
            result.append(type)
        }
        let plain = result.filter { $0.essence == ContentType.plainText.essence }
        return result.filter { $0.essence != ContentType.plainText.essence } + plain
    }

    /// The types another app offers in GDK's `formats` (a drop's, the clipboard's), as
    /// ``received(_:)`` keeps them.
    static func received(_ formats: OpaquePointer) -> [ContentType] {
        var count: gsize = 0
        var names: [String] = []
        if let list = gdk_content_formats_get_mime_types(formats, &count) {
            for i in 0..<Int(count) { if let name = list[i] { names.append(String(cString: name)) } }
        }
        return received(names)
    }

    /// Whether several items' data of `type` can be offered as one (joined by line breaks).
    static func joinable(_ type: ContentType) -> Bool {
        ["text/plain", "text/uri-list", "text/html"].contains(type.essence)
    }

    /// The richest type of a kind people know (text, files, images), passing over types only
    /// their app understands (Qt's `application/x-hotspot` before its text).
    private static func known(_ types: [ContentType]) -> ContentType? {
        types.first { ["text", "image"].contains($0.mediaType) } ?? types.first
    }

    /// A short description of dropped content by its richest type, for announcements.
    /// What another app's item is called in announcements and undo names ("Undo Copy File").
    static func noun(for types: [ContentType]) -> Noun {
        guard let first = known(types) else { return .item }
        if let web = webKind(types) { return Noun(web.lowercased()) }
        switch first.mediaType {
        case "text" where first.essence == "text/uri-list": return Noun("file")
        case "text": return Noun("text", plural: "texts")
        case "image": return Noun("image")
        default: return .item
        }
    }

    static func describe(_ types: [ContentType]) -> String {
        guard let first = known(types) else { return "Content" }
        if let web = webKind(types) { return web }
        switch first.mediaType {
        case "text" where first.essence == "text/uri-list": return "Files"
        case "text": return "Text"
        case "image": return "Image"
        default: return "Content"
        }
    }

    /// What a browser's drag is, by the types browsers offer: an address with the bytes of a
    /// file (Chromium's `<img>`), with image data or a file promise (Firefox's) is an image; an
    /// address alone a link.
    private static func webKind(_ types: [ContentType]) -> String? {
        let address = types.contains(where: { $0.essence == "text/x-moz-url" })
        guard address || types.first?.essence == "text/uri-list" else { return nil }
        let image = types.contains {
            $0 == .octetStream || $0.mediaType == "image" || $0.essence == "application/x-moz-file-promise-url"
        }
        if image { return "Image" }
        return address ? "Link" : nil
    }
}
