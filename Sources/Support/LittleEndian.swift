/// 64-bit values as eight bytes, least significant first: the run cache's headers and the
/// identities of executables.
public enum LittleEndian {
    /// The eight bytes of `value`, least significant first.
    public static func bytes(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// The value of `bytes` (at most eight), least significant first.
    public static func value(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}
