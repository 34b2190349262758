/// A small, fast, seeded random number generator (SplitMix64): the same seed gives the same
/// sequence on every machine, so a random session is named by its seed alone.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; `seed` picks the sequence.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

    /// One element of a non-empty collection.
    mutating func pick<C: Collection>(_ c: C) -> C.Element { c.randomElement(using: &self)! }

    /// One of `choices`, each as likely as its weight (weights of zero are never picked).
    mutating func weighted<T>(_ choices: [(T, Int)]) -> T {
        let total = choices.reduce(0) { $0 + max(0, $1.1) }
        precondition(total > 0, "weighted(_:) needs a positive weight")
        var r = int(0...(total - 1))
        for (value, weight) in choices where weight > 0 {
            if r < weight { return value }
            r -= weight
        }
        return choices.last { $0.1 > 0 }!.0
    }

    /// A random subset of `items`, in their order, of `count` elements at most.
    mutating func subset<T>(_ items: [T], count: Int) -> [T] {
        var indexes = Array(items.indices)
        indexes.shuffle(using: &self)
        return indexes.prefix(count).sorted().map { items[$0] }
    }
}
