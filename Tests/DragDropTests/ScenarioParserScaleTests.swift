import DragDrop
import DragDropTesting
import Foundation
import Testing

/// What fuzzing the scenario parser found (Fuzz/fuzz-scenario): documents of a megabyte whose
/// checks took minutes, each kept as a test. The answers are the same as before; only the time
/// they take changed, from quadratic to linear (a 1 MiB object of 96,000 keys took over eight
/// minutes in a debug build).
@Suite("Scenario files: big documents")
struct ScenarioParserScaleTests {
    /// A scenario whose only node, a container, has `extra` spliced into it.
    private func scenario(node extra: String, top: String = "", expect: String? = nil) -> String {
        """
        {"name":"big","description":"",\(top)"scene":[{"id":"c","role":"container","frame":[0,0,10,10]\(extra)}],"events":[]\
        \(expect.map { ",\"expect\":\($0)" } ?? "")}
        """
    }

    private func error(_ json: String) -> ScenarioError? {
        do {
            _ = try Scenario(json: json)
            return nil
        } catch {
            return error
        }
    }

    @Test("An object with 100,000 keys is read in linear time; a key repeated at its end is still found")
    func manyKeys() throws {
        let keys = (0..<100_000).map { "\"k\($0)\":1" }.joined(separator: ",")
        let unknown = try #require(error("{\(keys)}"))
        #expect(unknown.kind == .unknownField)
        #expect(unknown.message.hasPrefix("unknown field \"k0\""))
        let repeated = try #require(error("{\(keys),\"k99999\":2}"))
        #expect(repeated.kind == .malformedJSON)
        #expect(repeated.message == "duplicate key \"k99999\"")
        #expect(repeated.location?.column == keys.count + 3)
    }

    @Test("A list of 100,000 ids is checked for repeats in linear time")
    func manyIDs() throws {
        let ids = (0..<100_000).map { "\"i\($0)\"" }.joined(separator: ",")
        let repeated = try #require(error(scenario(node: #","onActivate":{"show":[\#(ids),"i5"]}"#)))
        #expect(repeated.message == "\"i5\" is listed twice")
        #expect(repeated.path == "scene[0].onActivate.show[100000]")
        // Unknown references are found after the scene: no node has these ids.
        let unknown = try #require(error(scenario(node: #","onActivate":{"show":[\#(ids)]}"#)))
        #expect(unknown.kind == .unknownReference)
    }

    @Test("100,000 items from another app are checked for repeated ids in linear time")
    func manyExternalItems() throws {
        let items = (0..<100_000).map { #"{"id":"x\#($0)","types":["text/plain"]}"# }.joined(separator: ",")
        let json = """
            {"name":"big","description":"","scene":[{"id":"c","role":"container","frame":[0,0,10,10]}],\
            "events":[{"at":0,"externalEnter":{"app":"Other","at":[1,1],"items":[\(items),{"id":"x3","types":["text/plain"]}]}}]}
            """
        let repeated = try #require(error(json))
        #expect(repeated.kind == .duplicateID)
        #expect(repeated.message == "duplicate id \"x3\"")
    }

    @Test("A 1 MiB unknown key gets no suggestion and is reported at once; a typo still gets one")
    func longUnknownKey() throws {
        // Suggestions compared every unknown word with every known one, cell by cell: a
        // megabyte-long key against a scene's ids took minutes.
        let key = String(repeating: "x", count: 1 << 20)
        let long = try #require(error(scenario(node: ",\"\(key)\":1")))
        #expect(long.kind == .unknownField)
        #expect(!long.message.contains("did you mean"))
        let typo = try #require(error(scenario(node: ",\"layuot\":\"vertical\"")))
        #expect(typo.message.contains("(did you mean \"layout\"?)"))
        // A long reference to a long id that differs by one letter: comparing them cell by cell
        // would need a table of 300,000 × 300,000.
        let tail = String(repeating: "a", count: 300_000)
        let json = """
            {"name":"big","description":"","scene":[{"id":"n\(tail)","role":"container","frame":[0,0,10,10],\
            "onActivate":{"show":["m\(tail)"]}}],"events":[]}
            """
        let reference = try #require(error(json))
        #expect(reference.kind == .unknownReference)
        #expect(!reference.message.contains("did you mean"))
    }
}
