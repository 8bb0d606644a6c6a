/// A 4096-bit filter over short names (length, first and last byte), to answer "certainly not
/// among these names" without hashing a string: the taint analysis asks at every node whether
/// its name has a pattern or an import alias, and nearly always it has none.
struct NameFilter: Sendable, Hashable {
    private var bits = [UInt64](repeating: 0, count: 64)

    /// A filter that holds `names`.
    init(_ names: some Sequence<String> = []) {
        for name in names { insert(name) }
    }

    mutating func insert(_ name: String) {
        let slot = Self.slot(name)
        bits[slot >> 6] |= 1 << UInt64(slot & 63)
    }

    /// False when `name` is certainly not in the filter.
    @inline(__always) func mayContain(_ name: String) -> Bool {
        let slot = Self.slot(name)
        return bits[slot >> 6] & (1 << UInt64(slot & 63)) != 0
    }

    @inline(__always) private static func slot(_ name: String) -> Int {
        let bytes = name.utf8
        guard let first = bytes.first, let last = bytes.last else { return 0 }
        return (Int(first) &* 131 &+ Int(last) &* 31 &+ bytes.count &* 7) & 4095
    }
}
