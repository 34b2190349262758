// A helper for the crash tests (Tests/ShowcaseModelTests/CrashTests.swift and
// StoreSequenceTests.swift): it changes a showcase database and stops where it is told to, so
// that the test can kill it there with SIGKILL and check what the reopened database holds.
//
// Usage:
//   showcase-store-crash-helper DATABASE inside|after ITEM-ID COLLECTION-ID INDEX
//     Runs one move and stops INSIDE its transaction (after every row is written, before the
//     commit) or right AFTER the commit. Says "inside transaction" or "committed".
//   showcase-store-crash-helper DATABASE script STEPS-FILE STOP
//     Plays the steps of STEPS-FILE (a JSON array of StoreStep) in one session (one undo
//     stack), reporting each as a JSON line (StoreScriptReport: ready, begin, end, stopped,
//     finished). STOP says where to stop and wait:
//       change:K     inside a transaction, right after the K-th row change of the session
//       commit:K     inside the K-th transaction, as it is about to commit
//       committed:K  right after the K-th commit
//       none         nowhere: the test kills it at a random time
//
// It never exits on its own before 60 seconds, so a test that kills it always kills it where it
// said it was; after 60 seconds (a test that forgot it) it exits with status 3.
import Foundation
@_spi(CrashTesting) import ShowcaseModel

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func report(_ report: StoreScriptReport) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    // Encoding these plain values cannot fail.
    say(String(decoding: (try? encoder.encode(report)) ?? Data(), as: UTF8.self))
}

func waitToBeKilled() -> Never {
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline { usleep(50_000) }
    exit(3)
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
    exit(status)
}

/// Where a script stops and waits to be killed.
enum Stop {
    case change(Int)
    case commit(Int)
    case committed(Int)
    case none

    init?(_ text: String) {
        if text == "none" {
            self = .none
            return
        }
        let parts = text.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let n = Int(parts[1]), n > 0 else { return nil }
        switch parts[0] {
        case "change": self = .change(n)
        case "commit": self = .commit(n)
        case "committed": self = .committed(n)
        default: return nil
        }
    }
}

/// Counts the session's row changes and commits, and stops at the one the test asked for.
final class KillPoint {
    let stop: Stop
    var changes = 0
    var commits = 0

    init(_ stop: Stop) { self.stop = stop }

    var hooks: StoreTransactionHooks {
        StoreTransactionHooks(
            didChangeRow: { [self] in
                changes += 1
                if case .change(let k) = stop, changes == k {
                    report(.stopped("inside a transaction, after row change \(k)"))
                    waitToBeKilled()
                }
            },
            willCommit: { [self] in
                if case .commit(let k) = stop, commits + 1 == k {
                    report(.stopped("inside transaction \(k), about to commit"))
                    waitToBeKilled()
                }
            },
            didCommit: { [self] in
                commits += 1
                if case .committed(let k) = stop, commits == k {
                    report(.stopped("right after commit \(k)"))
                    waitToBeKilled()
                }
            })
    }
}

let arguments = CommandLine.arguments
if arguments.count == 5, arguments[2] == "script" {
    guard let stop = Stop(arguments[4]) else { fail("unknown stop \(arguments[4])", status: 2) }
    let steps: [StoreStep]
    do {
        steps = try JSONDecoder().decode([StoreStep].self, from: Data(contentsOf: URL(fileURLWithPath: arguments[3])))
    } catch {
        fail("error: cannot read the steps: \(error)", status: 2)
    }
    do {
        let store = try ShowcaseStore(path: arguments[1], seed: false)
        let killPoint = KillPoint(stop)
        store.addTransactionHooks(killPoint.hooks)
        let session = StoreSession(store: store)
        report(.ready)
        for (index, step) in steps.enumerated() {
            report(.begin(index))
            report(.end(index, session.run(step)))
        }
        report(.finished)
        waitToBeKilled()
    } catch {
        fail("error: \(error)", status: 1)
    }
}

guard arguments.count == 6, let item = Int64(arguments[3]), let collection = Int64(arguments[4]),
    let index = Int(arguments[5]), ["inside", "after"].contains(arguments[2])
else {
    fail(
        "usage: showcase-store-crash-helper DATABASE inside|after ITEM COLLECTION INDEX\n"
            + "       showcase-store-crash-helper DATABASE script STEPS-FILE change:K|commit:K|committed:K|none",
        status: 2)
}

do {
    let store = try ShowcaseStore(path: arguments[1], seed: false)
    if arguments[2] == "inside" {
        store.setBeforeCommitHook {
            say("inside transaction")
            waitToBeKilled()
        }
    }
    _ = try store.move([item], to: collection, at: index)
    say("committed")
    waitToBeKilled()
} catch {
    fail("error: \(error)", status: 1)
}
