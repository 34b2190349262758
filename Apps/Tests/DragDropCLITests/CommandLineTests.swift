import DragDropTesting
import Foundation
import Testing

/// The apps' package root (Apps/) and the repository's root, found from this file's path.
private let appsRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
private let packageRoot = appsRoot.deletingLastPathComponent()

/// The `dragdrop` tool, built by this package, run on the repository's example scenarios.
@Suite("The dragdrop tool")
struct CommandLineTests {
    @Test("dragdrop replay, audit and rules: output and exit codes")
    func commandLine() throws {
        let binary = try #require(
            [appsRoot.appendingPathComponent(".build/debug/dragdrop"), Bundle.main.bundleURL.appendingPathComponent("dragdrop")]
                .first { FileManager.default.isExecutableFile(atPath: $0.path) },
            "dragdrop was not built: run `swift build` in Apps/ (or `make test`) first")
        func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
            let p = Process()
            p.executableURL = binary
            p.arguments = arguments
            p.currentDirectoryURL = packageRoot
            let out = Pipe()
            let err = Pipe()
            p.standardOutput = out
            p.standardError = err
            try p.run()
            let o = out.fileHandleForReading.readDataToEndOfFile()
            let e = err.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
        }
        let replay = try run(["replay", "Examples/scenarios/keyboard-drag.json"])
        #expect(replay.status == 0)
        let lines = replay.out.split(separator: "\n")
        #expect(lines.first?.hasPrefix(#"{"t":0.5,"kind":"input","event":"select""#) == true)
        #expect(lines.last?.contains(#""expectMatched":true"#) == true)

        let audit = try run(["audit", "Examples/scenarios/keyboard-drag.json"])
        #expect(audit.status == 0)
        #expect(audit.out == "ok\n")

        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("dragdrop-bad-\(UUID().uuidString).json")
        try Data(#"{"name": "x", "description": "", "scene": [], "events": []}"#.utf8).write(to: bad)
        defer { try? FileManager.default.removeItem(at: bad) }
        let invalid = try run(["replay", bad.path])
        #expect(invalid.status == 2)
        #expect(invalid.err.contains("scene: the scene is empty"))

        let rules = try run(["rules"])
        #expect(rules.status == 0)
        #expect(rules.out.split(separator: "\n").map { $0.split(separator: "\t").first.map(String.init) ?? "" } == TimelineAuditor.rules)
    }
}
