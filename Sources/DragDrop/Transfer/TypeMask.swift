/// A set of interned accepted types as a fixed 256-bit set, so that "does this destination accept
/// this item?" is four AND operations on the pointer-move path, with no hashing or allocation.
@_spi(Benchmarks) public struct TypeMask: Hashable, Sendable {
    @usableFromInline var w0: UInt64 = 0
    @usableFromInline var w1: UInt64 = 0
    @usableFromInline var w2: UInt64 = 0
    @usableFromInline var w3: UInt64 = 0

    /// The empty set.
    public init() {}

    /// The most distinct accepted types one engine can tell apart.
    public static let capacity = 256

    /// Adds bit `index` (0..<256).
    @inlinable public mutating func insert(_ index: Int) {
        let bit = UInt64(1) << UInt64(index & 63)
        switch index >> 6 {
        case 0: w0 |= bit
        case 1: w1 |= bit
        case 2: w2 |= bit
        default: w3 |= bit
        }
    }

    /// Adds every member of `other`.
    @inlinable public mutating func formUnion(_ other: TypeMask) {
        w0 |= other.w0
        w1 |= other.w1
        w2 |= other.w2
        w3 |= other.w3
    }

    /// Whether the two sets share a member. O(1).
    @inlinable public func intersects(_ other: TypeMask) -> Bool {
        (w0 & other.w0) | (w1 & other.w1) | (w2 & other.w2) | (w3 & other.w3) != 0
    }

    /// Whether the set is empty.
    @inlinable public var isEmpty: Bool { (w0 | w1 | w2 | w3) == 0 }
}

/// Errors raised when declaring accepted types.
public enum TypeMaskError: Error, Equatable, CustomStringConvertible {
    /// More distinct accepted types were declared than one engine can index.
    case tooManyAcceptedTypes(limit: Int, type: String)

    public var description: String {
        switch self {
        case .tooManyAcceptedTypes(let limit, let type):
            "Cannot accept '\(type)': destinations already accept \(limit) distinct types, the most one engine indexes."
        }
    }
}

/// Interns the types that destinations accept and turns offered types into masks.
///
/// Only *accepted* types are interned: a type that no destination accepts can never make a
/// destination match, so offers from other apps, however many foreign types they name, never
/// grow the table.
struct TypeUniverse: Sendable {
    /// The conformance table used to expand offered types to their supertypes.
    private(set) var conformance: TypeConformance
    private var indexOf: [String: Int] = [:]
    /// Bumped whenever a new accepted type is interned; sessions recompute their masks when it moves.
    private(set) var generation = 0

    /// Creates an empty universe over a conformance table.
    init(conformance: TypeConformance = TypeConformance()) {
        self.conformance = conformance
    }

    /// Replaces the conformance table (an app declaring its own types).
    mutating func setConformance(_ table: TypeConformance) {
        conformance = table
        generation += 1
    }

    /// The mask for a destination that accepts `types`, interning new ones. Throws, interning
    /// nothing, when the new ones do not all fit in the table.
    mutating func acceptMask(for types: [ContentType]) throws(TypeMaskError) -> TypeMask {
        // Check before interning anything, so that a refused list leaves the table unchanged.
        var fresh: [String] = []
        for type in types {
            let key = conformance.canonical(type.essence)
            guard indexOf[key] == nil, !fresh.contains(key) else { continue }
            guard indexOf.count + fresh.count < TypeMask.capacity else {
                throw .tooManyAcceptedTypes(limit: TypeMask.capacity, type: type.mimeType)
            }
            fresh.append(key)
        }
        var mask = TypeMask()
        for type in types {
            let key = conformance.canonical(type.essence)
            if let index = indexOf[key] {
                mask.insert(index)
                continue
            }
            let index = indexOf.count
            indexOf[key] = index
            generation += 1
            mask.insert(index)
        }
        return mask
    }

    /// The mask of every accepted type that `types` satisfy, through conformance and wildcards.
    func offerMask(for types: [ContentType]) -> TypeMask {
        var mask = TypeMask()
        for type in types {
            for key in conformance.closure(of: type) {
                if let index = indexOf[key] { mask.insert(index) }
            }
        }
        return mask
    }
}
