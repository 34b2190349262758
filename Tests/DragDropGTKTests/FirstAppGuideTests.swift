import Foundation
import Testing

/// The DocC guide shows the example's files as they are, so it compiles as written and never
/// drifts from the app the test above drives.
@Suite("Docs: the guide's first app is the example's")
struct FirstAppGuideTests {
    static let guidePath = "Sources/DragDropGTK/DragDropGTK.docc/YourFirstApp.md"

    /// The guide's ```swift blocks, each without its fences.
    func swiftBlocks() throws -> [String] {
        let guide = try String(
            contentsOf: FirstAppTests.root.appendingPathComponent(Self.guidePath), encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in guide.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if let lines = current, line == "```" {
                blocks.append(lines.joined(separator: "\n") + "\n")
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    func example(_ path: String) throws -> String {
        try String(
            contentsOf: FirstAppTests.root.appendingPathComponent("Examples/FirstApp").appendingPathComponent(path),
            encoding: .utf8)
    }

    @Test("The guide's main.swift is Examples/FirstApp/Sources/FirstApp/main.swift, character for character")
    func mainSwiftMatches() throws {
        let block = try #require(try swiftBlocks().first { $0.hasPrefix("import CGtk4\n") }, "no main.swift in the guide")
        #expect(block == (try example("Sources/FirstApp/main.swift")))
    }

    @Test("The guide's Package.swift is the example's, but for the path to DragDrop")
    func packageSwiftMatches() throws {
        let block = try #require(
            try swiftBlocks().first { $0.hasPrefix("// swift-tools-version") }, "no Package.swift in the guide")
        let manifest = try example("Package.swift")
        #expect(manifest.contains(#".package(name: "DragDrop", path: "../..")"#))
        #expect(
            block
                == manifest.replacingOccurrences(
                    of: #".package(name: "DragDrop", path: "../..")"#, with: #".package(name: "DragDrop", path: "../DragDrop")"#))
    }
}
