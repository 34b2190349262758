import CDragDropGTKSupport
import CGtk4
import DragDrop
import Foundation

/// How a drop from another app is read on X11: XdndSelection converted with the drop's
/// timestamp into the window the drop was sent to, as the XDND specification asks.
///
/// GDK's own read (`gdk_drop_read_async`) asks with `CurrentTime` from a hidden window. Qt 5
/// ties a selection request to a finished drop by its timestamp or its requestor window, finds
/// neither, and answers with a refusal whose target GDK does not recognize: GDK then waits
/// forever, and a word dragged from Qt's `draggabletext` never arrived (issue 11).
struct X11DropSelection: Equatable {
    /// Our X window the drop was sent to: the requestor.
    var requestor: UInt
    /// The drop's timestamp (XdndDrop), 0 when the source gave none.
    var time: UInt32
    /// The X targets the source offers (XdndTypeList): MIME types and X names such as `UTF8_STRING`.
    var offered: [String]

    /// The X target to ask for the drop's `mimeType`, and whether its bytes are ISO 8859-1 text
    /// to convert to UTF-8; nil when the source does not offer it.
    ///
    /// A MIME type offered as such is asked for by its name. UTF-8 text not offered under its MIME
    /// name is asked for as `UTF8_STRING` (what GDK lists as `text/plain;charset=utf-8`), then
    /// `STRING` (ISO 8859-1, ICCCM).
    func request(for mimeType: String) -> (target: String, latin1: Bool)? {
        if let exact = offered.first(where: { $0.caseInsensitiveCompare(mimeType) == .orderedSame }) {
            return (exact, false)
        }
        let type = ContentType(mimeType)
        guard type.essence == "text/plain" else { return nil }
        let charset = Self.charset(of: mimeType)
        guard charset == nil || charset == "utf-8" || charset == "utf8" else { return nil }
        if offered.contains("UTF8_STRING") { return ("UTF8_STRING", false) }
        if offered.contains("STRING") { return ("STRING", true) }
        return nil
    }

    /// The lower-cased `charset` parameter of a MIME type, if any.
    static func charset(of mimeType: String) -> String? {
        for parameter in mimeType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else {
                continue
            }
            return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: " \"")).lowercased()
        }
        return nil
    }

    /// ISO 8859-1 bytes as UTF-8 (each byte is the code point of the same number).
    static func utf8(fromLatin1 bytes: Data) -> Data {
        var out = Data(capacity: bytes.count)
        for byte in bytes {
            if byte < 0x80 {
                out.append(byte)
            } else {
                out.append(0xC0 | (byte >> 6))
                out.append(0x80 | (byte & 0x3F))
            }
        }
        return out
    }
}

/// One type of another app's drop read from XdndSelection (``X11DropSelection``), chunk by
/// chunk (INCR for large data), on the main actor without blocking GTK's loop.
///
/// Reads fail (never hang) when the other app refuses, goes away (``cancel(reason:)``) or
/// sends nothing for `timeout` seconds (``ReadSilence``, in the same words as
/// ``GdkDropStream``); the destination then gets `TransferError/sourceUnavailable(_:)`. A
/// read given up is cancelled in X11SelectionRead.c, whose late answer no later read takes.
@MainActor
final class X11DropStream: ByteSource, DropReader {
    nonisolated let knownSize: Int64? = nil
    private let display: OpaquePointer?
    private let selection: X11DropSelection
    private let target: String
    private let latin1: Bool
    private let mimeType: String
    private let silence: ReadSilence
    private var readID: guint = 0
    private var started = false
    private var chunks: [Data] = []
    private var ended = false
    private var failure: String?
    private var waiter: CheckedContinuation<Void, Never>?

    /// A stream of `mimeType` asked for as `target` (see ``X11DropSelection/request(for:)``).
    init(selection: X11DropSelection, mimeType: String, target: String, latin1: Bool, timeout: Double) {
        display = gdk_display_get_default()
        self.selection = selection
        self.mimeType = mimeType
        self.target = target
        self.latin1 = latin1
        silence = ReadSilence(seconds: timeout)
    }

    nonisolated func read(upTo maxLength: Int) async throws -> Data { try await next(maxLength) }

    /// Stops the transfer: the pending and every later read fail with `reason`.
    func cancel(reason: String) {
        guard failure == nil, !ended || !chunks.isEmpty else { return }
        failure = reason
        chunks = []
        stop()
        wake()
    }

    private func next(_ maxLength: Int) async throws(TransferError) -> Data {
        if !started { start() }
        while chunks.isEmpty, !ended, failure == nil {
            silence.arm { [weak self] reason in self?.cancel(reason: reason) }
            await withCheckedContinuation { waiter = $0 }
        }
        silence.disarm()
        if let failure { throw .sourceUnavailable(failure) }
        guard !chunks.isEmpty else { return Data() }
        let count = max(1, maxLength)
        if chunks[0].count <= count { return chunks.removeFirst() }
        let head = chunks[0].prefix(count)
        chunks[0] = chunks[0].dropFirst(count)
        return Data(head)
    }

    private func start() {
        started = true
        let callback: DDX11ReadCallback = { data, status, bytes, length in
            guard let stream = CallbackBox<WeakX11DropStream>.from(data)?.body.stream else { return }
            let chunk = bytes.map { Data(bytes: $0, count: Int(length)) } ?? Data()
            MainActor.assumeIsolated { stream.received(status, chunk) }
        }
        readID = selection.requestor == 0 ? 0 :
            dd_x11_xdnd_read(
                display, gulong(selection.requestor), target, selection.time, callback,
                CallbackBox(WeakX11DropStream(self)).retainedPointer, releaseSourceNotify)
        if readID == 0 {
            failure = "the other app's data cannot be asked for on this display"
        }
    }

    private func received(_ status: DDX11ReadStatus, _ chunk: Data) {
        guard failure == nil, !ended else { return }
        switch status {
        case DD_X11_READ_DATA:
            if !chunk.isEmpty { chunks.append(latin1 ? X11DropSelection.utf8(fromLatin1: chunk) : chunk) }
        case DD_X11_READ_END:
            readID = 0
            ended = true
        case DD_X11_READ_REFUSED:
            readID = 0
            failure = "the other app refused to send it as \(mimeType)"
        default:
            readID = 0
            failure = "the other app's reply could not be read"
        }
        wake()
    }

    private func wake() {
        let waiting = waiter
        waiter = nil
        waiting?.resume()
    }

    private func stop() {
        silence.disarm()
        if readID != 0 { dd_x11_xdnd_read_cancel(display, readID) }
        readID = 0
    }

    isolated deinit { stop() }
}

/// A weak reference to a stream for C callbacks that may outlive it.
final class WeakX11DropStream {
    weak var stream: X11DropStream?
    init(_ stream: X11DropStream) { self.stream = stream }
}

/// A read of another app's drop that can be stopped.
@MainActor
protocol DropReader: AnyObject {
    /// Stops the transfer: the pending and every later read fail with `reason`.
    func cancel(reason: String)
}

extension GdkDropStream: DropReader {}
