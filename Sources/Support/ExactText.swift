#if canImport(Glibc)
    import Glibc
#endif

/// A string compared and hashed by its UTF-8 bytes, for tables keyed by text that the engine
/// compares by code point: Swift's `==` on strings is canonical equivalence, under which a
/// Kelvin sign is a `K` and a precomposed `é` is `e` and a combining accent. Pattern texts and
/// JavaScript identifiers are not.
public struct ExactText: Hashable, Sendable {
    /// The text.
    public let text: String

    /// Wraps `text`.
    public init(_ text: String) { self.text = text }

    /// Equal when the bytes are: compared in place with `memcmp` where both strings are stored
    /// contiguously (native strings are), as memo lookups compare every hit.
    public static func == (a: ExactText, b: ExactText) -> Bool {
        let (x, y) = (a.text.utf8, b.text.utf8)
        guard x.count == y.count else { return false }
        let compared = x.withContiguousStorageIfAvailable { left in
            y.withContiguousStorageIfAvailable { right in
                left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
            }
        }
        return (compared ?? nil) ?? x.elementsEqual(y)
    }

    /// Hashes the bytes, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(text.utf8.count)
    }
}
