import Foundation
import DriverProtocol
import WindowDriver
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Files between the showcase and a sandboxed (Flatpak) app, through the file transfer portal
/// (`application/vnd.portal.filetransfer`, FileTransferPortal.swift), as GTK 4 apps exchange
/// them. The portal runs on a private session bus (``PortalSession``); the other app is
/// `dragdrop-hostile-source` inside `bwrap` with a `.flatpak-info`, which the portal takes for a
/// Flatpak app: it gets the files of a drop as paths under the portal's mount, and the
/// showcase's data folder is hidden from it, so only the portal can hand it our files.
@Suite(
    "Showcase: files to and from a sandboxed app", .serialized,
    .enabled(
        if: Tools.xvfb != nil && Tools.xdotool != nil,
        "Xvfb or xdotool is not installed (run `make deps`): showcase tests skipped."),
    .enabled(if: PortalSession.missing == nil, "\(PortalSession.missing ?? "")")
)
struct SandboxedAppTests: ShowcaseTesting {
    static let appID = "org.example.FieldNotes"

    /// The showcase on Files and the sandboxed app beside it, both on one bus with the portal;
    /// the sandboxed app's own files are `own` (name → text), in a folder of their own.
    private func withSandboxedApp(
        own: KeyValuePairs<String, String> = [:],
        _ body: (_ app: ShowcaseProcess, _ peer: HostileSource, _ pointer: Pointer, _ portal: PortalSession, _ data: URL, _ own: URL)
            throws -> Void
    ) throws {
        try withDataDirectory { data in
            let display = try XDisplay.startPrivate()
            defer { display.stop() }
            let portal = try PortalSession(display: display)
            defer { portal.stop() }  // first: its mount is in the display's home
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sandboxed-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            for (name, text) in own { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
            let app = try ShowcaseProcess.launch(
                executable: try Self.showcaseExecutable(), dataDirectory: data, display: display, pane: "files",
                size: (1000, 620), environment: portal.environment)
            defer { app.stop() }
            let peer = try HostileSource.launch(
                executable: try Self.showcaseExecutable(named: "dragdrop-hostile-source"), display: display,
                appName: "field-notes", environment: portal.environment
            ) { executable, arguments in
                try portal.sandboxed(executable, arguments, appID: Self.appID, hiding: [data])
            }
            defer { peer.stop() }
            try body(app, peer, Pointer(display: display), portal, URL(fileURLWithPath: data), folder)
            expectNoGLibProblems(app)
        }
    }

    @Test(
        "S1, S2, A2: files a sandboxed app offers only through the file transfer portal, dragged into a Files folder, arrive with their bytes and its files stay; a transfer key the portal does not know falls back to the app's own URI list"
    )
    func filesFromASandboxedAppIntoFiles() throws {
        let own: KeyValuePairs = [
            "Field notes.txt": "Heron at the weir, 07:40.\n", "Route.gpx": "<gpx><trk/></gpx>\n",
            "Tide table.csv": "time,height\n06:12,3.4\n",
        ]
        try withSandboxedApp(own: own) { app, peer, pointer, _, data, folder in
            func dragIn(_ names: [String], offering items: [[String: Any]]) throws -> String {
                try peer.offer(items)
                let list = try app.settledLayout(pane: "files").list("Documents")
                let before = try #require(app.state?.lists["Documents"])
                let mark = app.lineCount
                try pointer.drag(from: peer.handle, to: (list.midX, list.maxY - 40), steps: 12, pause: 0.4)
                let state = try app.waitForState("\(names) in Documents", after: mark, timeout: 15) {
                    Set($0.lists["Documents"] ?? []).isSuperset(of: names)
                }
                #expect(Set(state.lists["Documents"] ?? []) == Set(before + names), "only \(names) arrive")
                for name in names {
                    let bytes = try #require(FileManager.default.contents(atPath: folder.appendingPathComponent(name).path))
                    #expect(
                        FileManager.default.contents(atPath: data.appendingPathComponent("Files/Documents/\(name)").path) == bytes,
                        "'\(name)' has its bytes")
                }
                return try app.waitFor(StatusLine.self, "the status", after: mark, timeout: 10) {
                    $0.text.hasPrefix("Copied") || $0.text.hasPrefix("Not dropped")
                }.text
            }
            let paths = own.map { folder.appendingPathComponent($0.key).path }
            // Through the portal only: no other type names the files.
            var status = try dragIn(
                ["Field notes.txt", "Route.gpx"],
                offering: [["type": "application/vnd.portal.filetransfer", "portal": Array(paths.prefix(2))]])
            #expect(status.hasPrefix("Copied 2 files to Documents"), "\(status)")
            // A key the portal does not know (the app's transfer ended): its own URI list is read.
            status = try dragIn(
                ["Tide table.csv"],
                offering: [
                    ["type": "application/vnd.portal.filetransfer", "text": "4242\u{0}"],
                    ["type": "text/uri-list", "text": URL(fileURLWithPath: paths[2]).absoluteString + "\r\n"],
                ])
            #expect(status.hasPrefix("Copied"), "\(status)")
            for (name, text) in own {
                #expect(
                    FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) == Data(text.utf8),
                    "S2: the sandboxed app's '\(name)' stays")
            }
        }
    }

    @Test(
        "S2, P5: a file dragged from Files into a sandboxed app reaches it through the file transfer portal: it reads only the portal's type and gets a path under the portal's mount with the file's bytes, while our data folder is hidden from it; the file stays in Files"
    )
    func fileFromFilesIntoASandboxedApp() throws {
        try withSandboxedApp { app, peer, pointer, portal, data, _ in
            let mark = peer.lineCount
            try peer.send(line: #"{"cmd": "target", "behaviour": "portal"}"#)
            try peer.waitFor("the target's behaviour", after: mark) { $0.kind == "target" }
            let name = "Packing list.md"
            let source = data.appendingPathComponent("Files/Documents/\(name)")
            let bytes = try Data(contentsOf: source)
            let row = try app.settledLayout(pane: "files").row(name, in: "Documents")
            let appMark = app.lineCount
            let peerMark = peer.lineCount
            try pointer.drag(from: row.center, to: peer.handle, steps: 12, pause: 0.4)
            let received = try peer.waitFor("the file through the portal", after: peerMark, timeout: 15) {
                guard let message = $0.decode(GtkLine.self)?.message else { return false }
                return ["portal-file", "portal-failed", "refused"].contains { message.hasPrefix($0) }
            }
            let line = try #require(received.decode(GtkLine.self)).message
            #expect(line.contains("portal-file path=\(portal.mountPoint)/"), "a path under the portal's mount: \(line)")
            #expect(line.contains("/\(name) bytes=\(bytes.count) "), "\(line)")
            let text = String(decoding: bytes.prefix(200), as: UTF8.self)
            #expect(line.hasSuffix("text=\(text)"), "the file's own bytes: \(line)")
            let status = try app.waitFor(StatusLine.self, "the hand-off's status", after: appMark, timeout: 15) {
                $0.text.hasPrefix("Copied") || $0.text.hasPrefix("Moved") || $0.text.hasPrefix("Not dropped")
            }.text
            #expect(status.hasPrefix("Copied '\(name)' to "), "\(status)")
            #expect(try Data(contentsOf: source) == bytes, "S2: the file stays, unchanged")
            #expect(app.state?.lists["Documents"]?.contains(name) == true, "the row stays")
        }
    }
}
