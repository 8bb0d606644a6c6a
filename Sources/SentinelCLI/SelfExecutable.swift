#if canImport(Glibc)
    import Glibc
#endif
import Support

/// The running `sentinel` binary's path: the DAST worker re-executes it inside the sandbox.
enum SelfExecutable {
    static func path() throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else {
            throw SentinelError(.io, "/proc/self/exe: cannot read the running binary's path: \(Errno.current)", errno: .current)
        }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
