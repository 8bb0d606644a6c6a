import Support

/// What every document reader shares about its input (the JSON, TOML and YAML readers).
public enum DocumentInput {
    /// The one-line error every reader throws for malformed input: `FILE:LINE: problem`.
    public static func malformed(_ file: String, _ line: Int, _ problem: String) -> SentinelError {
        SentinelError(.invalidInput, "\(file):\(line): \(problem)")
    }

    /// The bytes of a document without a leading UTF-8 byte order mark.
    public static func droppingBOM(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return bytes[3...] }
        return bytes[...]
    }
}
