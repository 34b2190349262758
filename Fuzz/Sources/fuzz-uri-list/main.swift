// Fuzzes the decoders of `text/uri-list`, the list of files another app drops:
// ContentValidation.uriList (Sources/DragDrop/Transfer/ContentValidation.swift), the streaming
// check of a list as it arrives in chunks (ValidatingSink, DropDataAccess.swift), and the Files
// pane's own reader (FilesLibrary.filePaths, Apps/Sources/ShowcaseModel/Files/FilesLibrary.swift),
// which decides which files get copied.
//
// Oracles: no crash, no hang (a 1 MiB list, even one 1 MiB line delivered in small chunks,
// is checked in linear time); the streaming check and the whole-list check agree; every path
// the Files pane would open is absolute, with no empty, `.` or `..` component and no NUL,
// and comes from a list the engine's check accepts too; errors end with a full stop.
@testable import DragDrop
import Foundation
import FuzzSupport
@testable import ShowcaseModel

/// A path's components as the kernel sees them: split at every "/" byte (not at "/"
/// characters, which miss a "/" that shares a grapheme with the character before it).
func components(_ path: String, omittingEmpty: Bool = true) -> [String] {
    path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: omittingEmpty).map {
        String(decoding: $0, as: UTF8.self)
    }
}

func fuzzURIList(_ raw: Data) {
    let (data, big) = FuzzInput.expand(raw)
    let text = String(decoding: data, as: UTF8.self)

    // The whole list, as ContentValidation reads it.
    var engineAccepts = false
    do {
        let urls = try ContentValidation.uriList(text)
        engineAccepts = true
        for url in urls {
            check(!(url.scheme ?? "").isEmpty, "a URI without a scheme was accepted: \(url)")
            if url.scheme?.lowercased() == "file" {
                let segments = components(url.path)
                check(url.path.hasPrefix("/"), "a relative file path was accepted: \(url)")
                check(!segments.contains("..") && !segments.contains("."), "a '..' path was accepted: \(url)")
            }
        }
    } catch {
        check(endsWithFullStop(error.description), "an error without a full stop: \(excerpt(error.description))")
    }

    // The Files pane's reader.
    do {
        let paths = try FilesLibrary.filePaths(fromURIList: text)
        check(engineAccepts, "the Files pane accepted a list the engine refuses: \(excerpt(text))")
        check(!paths.isEmpty, "an empty list of paths was accepted")
        for path in paths {
            check(path.utf8.first == UInt8(ascii: "/"), "a relative path: \(excerpt(path))")
            let parts = components(path, omittingEmpty: false).dropFirst()
            check(!parts.contains(where: \.isEmpty), "an empty path component: \(excerpt(path))")
            check(!parts.contains(".") && !parts.contains(".."), "a '.' or '..' component: \(excerpt(path))")
            check(!path.utf8.contains(0), "a NUL in a path: \(excerpt(path))")
        }
    } catch {
        check(endsWithFullStop(error.description), "an error without a full stop: \(excerpt(error.description))")
    }

    // The same bytes checked as they stream in, in chunks of 1 to 64 bytes (a slow or hostile
    // source), must get the same verdict as the whole list.
    var whole: TransferError?
    do { try ContentValidation.validate(data, as: .uriList) } catch { whole = error }
    var random = InputRandom(raw)
    let sink = ValidatingSink(MemorySink(), type: .uriList, conformance: TypeConformance())
    var streamed: (any Error)?
    do {
        for chunk in random.chunks(of: data, maxChunk: 64) { try sink.write(chunk) }
        try sink.finish()
    } catch {
        streamed = error
    }
    check(
        (whole == nil) == (streamed == nil),
        "whole list: \(whole.map { excerpt($0.description) } ?? "accepted"); streamed: \(streamed.map { excerpt("\($0)") } ?? "accepted")"
    )
}

runFuzzer { pointer, count in
    fuzzURIList(fuzzData(pointer, count))
    return 0
}
