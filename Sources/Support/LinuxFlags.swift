/// Linux flags Swift's Glibc module leaves out (they are `_GNU_SOURCE`-only in the headers): one
/// definition for every module that opens by descriptor.
public enum LinuxFlags {
    /// `O_PATH`: a descriptor that names a file without opening it for reading or writing.
    public static let openPathOnly: Int32 = 0o10_000_000
    /// `AT_EMPTY_PATH`: act on the descriptor itself when the name is empty.
    public static let atEmptyPath: Int32 = 0x1000
    /// `POLLRDHUP`: the peer of a stream socket shut down its writing half (or closed).
    public static let pollPeerHangUp: Int16 = 0x2000
}
