#if canImport(Glibc)
    import Glibc
#endif

/// Substring search over bytes: libc's vectorised `memchr` finds the first byte, `memcmp`
/// confirms. The secrets detector runs it for every prefix on every line of every file.
public enum ByteSearch {
    /// Start indices (in `haystack`'s index space) of every non-overlapping occurrence of `needle`.
    public static func occurrences(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> [Int] {
        guard !needle.isEmpty, haystack.count >= needle.count else { return [] }
        var result: [Int] = []
        haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pin in
                guard let base = hay.baseAddress, let needleBase = pin.baseAddress else { return }
                var offset = 0
                let first = Int32(needle[0])
                while offset + needle.count <= hay.count {
                    guard let found = memchr(base + offset, first, hay.count - offset - needle.count + 1) else { break }
                    let position = base.distance(to: UnsafeRawPointer(found))
                    if memcmp(base + position, needleBase, needle.count) == 0 {
                        result.append(haystack.startIndex + position)
                        offset = position + needle.count
                    } else {
                        offset = position + 1
                    }
                }
            }
        }
        return result
    }

    /// Whether any byte of `bytes` occurs in `haystack`.
    public static func containsAny(_ bytes: [UInt8], in haystack: ArraySlice<UInt8>) -> Bool {
        haystack.withUnsafeBytes { hay in
            guard let base = hay.baseAddress else { return false }
            return bytes.contains { memchr(base, Int32($0), hay.count) != nil }
        }
    }

    /// `haystack` with every non-overlapping occurrence of `needle` (searched left to right)
    /// replaced by `replacement`; byte for byte, so a needle is found inside any character.
    public static func replacing(_ needle: [UInt8], with replacement: [UInt8], in haystack: [UInt8]) -> [UInt8] {
        let found = occurrences(of: needle, in: haystack[...])
        guard !found.isEmpty else { return haystack }
        var result: [UInt8] = []
        result.reserveCapacity(haystack.count + found.count * max(0, replacement.count - needle.count))
        var copied = 0
        for start in found {
            result += haystack[copied..<start]
            result += replacement
            copied = start + needle.count
        }
        result += haystack[copied...]
        return result
    }
}
