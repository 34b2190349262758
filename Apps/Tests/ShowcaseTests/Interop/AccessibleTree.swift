import Foundation
import WindowDriver

/// One object of an app as assistive technology sees it (AT-SPI): what a screen reader would
/// read out, which is what a person sees in the peer's window, read without looking at pixels.
struct AccessibleNode: CustomStringConvertible {
    /// The role's name ("label", "table cell", "text", "icon").
    var role: String
    /// The accessible name (a label's or a cell's text, a button's title).
    var name: String
    /// The text of objects with a text interface (entries, text views, Qt labels).
    var text: String?
    /// Where it is on the screen, when it says.
    var frame: ScreenRect?
    /// The parts of ``text`` drawn bold (a weight of 600 or more), as character offsets.
    var boldRanges: [Range<Int>] = []
    /// The size of an image, when it is one.
    var imageSize: (width: Int, height: Int)?
    /// How deep in the tree (the application is 0).
    var depth: Int

    var description: String {
        "[\(role)] \(name.debugDescription)" + (text.map { " text=\($0.debugDescription)" } ?? "")
            + (boldRanges.isEmpty ? "" : " bold=\(boldWords)")
            + (frame.map { " \($0)" } ?? "") + (imageSize.map { " image=\($0.width)×\($0.height)" } ?? "")
    }

    /// The name, else the text.
    var shown: String { name.isEmpty ? text ?? "" : name }

    /// The bold parts of ``text`` (AT-SPI counts characters as Unicode scalars).
    var boldWords: [String] {
        let scalars = Array((text ?? "").unicodeScalars)
        return boldRanges.map { range in
            var part = String.UnicodeScalarView()
            part.append(contentsOf: scalars[max(0, range.lowerBound)..<min(scalars.count, range.upperBound)])
            return String(part)
        }
    }
}

/// Reads an app's accessible objects through AT-SPI with the system's `python3-pyatspi` (one
/// short run per read, on the session's bus).
enum AccessibleTree {
    static let python = "/usr/bin/python3"

    /// Prints the app named argv[1] as a JSON array of its objects, depth first.
    private static let script = """
        import json, sys
        import pyatspi
        want = sys.argv[1]
        nodes = []
        def walk(a, depth):
            try:
                node = {"role": a.getRoleName(), "name": a.name or "", "depth": depth}
            except Exception:
                return
            try:
                text = a.queryText()
                node["text"] = text.getText(0, -1)
                bold, offset = [], 0
                while offset < min(len(node["text"]), 5000):
                    attributes, start, end = text.getAttributeRun(offset, False)
                    if end <= offset:
                        break
                    for attribute in attributes:
                        key, _, value = attribute.partition(":")
                        if key == "weight" and (value == "bold" or value.isdigit() and int(value) >= 600):
                            bold.append([start, end])
                    offset = end
                if bold:
                    node["bold"] = bold
            except Exception:
                pass
            try:
                e = a.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
                if e.width > 0 and e.height > 0 and e.x > -100000:
                    node["frame"] = [e.x, e.y, e.width, e.height]
            except Exception:
                pass
            try:
                size = a.queryImage().getImageSize()
                if size[0] > 0:
                    node["image"] = list(size)
            except Exception:
                pass
            nodes.append(node)
            if depth < 40:
                for i in range(a.childCount):
                    walk(a.getChildAtIndex(i), depth + 1)
        for app in pyatspi.Registry.getDesktop(0):
            if app is not None and app.name == want:
                walk(app, 0)
                break
        print(json.dumps(nodes))
        """

    /// The objects of the app named `app` (its program name), depth first; empty while it has
    /// not registered with the accessibility bus.
    static func read(_ app: String, environment: [String: String]) throws -> [AccessibleNode] {
        let output = try Tools.run(python, ["-c", script, app], environment: environment, timeout: 20)
        guard let array = try JSONSerialization.jsonObject(with: output) as? [[String: Any]] else {
            throw DriverError("The accessibility reader printed no list for \(app).")
        }
        return array.map { object in
            let frame = (object["frame"] as? [Double]).flatMap { f in
                f.count == 4 ? ScreenRect(x: f[0], y: f[1], width: f[2], height: f[3]) : nil
            }
            let image = (object["image"] as? [Int]).flatMap { $0.count == 2 ? (width: $0[0], height: $0[1]) : nil }
            let bold = (object["bold"] as? [[Int]] ?? []).compactMap {
                $0.count == 2 && $0[0] < $0[1] ? $0[0]..<$0[1] : nil
            }
            return AccessibleNode(
                role: object["role"] as? String ?? "", name: object["name"] as? String ?? "",
                text: object["text"] as? String, frame: frame, boldRanges: bold, imageSize: image,
                depth: object["depth"] as? Int ?? 0)
        }
    }
}
