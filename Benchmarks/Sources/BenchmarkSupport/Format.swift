import Foundation

/// Human-readable numbers for the table.
public enum Format {
    /// "85 ns", "1.23 µs", "4.56 ms", "1.20 s".
    public static func duration(_ nanoseconds: Double) -> String {
        if nanoseconds < 1_000 { return "\(Int(nanoseconds.rounded())) ns" }
        if nanoseconds < 1_000_000 { return String(format: "%.2f µs", nanoseconds / 1_000) }
        if nanoseconds < 1_000_000_000 { return String(format: "%.2f ms", nanoseconds / 1_000_000) }
        return String(format: "%.2f s", nanoseconds / 1_000_000_000)
    }

    /// "512 B", "1.5 KiB", "12.3 MiB", "2.00 GiB".
    public static func bytes(_ value: Double) -> String {
        let a = abs(value)
        if a < 1024 { return "\(Int(value.rounded())) B" }
        if a < 1024 * 1024 { return String(format: "%.1f KiB", value / 1024) }
        if a < 1024 * 1024 * 1024 { return String(format: "%.1f MiB", value / 1024 / 1024) }
        return String(format: "%.2f GiB", value / 1024 / 1024 / 1024)
    }

    /// "1.2 GB/s" (decimal units, as throughput is usually quoted).
    public static func throughput(_ bytesPerSecond: Double) -> String {
        if bytesPerSecond >= 1e9 { return String(format: "%.2f GB/s", bytesPerSecond / 1e9) }
        return String(format: "%.0f MB/s", bytesPerSecond / 1e6)
    }

    /// "×12.3" for a ratio, "×1,234" for large ones.
    public static func ratio(_ value: Double) -> String {
        guard value.isFinite else { return "—" }
        if value >= 100 { return "×" + Int(value.rounded()).formatted() }
        if value >= 10 { return String(format: "×%.1f", value) }
        if value >= 0.1 { return String(format: "×%.2f", value) }
        return String(format: "×%.2g", value)
    }

    /// A count with thousands separators.
    public static func count(_ value: Int) -> String { value.formatted() }
}
