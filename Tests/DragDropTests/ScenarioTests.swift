import DragDrop
import DragDropTesting
import Foundation
import Testing

/// The package root, found from this file's path.
private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
private let examplesDirectory = packageRoot.appendingPathComponent("Examples/scenarios")

/// The example scenario files, sorted.
private let exampleFiles: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: examplesDirectory.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted()
}()

@Suite("Scenario files")
struct ScenarioTests {
    // MARK: Examples

    @Test("every situation without real data has an example scenario")
    func examplesExist() {
        let wanted = [
            "reminders-between-lists", "reminders-reorder", "home-screen-folder", "calendar-segments",
            "mail-back-button", "mail-long-draft", "files-write-only-folder", "forbidden-and-cancel",
            "keyboard-drag", "copy-between-apps", "photos-shared-album",
        ]
        for name in wanted { #expect(exampleFiles.contains(name + ".json"), "missing \(name).json") }
    }

    @Test("example loads, replays, matches its expect block and breaks no rule", arguments: exampleFiles)
    func example(_ file: String) throws {
        let scenario = try Scenario(contentsOfFile: examplesDirectory.appendingPathComponent(file).path)
        #expect(scenario.expect != nil, "\(file) has no expect block")
        #expect(!scenario.description.isEmpty)
        let run = try scenario.audit()
        #expect(run.expectationMet == true, "\(file): \(run.mismatches)")
        #expect(run.violations.isEmpty, "\(file): \(run.violations)")
        #expect(run.pending.isEmpty, "\(file): \(run.pending)")
        // Every entry and the summary are one line of JSON each.
        #expect(run.jsonLines.count == run.timeline.count + 1)
        #expect(run.jsonLines.last?.hasPrefix("{\"kind\":\"summary\"") == true)
    }

    @Test("SP1, F7, U1, U2, U3, A1, C4: the examples show what they claim")
    func examplesShowTheirSituations() throws {
        func feedback(_ name: String) throws -> [FeedbackEvent] {
            try Scenario(contentsOfFile: examplesDirectory.appendingPathComponent(name + ".json").path).run().harness.feedback
        }
        let folder = try feedback("home-screen-folder")
        #expect(folder.contains(.springActivated("utilities-folder", explicit: false)))
        let calendar = try feedback("calendar-segments")
        #expect(calendar.contains(.springDisarmed("segment-week")))
        #expect(calendar.contains(.springActivated("segment-month", explicit: false)))
        let mail = try feedback("mail-back-button")
        #expect(mail.contains(.itemsAdded(["order-shipped"])))
        let draft = try feedback("mail-long-draft")
        #expect(draft.contains(.autoscrollStarted("draft-body")))
        #expect(draft.contains(.autoscrollStopped("draft-body")))
        let files = try feedback("files-write-only-folder")
        #expect(files.filter { if case .confirmationRequested = $0 { true } else { false } }.count == 2)
        let refused = try feedback("forbidden-and-cancel")
        #expect(refused.contains(.preview(PreviewState(count: 1, badge: .forbidden))))
        #expect(
            refused.contains(.outcome(.returnToSource(DropFailure(.forbidden, "Family Recipes is shared with you as view only.")))))
        let keyboard = try feedback("keyboard-drag")
        #expect(keyboard.contains(.keyboardFocus("in-progress", index: 1)))
        #expect(!keyboard.contains(.keyboardFocus("done", index: 2)))
        let photos = try feedback("photos-shared-album")
        #expect(photos.contains(.cancellationUsed("family-shared")))
        let reminders = try feedback("reminders-between-lists")
        #expect(reminders.contains(.undid("Move 2 Reminders")))
        #expect(reminders.contains(.redid("Move 2 Reminders")))
    }

    // MARK: Running

    @Test("a stepped move spreads its steps evenly from the previous event's time and pointer")
    func steppedMove() throws {
        let scenario = try Scenario(json: document(events: #"[{"at": 1, "down": [20, 20]}, {"at": 2, "move": [60, 20], "steps": 4}]"#))
        let run = try scenario.run()
        let moves = run.timeline.compactMap { e -> (Double, Point)? in
            if case .input(.pointerMove(let p)) = e.event { return (e.time.seconds, p) }
            return nil
        }
        #expect(moves.map(\.0) == [1.25, 1.5, 1.75, 2])
        #expect(moves.map(\.1.x) == [30, 40, 50, 60])
        // The runner lets two seconds pass after the last event.
        #expect(run.harness.clock.now == MonotonicInstant(.seconds(4)))
    }

    @Test("a mismatched expect block is reported per container and in the summary")
    func expectMismatch() throws {
        let json = document(
            events: #"[{"at": 0, "down": [20, 20]}, {"at": 0.1, "move": [30, 20]}, {"at": 0.5, "move": [600, 10], "steps": 3}, {"at": 0.6, "up": true}]"#,
            extra: #", "expect": {"work": ["eggs"], "groceries": ["milk", "eggs"]}"#)
        let run = try Scenario(json: json).run()
        #expect(run.expectationMet == false)
        #expect(run.mismatches.map(\.container) == ["work"])
        #expect(run.mismatches.first?.description == "work: expected [eggs], got [milk-copy1]")
        let summary = run.summary.serialized
        #expect(summary.contains(#""expectMatched":false"#))
        #expect(summary.contains(#""mismatches":[{"container":"work","expected":["eggs"],"actual":["milk-copy1"]}]"#))
    }

    @Test("a scenario without expect reports null in the summary")
    func noExpect() throws {
        let run = try Scenario(json: document()).run()
        #expect(run.expectationMet == nil)
        #expect(run.summary.serialized.contains(#""expectMatched":null"#))
    }

    @Test("settings reach the engine: lift threshold and spring timing")
    func settings() throws {
        let json = document(
            scene: #"""
                [{"id": "list", "role": "container", "frame": [0, 0, 400, 400], "accepts": ["text/plain"], "layout": "vertical", "children": [
                  {"id": "milk", "role": "item", "offers": ["text/plain"]}]},
                 {"id": "tab", "role": "control", "frame": [500, 0, 50, 50], "springLoaded": true},
                 {"id": "slow", "role": "control", "frame": [600, 0, 50, 50], "springLoaded": {"delay": 2}}]
                """#,
            events: #"[{"at": 0, "down": [10, 10]}, {"at": 0.1, "move": [15, 10]}, {"at": 0.2, "move": [20, 10]}]"#,
            extra: #", "settings": {"liftThreshold": 8, "springDelay": 1.5, "springFlashLead": 0.5}"#)
        let scenario = try Scenario(json: json)
        #expect(scenario.settings.lift.pointerThreshold == 8)
        let tab = scenario.scene[1].springLoading
        #expect(tab == SpringLoadingConfiguration(delay: .seconds(1.5), flashLead: .seconds(0.5)))
        #expect(scenario.scene[2].springLoading == SpringLoadingConfiguration(delay: .seconds(2), flashLead: .seconds(0.5)))
        // 5 points is below the 8-point threshold; 10 points lifts.
        let lifts = try scenario.run().harness.timeline.filter { if case .feedback(.lifted) = $0.event { true } else { false } }
        #expect(lifts.map(\.time.seconds) == [0.2])
    }

    @Test("declared types conform: an app type is accepted where its parent is")
    func declaredTypes() throws {
        let json = document(
            scene: #"""
                [{"id": "a", "role": "container", "frame": [0, 0, 100, 100], "layout": "vertical", "children": [
                   {"id": "r", "role": "item", "offers": ["application/x-reminder"]}]},
                 {"id": "b", "role": "dropPoint", "frame": [200, 0, 100, 100], "accepts": ["text/plain"]}]
                """#,
            events: #"[{"at": 0, "down": [10, 10]}, {"at": 0.1, "move": [250, 50], "steps": 2}, {"at": 0.2, "up": true}]"#,
            extra: #", "types": [{"type": "application/x-reminder", "conformsTo": ["text/plain"]}]"#)
        let run = try Scenario(json: json).run()
        #expect(run.snapshot["b"] == ["r-copy1"])
    }

    // MARK: Bad input

    private func failure(_ json: String) -> ScenarioError? {
        do {
            _ = try Scenario(json: json).run()
            return nil
        } catch {
            return error
        }
    }

    @Test("malformed JSON names the line, the column and the path reached")
    func malformedJSON() throws {
        let e = try #require(failure("{\n  \"name\": \"x\",\n  \"scene\": [1,, 2]\n}"))
        #expect(e.kind == .malformedJSON)
        #expect(e.path == "scene[1]")
        #expect(e.location == JSONLocation(line: 3, column: 15))
        #expect(e.description == "scene[1]: unexpected ','; expected a value (line 3, column 15)")
        #expect(e.formatted(file: "a.json") == "a.json:3:15: scene[1]: unexpected ','; expected a value")

        #expect(failure("{\"name\": \"x\", }")?.message == "trailing comma before '}'")
        #expect(failure("{\"name\": \"x\"")?.message == "unexpected end of file; expected ',' or '}'")
        #expect(failure("{\"name\": \"x\nmore\"}")?.message.hasPrefix("unterminated string") == true)
        #expect(failure("{\"a\": tru}")?.message == "invalid literal; expected true")
        #expect(failure("{\"a\": 01}")?.message == "invalid number: leading zeros are not allowed")
        #expect(failure("{\"a\": 1} x")?.message == "unexpected 'x' after the end of the JSON document")
        #expect(failure("")?.message == "the file is empty; expected a JSON object")
        #expect(failure("{// note\n}")?.message.hasPrefix("comments are not allowed") == true)
        let dup = try #require(failure("{\"name\": \"x\",\n \"name\": \"y\"}"))
        #expect(dup.message == "duplicate key \"name\"")
        #expect(dup.location == JSONLocation(line: 2, column: 2))
    }

    @Test("strings decode escapes and columns count characters, not bytes")
    func stringsAndColumns() throws {
        let s = try Scenario(json: document(extra: #", "app": "Caf\u00e9 \ud83d\ude00""#))
        #expect(s.app == "Café 😀")
        let e = try #require(failure(#"{"é": "ü", "x": tru}"#))
        #expect(e.location == JSONLocation(line: 1, column: 17))
    }

    @Test("missing, unknown and mistyped fields name their place")
    func fields() throws {
        let missing = try #require(failure(#"{"name": "x", "description": "", "events": []}"#))
        #expect(missing.kind == .missingField)
        #expect(missing.description == "scenario: missing required field \"scene\" (line 1, column 1)")

        let noEvents = try #require(failure(document(events: nil)))
        #expect(noEvents.description.hasPrefix("scenario: missing required field \"events\""))

        let typo = try #require(failure(document(scene: #"[{"id": "a", "role": "control", "frame": [0, 0, 1, 1], "springloaded": true}]"#)))
        #expect(typo.kind == .unknownField)
        #expect(typo.description.hasPrefix(#"scene[0]: unknown field "springloaded" (did you mean "springLoaded"?)"#))

        let wrong = try #require(failure(document(scene: #"[{"id": "a", "role": "group", "frame": [0, 0, "wide", 1]}]"#)))
        #expect(wrong.kind == .wrongType)
        #expect(wrong.description.hasPrefix("scene[0].frame[2]: expected a number (in [x, y, width, height]), found a string"))

        let short = try #require(failure(document(scene: #"[{"id": "a", "role": "group", "frame": [0, 0, 1]}]"#)))
        #expect(short.description.hasPrefix("scene[0].frame: expected [x, y, width, height], found 3 numbers"))

        let negative = try #require(failure(document(scene: #"[{"id": "a", "role": "group", "frame": [0, 0, -5, 1]}]"#)))
        #expect(negative.description.hasPrefix("scene[0].frame[2]: the width cannot be negative"))

        let role = try #require(failure(document(scene: #"[{"id": "a", "role": "containr", "frame": [0, 0, 1, 1]}]"#)))
        #expect(role.kind == .invalidValue)
        #expect(role.description.hasPrefix(#"scene[0].role: unknown value "containr" (did you mean "container"?)"#))

        let mime = try #require(failure(document(scene: #"[{"id": "a", "role": "dropPoint", "frame": [0, 0, 1, 1], "accepts": ["text", "text/plain"]}]"#)))
        #expect(mime.description.hasPrefix(#"scene[0].accepts[0]: "text" is not a MIME type (type/subtype)"#))

        let policy = try #require(failure(document(scene: #"[{"id": "a", "role": "dropPoint", "frame": [0, 0, 1, 1], "policy": {"forbiden": "no"}}]"#)))
        #expect(policy.description.hasPrefix(#"scene[0].policy: unknown field "forbiden" (did you mean "forbidden"?)"#))

        let lead = try #require(
            failure(document(scene: #"[{"id": "a", "role": "control", "frame": [0, 0, 1, 1], "springLoaded": {"delay": 0.2, "flashLead": 0.5}}]"#)))
        #expect(lead.description.hasPrefix("scene[0].springLoaded.flashLead: the flash lead (0.5 s) is longer than the delay (0.2 s)"))

        let confirm = try #require(failure(document(events: #"[{"at": 0, "confirm": 1}]"#)))
        #expect(confirm.kind == .wrongType)
        #expect(confirm.description.hasPrefix("events[0].confirm: expected true or false, found a number"))
    }

    @Test("scene structure: duplicate ids, items outside containers, missing frames, unknown references")
    func sceneStructure() throws {
        let duplicate = try #require(
            failure(
                document(
                    scene: #"""
                        [{"id": "list", "role": "container", "frame": [0, 0, 100, 100], "layout": "vertical", "children": [
                          {"id": "milk", "role": "item"}, {"id": "eggs", "role": "item"}, {"id": "milk", "role": "item"}]}]
                        """#)))
        #expect(duplicate.kind == .duplicateID)
        #expect(duplicate.description.hasPrefix(#"scene[0].children[2]: duplicate id "milk" (first used at scene[0].children[0])"#))

        let outside = try #require(failure(document(scene: #"[{"id": "milk", "role": "item", "frame": [0, 0, 1, 1]}]"#)))
        #expect(outside.kind == .sceneStructure)
        #expect(outside.description.hasPrefix(#"scene[0]: item "milk" must be inside a container or a folder item, not at the top level"#))

        let frameless = try #require(
            failure(
                document(
                    scene: #"[{"id": "list", "role": "container", "frame": [0, 0, 100, 100], "children": [{"id": "milk", "role": "item"}]}]"#)))
        #expect(frameless.description.hasPrefix(#"scene[0].children[0]: "milk" needs a "frame""#))

        let reference = try #require(
            failure(
                document(
                    scene: #"""
                        [{"id": "back", "role": "control", "frame": [0, 0, 10, 10], "onActivate": {"show": ["mailboxes"], "hide": ["inbx"]}},
                         {"id": "inbox", "role": "group", "frame": [0, 0, 10, 10]}, {"id": "mailboxes", "role": "group", "frame": [0, 0, 10, 10]}]
                        """#)))
        #expect(reference.kind == .unknownReference)
        #expect(reference.description.hasPrefix(#"scene[0].onActivate.hide[0]: no node has the id "inbx" (did you mean "inbox"?)"#))

        let expectKey = try #require(failure(document(extra: #", "expect": {"grocery": []}"#)))
        #expect(expectKey.description.hasPrefix(#"expect.grocery: no node has the id "grocery" (did you mean "groceries"?)"#))

        let expectItem = try #require(failure(document(extra: #", "expect": {"milk": []}"#)))
        #expect(expectItem.description.hasPrefix(#"expect.milk: "milk" is an item that holds no items"#))
        let dashed = try #require(failure(document(extra: #", "expect": {"work-list": []}"#)))
        #expect(dashed.path == "expect.work-list")
        let odd = try #require(failure(document(extra: #", "expect": {"my list": []}"#)))
        #expect(odd.path == #"expect["my list"]"#)
    }

    @Test("events: unknown actions, two actions, no action, misplaced options")
    func eventActions() throws {
        let unknown = try #require(
            failure(
                document(
                    events: #"[{"at": 0, "down": [1, 1]}, {"at": 0.1, "move": [9, 9]}, {"at": 0.2, "up": true}, {"at": 1, "jump": [1, 2]}]"#)))
        #expect(unknown.kind == .unknownAction)
        #expect(unknown.path == "events[3]")
        #expect(unknown.description.hasPrefix(#"events[3]: unknown action "jump"; expected one of down, move, up, modifiers, key,"#))

        let typo = try #require(failure(document(events: #"[{"at": 0, "mvoe": [1, 2]}]"#)))
        #expect(typo.description.hasPrefix(#"events[0]: unknown action "mvoe" (did you mean "move"?)"#))

        let two = try #require(failure(document(events: #"[{"at": 0, "move": [1, 2], "up": true}]"#)))
        #expect(two.kind == .actionCount)
        #expect(two.description.hasPrefix(#"events[0]: has two actions, "move" and "up"; an event has exactly one"#))

        let none = try #require(failure(document(events: #"[{"at": 0}]"#)))
        #expect(none.description.hasPrefix("events[0]: no action; expected one of"))

        let misplaced = try #require(failure(document(events: #"[{"at": 0, "down": [1, 2], "steps": 3}]"#)))
        #expect(misplaced.description.hasPrefix(#"events[0]: "steps" only goes with "move", not with "down""#))

        let noTime = try #require(failure(document(events: #"[{"undo": true}]"#)))
        #expect(noTime.description.hasPrefix(#"events[0]: missing required field "at""#))

        let falseUndo = try #require(failure(document(events: #"[{"at": 0, "undo": false}]"#)))
        #expect(falseUndo.description.hasPrefix("events[0].undo: expected true, found a boolean"))

        let key = try #require(failure(document(events: #"[{"at": 0, "key": "escape"}]"#)))
        #expect(key.description.hasPrefix(#"events[0].key: unknown value "escape"; expected one of pickUp, nextDropPoint"#))

        let steps = try #require(failure(document(events: #"[{"at": 0, "move": [1, 2], "steps": 2.5}]"#)))
        #expect(steps.description.hasPrefix("events[0].steps: expected a whole number"))
    }

    @Test("events must not go back in time")
    func timeOrder() throws {
        let json = document(
            events: #"""
                [{"at": 0, "wait": true}, {"at": 0.1, "wait": true}, {"at": 0.2, "wait": true},
                 {"at": 0.3, "wait": true}, {"at": 0.5, "wait": true},
                 {"at": 0.2, "undo": true}]
                """#)
        let e = try #require(failure(json))
        #expect(e.kind == .timeOrder)
        #expect(e.description.hasPrefix("events[5].at: 0.2 is earlier than the previous event (0.5)"))
        // The location is the offending "at" value.
        let lines = json.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains(#"{"at": 0.2, "undo""#) })
        #expect(e.location == JSONLocation(line: line + 1, column: lines[line].distance(from: lines[line].startIndex, to: lines[line].range(of: "0.2")!.lowerBound) + 1))
        let negative = try #require(failure(document(events: #"[{"at": -1, "wait": true}]"#)))
        #expect(negative.description.hasPrefix("events[0].at: -1 is less than 0"))
    }

    @Test("external drags: items need types and their own ids")
    func externalItems() throws {
        let clash = try #require(
            failure(document(events: #"[{"at": 0, "externalEnter": {"app": "Safari", "at": [1, 1], "items": [{"id": "milk", "types": ["image/png"]}]}}]"#)))
        #expect(clash.kind == .duplicateID)
        #expect(clash.description.hasPrefix(#"events[0].externalEnter.items[0].id: "milk" is already a node of the scene"#))
        let untyped = try #require(
            failure(document(events: #"[{"at": 0, "externalEnter": {"app": "Safari", "at": [1, 1], "items": [{"id": "photo", "types": []}]}}]"#)))
        #expect(untyped.description.hasPrefix("events[0].externalEnter.items[0].types: an item offers at least one type"))
    }

    @Test("events that cannot be replayed name the event")
    func replayErrors() throws {
        let notDraggable = try #require(failure(document(events: #"[{"at": 0, "wait": true}, {"at": 1, "pickUp": ["work"]}]"#)))
        #expect(notDraggable.kind == .replay)
        #expect(notDraggable.description.hasPrefix("events[1].pickUp: cannot pick up: 'work' is not a registered draggable item."))

        let missing = try #require(failure(document(events: #"[{"at": 0, "select": ["milk", "bread"]}]"#)))
        #expect(missing.description.hasPrefix(#"events[0].select[1]: no node "bread" in the scene at 0.0 s"#))

        let unselectable = try #require(failure(document(events: #"[{"at": 0, "select": ["work"]}]"#)))
        #expect(unselectable.description.hasPrefix(#"events[0].select[0]: "work" cannot be dragged: it offers no types"#))

        let nothingSelected = try #require(failure(document(events: #"[{"at": 0, "key": "pickUp"}]"#)))
        #expect(nothingSelected.description.hasPrefix(#"events[0]: "key": "pickUp" picks up the selection, but nothing is selected"#))

        let twice = try #require(failure(document(events: #"[{"at": 0, "pickUp": ["milk"]}, {"at": 1, "pickUp": ["eggs"]}]"#)))
        #expect(twice.description.hasPrefix("events[1].pickUp: cannot pick up: A drag is already in progress"))
    }

    @Test("an unreadable file is reported without a path")
    func unreadable() {
        #expect(throws: ScenarioError.self) { try Scenario(contentsOfFile: "/nonexistent/scenario.json") }
        do {
            _ = try Scenario(contentsOfFile: "/nonexistent/scenario.json")
        } catch {
            #expect(error.kind == .unreadable)
            #expect(error.formatted(file: "s.json").hasPrefix("s.json: cannot read the file"))
        }
    }

}

/// A small valid scenario: a window with two lists (Groceries: milk, eggs; Work: empty) and a
/// control; parts can be replaced. `events: nil` leaves the field out.
private func document(scene: String? = nil, events: String? = "[]", extra: String = "") -> String {
    let defaultScene = #"""
        [{"id": "window", "name": "Reminders", "role": "group", "frame": [0, 0, 800, 600], "children": [
          {"id": "groceries", "role": "container", "frame": [0, 0, 400, 600], "accepts": ["text/plain"], "layout": "vertical", "children": [
            {"id": "milk", "role": "item", "offers": ["text/plain"]},
            {"id": "eggs", "role": "item", "offers": ["text/plain"]}]},
          {"id": "work", "role": "container", "frame": [400, 0, 400, 600], "accepts": ["text/plain"], "layout": "vertical"},
          {"id": "sync", "role": "control", "frame": [0, 0, 10, 10]}]}]
        """#
    var json = #"{"name": "test", "description": "a test", "scene": "# + (scene ?? defaultScene)
    if let events { json += #", "events": "# + events }
    return json + extra + "}"
}
