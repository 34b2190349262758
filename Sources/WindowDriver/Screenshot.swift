import Foundation
import DriverProtocol

/// A screenshot of the whole virtual screen (`import -window root`), as RGB pixels.
public struct Screenshot {
    public let width: Int
    public let height: Int
    /// RGB bytes, row by row.
    public let pixels: [UInt8]

    /// Captures the root window of `display` as a binary PPM and decodes it.
    public static func capture(_ display: XDisplay) throws -> Screenshot {
        guard let importTool = Tools.imageMagickImport else {
            throw DriverError("ImageMagick's `import` is not installed (apt-get install imagemagick).")
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "dragdrop-shot-\(UUID().uuidString).ppm"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Tools.run(importTool, ["-window", "root", "-depth", "8", path], environment: ["DISPLAY": display.name])
        return try Screenshot(ppm: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Decodes a binary PPM (P6, 8 bits per channel).
    public init(ppm data: Data) throws {
        let bytes = [UInt8](data)
        var index = 0
        func token() throws -> String {
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "#") {
                    while index < bytes.count, bytes[index] != 0x0A { index += 1 }
                } else if [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) {
                    index += 1
                } else {
                    break
                }
            }
            let start = index
            while index < bytes.count, ![0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
            guard start < index else { throw DriverError("Truncated PPM header") }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        guard try token() == "P6", let width = Int(try token()), let height = Int(try token()),
            try token() == "255"
        else { throw DriverError("Not an 8-bit binary PPM") }
        index += 1  // the single whitespace after the header
        guard bytes.count - index >= width * height * 3 else { throw DriverError("Truncated PPM pixels") }
        self.width = width
        self.height = height
        self.pixels = Array(bytes[index..<(index + width * height * 3)])
    }

    /// How many pixels inside `rect` are within `tolerance` of `color` on every channel.
    public func count(_ color: (red: UInt8, green: UInt8, blue: UInt8), in rect: ScreenRect, tolerance: Int = 3) -> Int {
        let x0 = max(0, Int(rect.x)), y0 = max(0, Int(rect.y))
        let x1 = min(width, Int(rect.x + rect.width)), y1 = min(height, Int(rect.y + rect.height))
        guard x0 < x1, y0 < y1 else { return 0 }
        var matches = 0
        for y in y0..<y1 {
            var offset = (y * width + x0) * 3
            for _ in x0..<x1 {
                if abs(Int(pixels[offset]) - Int(color.red)) <= tolerance
                    && abs(Int(pixels[offset + 1]) - Int(color.green)) <= tolerance
                    && abs(Int(pixels[offset + 2]) - Int(color.blue)) <= tolerance
                {
                    matches += 1
                }
                offset += 3
            }
        }
        return matches
    }

    /// The smallest rectangle holding every pixel inside `rect` for which `matches` holds (its
    /// red, green and blue), or nil when none does: where the text is in another app's window.
    public func bounds(in rect: ScreenRect, where matches: (UInt8, UInt8, UInt8) -> Bool) -> ScreenRect? {
        let x0 = max(0, Int(rect.x)), y0 = max(0, Int(rect.y))
        let x1 = min(width, Int(rect.x + rect.width)), y1 = min(height, Int(rect.y + rect.height))
        guard x0 < x1, y0 < y1 else { return nil }
        var (minX, minY, maxX, maxY) = (Int.max, Int.max, -1, -1)
        for y in y0..<y1 {
            var offset = (y * width + x0) * 3
            for x in x0..<x1 {
                if matches(pixels[offset], pixels[offset + 1], pixels[offset + 2]) {
                    minX = min(minX, x)
                    maxX = max(maxX, x)
                    minY = min(minY, y)
                    maxY = max(maxY, y)
                }
                offset += 3
            }
        }
        guard maxX >= 0 else { return nil }
        return ScreenRect(
            x: Double(minX), y: Double(minY), width: Double(maxX - minX + 1), height: Double(maxY - minY + 1))
    }
}
