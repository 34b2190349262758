import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What the process's memory looks like, from `/proc/self/status` (Linux).
public enum ProcessMemory {
    /// A field of `/proc/self/status` in bytes (`VmRSS`, `VmHWM`), or nil where unavailable.
    public static func status(_ field: String, file: String = "/proc/self/status") -> Int? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 2, let kb = Int(parts[1]) else { return nil }
            return kb * 1024
        }
        return nil
    }

    /// Resident set size now, counted page by page (`/proc/self/smaps_rollup`): `VmRSS` in
    /// `/proc/self/status` comes from counters the kernel updates in batches, off by a few MiB.
    public static var rss: Int? { status("Rss", file: "/proc/self/smaps_rollup") ?? status("VmRSS") }

    /// The resident set's high-water mark.
    public static var peak: Int? { status("VmHWM") }

    /// Resets the high-water mark to the current resident size (writes 5 to
    /// `/proc/self/clear_refs`, Linux 4.0+). Returns whether it worked.
    @discardableResult
    public static func resetPeak() -> Bool {
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
    }
}

/// Running other programs: `cp`, Xvfb, the GTK tool, this tool's own probes.
public enum Subprocess {
    /// The environment for children: this one without `LD_PRELOAD`, so that children neither
    /// count allocations nor pay for the interposer.
    public static func cleanEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["LD_PRELOAD"] = nil
        for (k, v) in extra { env[k] = v }
        return env
    }

    /// Runs `path` with `arguments` and returns its exit status and standard output.
    public static func run(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws -> (
        status: Int32, output: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment ?? cleanEnvironment()
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.standardError
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// This program's own path (from `/proc/self/exe`, else `argv[0]`).
    public static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Finds `name` on `PATH`.
    public static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
