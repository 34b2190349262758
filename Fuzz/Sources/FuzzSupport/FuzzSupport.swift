import CFuzzDriver
import Foundation

/// What libFuzzer calls for every input: a C function, so a closure literal that captures nothing.
public typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

/// Hands the process to libFuzzer: it reads its flags (`-max_total_time`, `-timeout`, corpus
/// directories…) from the command line and calls `callback` on every input it tries.
///
/// A target's `main.swift` is one line: `runFuzzer { fuzzOne(fuzzData($0, $1)); return 0 }`.
/// Keeping our own `main` (rather than libFuzzer's) is what lets SwiftPM link the executable.
public func runFuzzer(_ callback: FuzzCallback) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
}

/// The input as `Data` (a copy: libFuzzer's buffer is only valid during the call).
public func fuzzData(_ pointer: UnsafePointer<UInt8>?, _ count: Int) -> Data {
    guard let pointer, count > 0 else { return Data() }
    return Data(bytes: pointer, count: count)
}

/// Inputs that stand for big ones, so every target also meets megabyte inputs and a quadratic
/// parser shows up as a hang (libFuzzer's `-timeout`).
///
/// An input starting with `BIG:` stands for `PREFIX UNIT… SUFFIX`, about ``bigSize`` bytes: the rest of the
/// input is `PREFIX NUL UNIT NUL SUFFIX` (or `PREFIX NUL UNIT`, or just `UNIT`), and the unit is
/// repeated (to ``bigSize``) with its bytes 0x01 replaced by the repetition's number and 0x02 by the next
/// number, so repetitions can differ (`"k\u{1}":1,` gives `"k0":1,"k1":1,…`; `a/\u{1} a/\u{2}`
/// gives a chain `a/0 a/1`, `a/1 a/2`…).
public enum FuzzInput {
    /// The marker of a big input.
    public static let bigMarker = Data("BIG:".utf8)
    /// How big a big input is: `FUZZ_BIG_SIZE` bytes, 4 KiB by default, so that while fuzzing
    /// the repeated structures cost little more than other inputs (at 64 KiB they took most of
    /// the time); `run.sh` first runs the `big-*` seeds once at 1 MiB (the scale check), where a
    /// quadratic parser takes minutes and fails the `-timeout`.
    public static let bigSize: Int = {
        let size = ProcessInfo.processInfo.environment["FUZZ_BIG_SIZE"].flatMap { Int($0) } ?? 1 << 12
        return max(1, size)
    }()

    /// The input a target should decode, and whether it is a big one.
    public static func expand(_ data: Data) -> (data: Data, big: Bool) {
        guard data.starts(with: bigMarker) else { return (data, false) }
        // Plain arrays: a Data slice (non-zero start index) made to grow traps in Foundation.
        let parts = Array(data.dropFirst(bigMarker.count)).split(
            separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
        let (prefix, unit, suffix): (ArraySlice<UInt8>, ArraySlice<UInt8>, ArraySlice<UInt8>) =
            switch parts.count {
            case 3: (parts[0], parts[1], parts[2])
            case 2: (parts[0], parts[1], [])
            default: ([], parts.first ?? [], [])
            }
        var big = [UInt8](prefix)
        big.reserveCapacity(bigSize + unit.count + 32)
        var n = 0
        while !unit.isEmpty, big.count + suffix.count < bigSize {
            for byte in unit {
                switch byte {
                case 1: big += Array(String(n).utf8)
                case 2: big += Array(String(n + 1).utf8)
                default: big.append(byte)
                }
            }
            n += 1
        }
        return (Data(big + suffix), true)
    }
}

/// A deterministic generator seeded from the input (SplitMix64), for choices a target makes
/// about an input (how to cut it into chunks): the same input always replays the same way.
public struct InputRandom: RandomNumberGenerator {
    private var state: UInt64

    /// Seeds from the bytes of `data` (FNV-1a).
    public init(_ data: Data) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in data.prefix(4096) {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        state = hash ^ UInt64(data.count)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `data` cut into consecutive chunks of 1 to `maxChunk` bytes (a stream as a hostile or slow
    /// source app would deliver it).
    public mutating func chunks(of data: Data, maxChunk: Int) -> [Data] {
        var chunks: [Data] = []
        var start = data.startIndex
        while start < data.endIndex {
            let size = Int.random(in: 1...maxChunk, using: &self)
            let end = data.index(start, offsetBy: size, limitedBy: data.endIndex) ?? data.endIndex
            chunks.append(Data(data[start..<end]))
            start = end
        }
        return chunks
    }
}

/// An oracle: when `condition` is false, prints `message` and aborts, so libFuzzer records the
/// input as a crash (`crash-…` artifact) and the run fails.
public func check(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
    line: UInt = #line
) {
    guard !condition() else { return }
    FileHandle.standardError.write(Data("FUZZ CHECK FAILED at \(file):\(line): \(message())\n".utf8))
    abort()
}

/// A short, printable excerpt of a long string for check messages.
public func excerpt(_ text: String, limit: Int = 200) -> String {
    let scalars = text.unicodeScalars
    let shown = String(String.UnicodeScalarView(scalars.prefix(limit)))
    return (scalars.count > limit ? shown + "…" : shown).debugDescription
}

/// Whether a message a person reads ends with a full stop. Compared by scalars: a message that
/// quotes another app's data can end in a character that joins the full stop into its grapheme
/// (U+0600 does), and the full stop is still there.
public func endsWithFullStop(_ message: String) -> Bool {
    message.unicodeScalars.last == "."
}

/// Whether a message a person reads ends with exactly one full stop (the project's rule).
public func endsWithOneFullStop(_ message: String) -> Bool {
    let scalars = message.unicodeScalars
    return scalars.last == "." && scalars.dropLast().last != "."
}
