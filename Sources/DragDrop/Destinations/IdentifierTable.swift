/// The registry's map from identifiers to slots: an open-addressing hash table of 64-bit
/// buckets, each holding 32 bits of the identifier's hash and its slot, so a probe compares
/// hashes inside the table and reads the identifier itself (in the registry's per-slot records) only on a
/// match. Linear probing over a power-of-two number of buckets, at most half full; deletion
/// shifts later members of the probe run back (no tombstones, so churn never slows probes).
///
/// Identifiers are hashed over their UTF-8 bytes with a multiply-mix hash
/// (``IdentifierTable/hash(_:)``), a few nanoseconds for the short names apps use, where
/// `Dictionary` feeds them through SipHash: a lift of 50,000 selected items does one lookup per
/// item, and this is most of its cost.
///
/// Memory: 8 bytes per bucket, so 16 to 32 bytes per identifier.
struct IdentifierTable {
    /// An empty bucket (slot -1 is never stored).
    private static let empty = UInt64.max
    private var buckets: ContiguousArray<UInt64>
    private var mask: Int
    /// Number of identifiers stored.
    private(set) var count = 0

    init() {
        buckets = ContiguousArray(repeating: Self.empty, count: 16)
        mask = 15
    }

    /// Heap bytes of the buckets.
    var approximateMemoryFootprint: Int { 32 + buckets.capacity * MemoryLayout<UInt64>.stride }

    /// The slot of `id`, or nil; `slots` are the registry's per-slot records (with the ids).
    @inline(__always)
    func slot(of id: TargetID, hash: UInt64, in slots: UnsafeBufferPointer<TargetRegistry.Cold>) -> Int32? {
        let tag = UInt32(truncatingIfNeeded: hash)
        return buckets.withUnsafeBufferPointer { buckets in
            var i = Int(tag) & mask
            while true {
                let bucket = buckets[i]
                if bucket == Self.empty { return nil }
                if UInt32(truncatingIfNeeded: bucket >> 32) == tag {
                    let slot = Int32(truncatingIfNeeded: bucket)
                    if slots[Int(slot)].id == id { return slot }
                }
                i = (i + 1) & mask
            }
        }
    }

    /// Adds `slot` for an identifier with `hash` that is not in the table.
    mutating func insert(slot: Int32, hash: UInt64) {
        if (count + 1) * 2 > buckets.count { grow() }
        place(UInt64(UInt32(truncatingIfNeeded: hash)) << 32 | UInt64(UInt32(bitPattern: slot)))
        count += 1
    }

    /// Removes `slot`, stored for an identifier with `hash`.
    mutating func remove(slot: Int32, hash: UInt64) {
        let wanted = UInt64(UInt32(truncatingIfNeeded: hash)) << 32 | UInt64(UInt32(bitPattern: slot))
        var hole = Int(UInt32(truncatingIfNeeded: hash)) & mask
        while buckets[hole] != wanted {
            guard buckets[hole] != Self.empty else {
                assertionFailure("IdentifierTable: slot \(slot) is not stored")
                return
            }
            hole = (hole + 1) & mask
        }
        // Backward-shift deletion: move later members of the probe run into the hole.
        var i = (hole + 1) & mask
        while buckets[i] != Self.empty {
            let home = Int(UInt32(truncatingIfNeeded: buckets[i] >> 32)) & mask
            let between = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i)
            if !between {
                buckets[hole] = buckets[i]
                hole = i
            }
            i = (i + 1) & mask
        }
        buckets[hole] = Self.empty
        count -= 1
    }

    private mutating func place(_ bucket: UInt64) {
        var i = Int(UInt32(truncatingIfNeeded: bucket >> 32)) & mask
        while buckets[i] != Self.empty { i = (i + 1) & mask }
        buckets[i] = bucket
    }

    private mutating func grow() {
        let old = buckets
        buckets = ContiguousArray(repeating: Self.empty, count: old.count * 2)
        mask = buckets.count - 1
        for bucket in old where bucket != Self.empty { place(bucket) }
    }

    /// A hash of `id`'s UTF-8 bytes: eight bytes at a time, each word multiplied in and folded
    /// (a wyhash-style mix), then finalized with MurmurHash3's mixer so the low bits used to
    /// pick a bucket depend on every byte.
    @inline(__always)
    static func hash(_ id: TargetID) -> UInt64 {
        if let h = id.rawValue.utf8.withContiguousStorageIfAvailable({ hash(bytes: UnsafeRawBufferPointer($0)) }) {
            return h
        }
        var copy = id.rawValue
        return copy.withUTF8 { hash(bytes: UnsafeRawBufferPointer($0)) }
    }

    @inline(__always)
    private static func hash(bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(truncatingIfNeeded: bytes.count)
        var offset = 0
        let count = bytes.count
        while offset + 8 <= count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            h = fold(h ^ word, 0x9E37_79B9_7F4A_7C15)
            offset += 8
        }
        if offset < count {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while offset < count {
                tail |= UInt64(bytes[offset]) << shift
                shift += 8
                offset += 1
            }
            h = fold(h ^ tail, 0xBF58_476D_1CE4_E5B9)
        }
        h ^= h >> 33
        h &*= 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h &*= 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return h
    }

    /// The high and low halves of the 128-bit product, xored.
    @inline(__always)
    private static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }
}
