import Foundation
import DriverProtocol
import WindowDriver

#if canImport(Glibc)
    import Glibc
#endif

extension Tour {
    /// 10. Charts and 11. Drawing: the item dragged onto each destination arrives as the
    /// representation that destination takes (A2), as a copy; Ctrl+Z takes the last one back.
    /// `expected`: destination, MIME type, a piece of the pane's description of the data.
    func offers(_ info: SituationInfo, source: String, expected: [(String, String, String)]) throws -> Verdict {
        _ = try open(info.slug)
        var got: [String] = []
        for (index, (destination, type, detail)) in expected.enumerated() {
            let layout = try app.settledLayout(pane: info.slug)
            let id = try layout.target(destination)
            let mark = app.lineCount
            try pointer.drag(
                from: try layout.list(source).center, to: try layout.list(destination).center, release: false)
            try app.waitFor(FeedbackLine.self, "the highlight on \(destination)", after: mark) {
                $0.event == "highlightOn" && $0.target == id
            }
            if index == 0 {
                usleep(300_000)
                try screenshot(String(format: "%02d-%@", info.number, info.slug))
            }
            let release = app.lineCount
            try pointer.release()
            let state = try app.waitFor(StateLine.self, "\(destination) receiving \(type)", after: release, timeout: 10)
            {
                $0.pane == info.slug
                    && $0.receivedBy?[destination]?.type == type
            }
            let received = try require(state.receivedBy?[destination], "received")
            let size = received.size
            let description = received.detail ?? ""
            try check(size > 0, "\(destination) received \(type) with no bytes")
            try check(
                description.contains(detail), "\(destination)'s \(type) is '\(description)', expected '\(detail)'")
            // A deferred drop shows its content, then commits: the commit's line may not be read yet.
            try app.waitFor(FeedbackLine.self, "the drop on \(destination) committed", after: mark, timeout: 5) {
                $0.event == "committed"
            }
            let committed = events(from: mark, named: "committed")
            try check(committed.count == 1, "one drop on \(destination) expected, saw \(committed.count)")
            try check(
                committed[0].operation == "copy",
                "S2: the drop on \(destination) was a \(committed[0].operation ?? "?")")
            got.append("'\(destination)' got \(type) (\(size) bytes, \(description))")
            try settleAfterDrag(mark, pane: info.slug)
        }
        // Every destination showing what it received.
        _ = try app.settledLayout(pane: info.slug)
        try screenshot(String(format: "%02d-%@-received", info.number, info.slug))
        let last = try require(expected.last?.0, "a destination")
        let mark = app.lineCount
        try pointer.key("ctrl+z")
        try app.waitFor(StateLine.self, "the undone drop on \(last)", after: mark) {
            $0.pane == info.slug
                && $0.receivedBy?[last] == nil
        }
        return .ok("dragged '\(source)' as a copy: " + got.joined(separator: "; ") + "; Ctrl+Z emptied '\(last)'")
    }
}
