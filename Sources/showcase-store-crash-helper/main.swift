// A helper for the crash tests: runs one move on a showcase database and then waits to be
// killed, either INSIDE the move's transaction (after every row is written, before the commit)
// or right AFTER the commit. It says where it is on standard output, one line:
// "inside transaction" or "committed".
//
// Usage: showcase-store-crash-helper DATABASE inside|after ITEM-ID COLLECTION-ID INDEX
//
// It never exits on its own before 60 seconds, so a test that kills it always kills it where it
// said it was; after 60 seconds (a test that forgot it) it exits with status 3.
import Foundation
@_spi(CrashTesting) import ShowcaseModel

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func waitToBeKilled() -> Never {
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline { usleep(50_000) }
    exit(3)
}

let arguments = CommandLine.arguments
guard arguments.count == 6, let item = Int64(arguments[3]), let collection = Int64(arguments[4]),
    let index = Int(arguments[5]), ["inside", "after"].contains(arguments[2])
else {
    FileHandle.standardError.write(Data("usage: showcase-store-crash-helper DATABASE inside|after ITEM COLLECTION INDEX\n".utf8))
    exit(2)
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
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
