#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Writes to the standard streams without going through buffered `print` for stderr,
/// so messages interleave correctly with a sandboxed child writing to the same fds.
enum Console {
    static func out(_ text: String) {
        write(1, text.hasSuffix("\n") ? text : text + "\n")
    }

    static func error(_ text: String) {
        write(2, text.hasSuffix("\n") ? text : text + "\n")
    }

    static func write(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(count)
        }
    }

    static var stderrIsTerminal: Bool { isatty(2) == 1 }
    static var stdoutIsTerminal: Bool { isatty(1) == 1 }
}
