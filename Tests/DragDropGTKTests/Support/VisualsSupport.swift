import Foundation
import DriverProtocol
import WindowDriver

/// An 8-bit RGB colour.
typealias RGB = (red: UInt8, green: UInt8, blue: UInt8)

extension Screenshot {
    /// The pixel at `x`, `y` (clamped to the screen).
    func pixel(_ x: Int, _ y: Int) -> RGB {
        let cx = min(max(0, x), width - 1), cy = min(max(0, y), height - 1)
        let o = (cy * width + cx) * 3
        return (pixels[o], pixels[o + 1], pixels[o + 2])
    }

    /// How many pixels inside `rect` satisfy `predicate`.
    func count(in rect: ScreenRect, where predicate: (RGB) -> Bool) -> Int {
        let x0 = max(0, Int(rect.x)), y0 = max(0, Int(rect.y))
        let x1 = min(width, Int(rect.x + rect.width)), y1 = min(height, Int(rect.y + rect.height))
        guard x0 < x1, y0 < y1 else { return 0 }
        var matches = 0
        for y in y0..<y1 {
            for x in x0..<x1 where predicate(pixel(x, y)) { matches += 1 }
        }
        return matches
    }

    /// The smallest rectangle holding every pixel inside `rect` that satisfies `predicate`, or
    /// nil if none does.
    func bounds(in rect: ScreenRect, where predicate: (RGB) -> Bool) -> ScreenRect? {
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        let x0 = max(0, Int(rect.x)), y0 = max(0, Int(rect.y))
        let x1 = min(width, Int(rect.x + rect.width)), y1 = min(height, Int(rect.y + rect.height))
        guard x0 < x1, y0 < y1 else { return nil }
        for y in y0..<y1 {
            for x in x0..<x1 where predicate(pixel(x, y)) {
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        guard minX <= maxX else { return nil }
        return ScreenRect(
            x: Double(minX), y: Double(minY), width: Double(maxX - minX + 1), height: Double(maxY - minY + 1))
    }

    /// The smallest rectangle inside `rect` holding every pixel that differs from `other`'s by
    /// more than `tolerance` on a channel, or nil if none does.
    func differenceBounds(from other: Screenshot, in rect: ScreenRect, tolerance: Int = 8) -> ScreenRect? {
        let x0 = max(0, Int(rect.x)), y0 = max(0, Int(rect.y))
        let x1 = min(width, other.width, Int(rect.x + rect.width))
        let y1 = min(height, other.height, Int(rect.y + rect.height))
        guard x0 < x1, y0 < y1 else { return nil }
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for y in y0..<y1 {
            for x in x0..<x1 {
                let a = pixel(x, y), b = other.pixel(x, y)
                guard
                    abs(Int(a.red) - Int(b.red)) > tolerance || abs(Int(a.green) - Int(b.green)) > tolerance
                        || abs(Int(a.blue) - Int(b.blue)) > tolerance
                else { continue }
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        guard minX <= maxX else { return nil }
        return ScreenRect(
            x: Double(minX), y: Double(minY), width: Double(maxX - minX + 1), height: Double(maxY - minY + 1))
    }

    /// How many pixels inside `rect` differ from `other`'s by more than `tolerance` on a channel.
    func differences(from other: Screenshot, in rect: ScreenRect, tolerance: Int = 8) -> Int {
        var changed = 0
        let x0 = max(0, Int(rect.x)), y0 = max(0, Int(rect.y))
        let x1 = min(width, other.width, Int(rect.x + rect.width))
        let y1 = min(height, other.height, Int(rect.y + rect.height))
        guard x0 < x1, y0 < y1 else { return 0 }
        for y in y0..<y1 {
            for x in x0..<x1 {
                let a = pixel(x, y), b = other.pixel(x, y)
                if abs(Int(a.red) - Int(b.red)) > tolerance || abs(Int(a.green) - Int(b.green)) > tolerance
                    || abs(Int(a.blue) - Int(b.blue)) > tolerance
                {
                    changed += 1
                }
            }
        }
        return changed
    }
}

/// Whether a pixel is within `tolerance` of `color` on every channel.
func near(_ color: RGB, _ tolerance: Int = 3) -> (RGB) -> Bool {
    { p in
        abs(Int(p.red) - Int(color.red)) <= tolerance && abs(Int(p.green) - Int(color.green)) <= tolerance
            && abs(Int(p.blue) - Int(color.blue)) <= tolerance
    }
}

/// What the front card of a flock shows (F2, M3), read off a screenshot: `card` is the dragged
/// tile's or row's frame as it hangs from the pointer, `selected` its selection colour, `name`
/// where its white name is drawn (the whole card when nil), `stackWidth` how far along its bottom
/// edge to look for the card behind.
struct FlockCard {
    /// Pixels of the item's own colour inside the card, inset by `inset`, and their area.
    var colour: Int
    var area: Int
    /// Near-white pixels (the item's name) where the name is drawn.
    var letters: Int
    /// Pixels that are not the white around the card in an 8-point band under its bottom edge.
    var stacked: Int

    init(
        _ shot: Screenshot, card: ScreenRect, selected: RGB, inset: (Double, Double), name: ScreenRect? = nil,
        stackWidth: Double
    ) {
        let front = card.insetBy(inset.0, inset.1)
        area = Int(front.width * front.height)
        colour = shot.count(in: front, where: near(selected, 8))
        letters = shot.count(in: name ?? front) { Int($0.red) + Int($0.green) + Int($0.blue) > 3 * 235 }
        let below = ScreenRect(x: card.x + 8, y: card.maxY, width: stackWidth, height: 8)
        stacked = shot.count(in: below) { Int($0.red) + Int($0.green) + Int($0.blue) < 3 * 240 }
    }
}

extension FixtureApp {
    /// The latest `controls` line of the visuals scene, in screen coordinates.
    func controls() throws -> [String: ScreenRect] {
        guard let line = last(ControlsLine.self) else {
            throw DriverError("The fixture printed no controls line (is it running --scene visuals?)")
        }
        return ScreenRect.frames(["spring": line.spring, "scroll": line.scroll, "stack": line.stack], from: origin)
    }

    /// The latest offset the Notes scroll view reported (0 before any scrolling).
    var notesOffset: Double {
        lines(ScrollLine.self).last?.offset ?? 0
    }
}
