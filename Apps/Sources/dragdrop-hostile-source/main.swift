import CDragDropGTKSupport
import CGtk4
import DragDropGTK
import Foundation
import Glibc

// A hostile app for the tests: one GTK 4 window whose whole surface is a drag source offering
// whatever it was last told, any bytes under any MIME type, answered at once, never, a byte at a
// time, or dying mid-transfer. The showcase must refuse what it cannot use, with a reason, and
// stay responsive (see Tests/ShowcaseTests/HostileAppTests.swift and RELIABILITY.md).
//
//   dragdrop-hostile-source [--title TITLE] [--app-name NAME] [--size WIDTHxHEIGHT]
//
// --title      the window's title (default: Hostile Source), to find the window.
// --app-name   the program name other apps see (WM_CLASS; default: hostile-source): any text,
//              right-to-left overrides included.
//
// Standard input: one JSON command a line; the app quits at its end.
//   {"cmd": "offer", "items": [{"type": "text/plain;charset=utf-8", "text": "…"}]}
//     an item's bytes: "text" (UTF-8), "base64", "file" (a path read now), or "repeat" and
//     "count" (the text repeated); "behaviour": send (default), silent, trickle (after "after"
//     bytes, one every "interval" ms), die (SIGKILL after "after" bytes), late (nothing for
//     "interval" ms, then every byte).
//   {"cmd": "target", "behaviour": "finish" | "hang" | "read-hang" | "refuse"}
//     the window also takes drops, and then finishes them, hangs, hangs after reading a
//     little, or reads and refuses them (Target.swift).
// An item with "portal": [paths] offers those files as a sandboxed app does: its bytes are the
// key of a file transfer opened with the portal (see Portal.swift; run the app inside bwrap
// with a .flatpak-info for the portal to take it for a Flatpak).
// Standard output: JSON lines: {"kind":"ready"} once the window is shown; {"kind":"offered",
// "types":[…],"sizes":[…]} after each offer (or {"kind":"error","message":…}); {"kind":"gtk",
// "message":…} for drag-begin, drag-end, drag-cancel and every write (write-start, write-done,
// write-failed, write-progress, trickle, dying, late-start).

struct Options {
    var title = "Hostile Source"
    var appName = "hostile-source"
    var size: (Int32, Int32) = (240, 160)

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--title": title = rest.popFirst() ?? title
            case "--app-name": appName = rest.popFirst() ?? appName
            case "--size":
                let parts = (rest.popFirst() ?? "").split(separator: "x").compactMap { Int32($0) }
                if parts.count == 2 { size = (parts[0], parts[1]) }
            default:
                FileHandle.standardError.write(Data("dragdrop-hostile-source: unknown argument \(argument)\n".utf8))
                exit(2)
            }
        }
    }
}

/// Prints one JSON object a line on standard output.
func emit(_ object: [String: Any]) {
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}

@MainActor
final class HostileSource {
    let options: Options
    var offer: Offer?
    /// The drop destination, once a `target` command asked for one (Target.swift).
    var target: HostileTarget?
    private var label: UnsafeMutablePointer<GtkWidget>?
    private var input = Data()

    init(options: Options) { self.options = options }

    func activate(_ app: UnsafeMutablePointer<GtkApplication>) {
        guard let window = gtk_application_window_new(app) else { return }
        gtk_window_set_title(dd_window(window), options.title)
        gtk_window_set_default_size(dd_window(window), options.size.0, options.size.1)
        let label = gtk_label_new("Drag from here")!
        gtk_widget_set_hexpand(label, 1)
        gtk_widget_set_vexpand(label, 1)
        gtk_window_set_child(dd_window(window), label)
        let source = gtk_drag_source_new()!
        gtk_drag_source_set_actions(source, GdkDragAction(rawValue: GDK_ACTION_COPY.rawValue | GDK_ACTION_MOVE.rawValue))
        let raw = UnsafeMutableRawPointer(source)
        GSignal.connect(raw, "prepare", pointReturningPointer: { [weak self] _, _ in self?.makeProvider() })
        GSignal.connect(raw, "drag-begin", pointer: { _ in self.log("drag-begin") })
        GSignal.connect(raw, "drag-end", pointerBool: { _, delete in self.log("drag-end delete=\(delete)") })
        GSignal.connect(
            raw, "drag-cancel",
            pointerEnumReturningBool: { _, reason in
                self.log("drag-cancel reason=\(reason)")
                return false
            })
        gtk_widget_add_controller(label, source)
        self.label = label
        gtk_window_present(dd_window(window))
        GLibSource.watch(fd: 0) { [weak self] fd in self?.readInput(fd) ?? false }
        // Ready once the window is mapped and painted.
        GLibSource.once(afterMilliseconds: 200) { emit(["kind": "ready"]) }
    }

    func log(_ message: String) { emit(["kind": "gtk", "message": message]) }

    /// A new content provider for the offer (transfer full), or nil while nothing is offered.
    private func makeProvider() -> UnsafeMutableRawPointer? {
        guard let offer else {
            log("prepare refused: nothing offered")
            return nil
        }
        log("prepare types=\(offer.representations.map(\.type))")
        let write: DDLazyProviderWrite = { data, mimeType, stream, _, _, task in
            guard let data, let stream, let mimeType else {
                dd_lazy_provider_return(task, "nothing to write")
                return
            }
            let source = Unmanaged<HostileSource>.fromOpaque(data).takeUnretainedValue()
            let mime = String(cString: mimeType)
            let streamBits = UInt(bitPattern: UnsafeMutableRawPointer(stream))
            let taskBits = UInt(bitPattern: task.map { UnsafeMutableRawPointer($0) })
            MainActor.assumeIsolated {
                source.write(mime, stream: streamBits, task: taskBits)
            }
        }
        let types = offer.representations.map(\.type)
        var cStrings = types.map { strdup($0) }
        defer { for pointer in cStrings { free(pointer) } }
        let provider = cStrings.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { array in
                dd_lazy_provider_new(
                    array, gsize(types.count), write, Unmanaged.passRetained(self).toOpaque(),
                    { data in if let data { Unmanaged<HostileSource>.fromOpaque(data).release() } })
            }
        }
        return provider.map { UnsafeMutableRawPointer($0) }
    }

    private func write(_ mimeType: String, stream: UInt, task: UInt) {
        let taskPointer = OpaquePointer(bitPattern: task)
        guard let stream = UnsafeMutableRawPointer(bitPattern: stream)?.assumingMemoryBound(to: GOutputStream.self),
            let representation = offer?.representations.first(where: { $0.type == mimeType })
                ?? offer?.representations.first(where: { Self.sameType($0.type, mimeType) })
        else {
            log("write-refused type=\(mimeType)")
            dd_lazy_provider_return(taskPointer, "not offered: \(mimeType)")
            return
        }
        Writer(representation, stream: stream, task: taskPointer) { [weak self] in self?.log($0) }.start()
    }

    /// GTK may ask for a type under a name it normalised (`text/plain;charset=utf-8`).
    private static func sameType(_ a: String, _ b: String) -> Bool {
        a.lowercased().replacingOccurrences(of: " ", with: "") == b.lowercased().replacingOccurrences(of: " ", with: "")
    }

    // MARK: Commands

    /// Reads standard input; runs each complete line. Returns false at its end (the app quits).
    private func readInput(_ fd: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else {
            g_application_quit(g_application_get_default())
            return false
        }
        input.append(contentsOf: buffer[0..<count])
        while let newline = input.firstIndex(of: 0x0A) {
            let line = input[input.startIndex..<newline]
            input.removeSubrange(input.startIndex...newline)
            run(Data(line))
        }
        return true
    }

    private func announce(_ offer: Offer) {
        self.offer = offer
        emit([
            "kind": "offered", "types": offer.representations.map(\.type),
            "sizes": offer.representations.map(\.bytes.count),
        ])
    }

    private func run(_ line: Data) {
        do {
            guard let command = try JSONSerialization.jsonObject(with: line) as? [String: Any] else {
                throw CommandError("a command is a JSON object")
            }
            switch command["cmd"] as? String {
            case "offer":
                var offer = try Offer(command: command)
                guard let index = offer.portalIndex, let paths = offer.portalPaths else {
                    announce(offer)
                    return
                }
                // A sandboxed app's files: offered by the key of a transfer opened with the portal.
                Portal.register(paths) { [weak self] outcome in
                    switch outcome {
                    case .success(let key):
                        offer.representations[index].bytes = Data(key[0].utf8) + Data([0])
                        self?.announce(offer)
                    case .failure(let error):
                        emit(["kind": "error", "message": "the portal took no files: \(error)"])
                    }
                }
            case "target":
                guard let behaviour = command["behaviour"] as? String, ["finish", "hang", "read-hang", "refuse", "portal"].contains(behaviour)
                else { throw CommandError("a target's behaviour is finish, hang, read-hang, refuse or portal") }
                if target == nil, let label { target = HostileTarget(on: label) { [weak self] in self?.log($0) } }
                target?.behaviour = behaviour
                emit(["kind": "target", "behaviour": behaviour])
            default:
                throw CommandError("unknown command")
            }
        } catch {
            emit(["kind": "error", "message": "\(error)"])
        }
    }
}

let options = Options(CommandLine.arguments)
g_set_prgname(options.appName)
let hostile = HostileSource(options: options)
guard let app = gtk_application_new("org.dragdrop.hostile", G_APPLICATION_NON_UNIQUE) else { exit(1) }
GLibMainActorBridge.install()
GSignal.connect(UnsafeMutableRawPointer(app), "activate") { hostile.activate(app) }
GLibSource.onUnixSignal(SIGTERM) { g_application_quit(dd_application(app)) }
exit(g_application_run(dd_application(app), 0, nil))
