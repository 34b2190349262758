import Foundation

/// The external programs the GTK tests drive, found on PATH.
enum Tools {
    static let xvfb = find("Xvfb")
    static let xdotool = find("xdotool")
    static let imageMagickImport = find("import")

    /// Why the GTK suite cannot run here, or nil when it can.
    static var missing: String? {
        xvfb == nil ? "Xvfb is not installed (apt-get install xvfb, or run `make deps`); skipping the GTK tests." : nil
    }

    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The fixture executable: `$DRAGDROP_GTK_FIXTURE`, else `.build/debug/dragdrop-gtk-fixture`
    /// at the package root (found from this file's path). The tests never build it: `swift test`
    /// and `make test` build every product first.
    static func fixture(filePath: String = #filePath) throws -> String {
        if let explicit = ProcessInfo.processInfo.environment["DRAGDROP_GTK_FIXTURE"] { return explicit }
        var root = URL(fileURLWithPath: filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }  // Support/, DragDropGTKTests/, Tests/, file
        let candidates = [
            root.appendingPathComponent(".build/debug/dragdrop-gtk-fixture").path,
            // Next to the test bundle (custom --build-path or scratch directories).
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appendingPathComponent("dragdrop-gtk-fixture").path,
        ]
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) { return found }
        throw GtkTestError(
            "The fixture app was not built (looked at \(candidates.joined(separator: ", "))). Run `swift build` "
                + "(or `make test`, which builds it) before the GTK tests.")
    }

    /// Runs a program to completion (at most `timeout` seconds) and returns its standard output.
    @discardableResult
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 30
    )
        throws -> Data
    {
        let out = try ProcessPipe()
        let process: ChildProcess
        do {
            process = try ChildProcess(executable, arguments, environment: environment, stdout: out.write)
        } catch {
            close(out.read)
            close(out.write)
            throw error
        }
        close(out.write)
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(out.read, &buffer, buffer.count)
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        close(out.read)
        if !process.wait(timeout: timeout) {
            process.stop()
            throw GtkTestError("\(executable) \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        guard let status = process.exitStatus, status == 0 else {
            throw GtkTestError(
                "\(executable) \(arguments.joined(separator: " ")) failed (wait status \(process.exitStatus ?? -1))")
        }
        return data
    }
}

/// A failure with a message a person can act on.
struct GtkTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
