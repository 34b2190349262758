import BenchmarkSupport
import Foundation
import MallocInterposerSwift

#if canImport(Glibc)
    import Glibc
#endif

/// With `DRAGDROP_BENCH_TRACE_ALLOCATIONS=1`, prints a backtrace for every allocation made
/// between ``begin(label:)`` and ``end()`` (a tool for finding why a path allocates; run the
/// output through `swift demangle`).
enum AllocationTrace {
    nonisolated(unsafe) static var label = ""
    static let enabled = ProcessInfo.processInfo.environment["DRAGDROP_BENCH_TRACE_ALLOCATIONS"] == "1"

    static func begin(label: String) {
        guard enabled else { return }
        Self.label = label
        MallocInterposerSwift.setAllocationHook(traceHook)
    }

    static func end() {
        guard enabled else { return }
        MallocInterposerSwift.setAllocationHook(nil)
    }
}

nonisolated(unsafe) private var inHook = false

@_silgen_name("backtrace")
private func c_backtrace(_ buffer: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ size: Int32) -> Int32
@_silgen_name("backtrace_symbols_fd")
private func c_backtrace_symbols_fd(_ buffer: UnsafePointer<UnsafeMutableRawPointer?>, _ size: Int32, _ fd: Int32)

private let traceHook: MallocInterposerSwift.AllocationHook = { size in
    if inHook { return }
    inHook = true
    defer { inHook = false }
    let header = "--- allocation of \(size) bytes during \(AllocationTrace.label)\n"
    _ = header.withCString { write(2, $0, strlen($0)) }
    var frames = [UnsafeMutableRawPointer?](repeating: nil, count: 24)
    let n = c_backtrace(&frames, 24)
    c_backtrace_symbols_fd(&frames, n, 2)
}
