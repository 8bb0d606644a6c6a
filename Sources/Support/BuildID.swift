import CSystem

/// The running executable's GNU build ID (`ld --build-id`): a hash of its contents the linker
/// writes into a note, so any change to the code gives another ID. Caches of what the code
/// computes (the seccomp program) key on it.
public enum BuildID {
    /// The main program's build ID, or nil when it was linked without one.
    public static let current: [UInt8]? = {
        var bytes = [UInt8](repeating: 0, count: 64)
        let length = bytes.withUnsafeMutableBufferPointer { csys_build_id($0.baseAddress, $0.count) }
        return length > 0 ? Array(bytes[..<Int(length)]) : nil
    }()
}
