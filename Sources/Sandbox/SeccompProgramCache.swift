#if canImport(Glibc)
    import Glibc
#endif
import CSandbox
import Foundation
import Support

/// The default seccomp program, compiled once and kept in the launcher's private run directory
/// (`/run/sentinel` as root, `$XDG_RUNTIME_DIR/sentinel` otherwise): libseccomp takes ~2 ms to
/// compile its ~300 rules, on every launch of a short-lived CLI.
///
/// A cached program is trusted only as far as the directory is: the file is read through the
/// directory's descriptor, without following a link, only if it is a regular file of this
/// launcher's uid with no permission for anyone else and a single name, within the size of
/// the longest program the kernel takes; its header must name the key it was stored under and
/// a checksum of the program (FNV-1a, against a damaged file: what keeps others from writing
/// it is the directory's and the file's ownership). The key names the executable's build ID
/// (the linker's hash of its contents), the running libseccomp's version and the policy, so
/// another build or another libseccomp never reads a program it did not compile. Anything else
/// is ignored and replaced by a fresh compile; storing removes the programs of other keys.
/// Without a build ID or a private directory nothing is cached.
///
/// No SHA-256 here: its first use in a process initialises OpenSSL (~0.9 ms, more than the
/// read it would check).
enum SeccompProgramCache {
    private static let magic = Array("SENTINEL-SECCOMP-1\n".utf8)
    private static let prefix = "seccomp-"
    private static let suffix = ".bpf"
    /// BPF_MAXINSNS: the kernel's own limit on a program's length.
    static let maximumInstructions = 4096
    private static let instructionSize = MemoryLayout<sock_filter>.stride
    private static let keySize = 64
    private static let headerSize = magic.count + keySize + 8 + 4

    /// The key of `policy` for this build and libseccomp (hex digits, a dash, a policy name:
    /// at most 64 characters), or nil without a build ID.
    static func key(policy: String, buildID: [UInt8]? = BuildID.current) -> [UInt8]? {
        guard let buildID, !buildID.isEmpty else { return nil }
        let text = hex(buildID.prefix(20)) + "-" + String(sbx_seccomp_library_version(), radix: 16) + "-" + policy
        return Array(text.utf8.prefix(keySize))
    }

    /// The directory the cache lives in: the launcher's private run directory, when it has one.
    static func directory() -> String? {
        NewRootDirectory.privateBase()
    }

    /// The file name a program of `key` is stored under.
    static func fileName(_ key: [UInt8]) -> String {
        prefix + String(decoding: key, as: UTF8.self) + suffix
    }

    /// The program stored under `key` in `directory`, or nil when there is none this launcher
    /// may trust (see the type's documentation).
    static func load(_ key: [UInt8], in directory: String) -> [sock_filter]? {
        guard let parent = try? DirectoryDescriptor.workingDirectory.openDirectory(directory),
            let fd = try? parent.openFile(fileName(key), flags: O_RDONLY | O_NONBLOCK)
        else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(),
            info.st_mode & 0o077 == 0, info.st_nlink == 1,
            let data = try? BoundedFile.read(
                fd: fd, name: fileName(key), limit: headerSize + maximumInstructions * instructionSize)
        else { return nil }
        return decode(Array(data), key: key)
    }

    /// Stores `program` under `key` in `directory` (a new file renamed into place, mode 0600)
    /// and removes the programs of other keys. Failures are ignored: the next launch compiles.
    static func store(_ program: UnsafeBufferPointer<sock_filter>, key: [UInt8], in directory: String) {
        let name = fileName(key)
        guard let file = try? PreparedOutputFile(path: directory + "/" + name) else { return }
        guard (try? file.write(Data(encode(program, key: key)), mode: 0o600)) != nil else { return }
        guard let parent = try? DirectoryDescriptor.workingDirectory.openDirectory(directory),
            let entries = try? parent.entries()
        else { return }
        for entry in entries where entry.text.hasPrefix(prefix) && entry.text.hasSuffix(suffix) && entry.text != name {
            try? parent.remove(entry.text)
        }
    }

    /// The header (magic, key padded with NULs, checksum and instruction count, little-endian)
    /// and the instructions.
    static func encode(_ program: UnsafeBufferPointer<sock_filter>, key: [UInt8]) -> [UInt8] {
        let body = Array(UnsafeRawBufferPointer(program))
        let paddedKey = key + [UInt8](repeating: 0, count: keySize - key.count)
        return magic + paddedKey + littleEndian(checksum(body), size: 8) + littleEndian(UInt64(program.count), size: 4) + body
    }

    /// The instructions of `bytes` if its header names `key` and matches the program.
    static func decode(_ bytes: [UInt8], key: [UInt8]) -> [sock_filter]? {
        guard bytes.count >= headerSize, bytes.starts(with: magic) else { return nil }
        var offset = magic.count
        let paddedKey = key + [UInt8](repeating: 0, count: keySize - key.count)
        guard bytes[offset..<offset + keySize].elementsEqual(paddedKey) else { return nil }
        offset += keySize
        let sum = readLittleEndian(bytes[offset..<offset + 8])
        let count = Int(readLittleEndian(bytes[offset + 8..<offset + 12]))
        offset += 12
        let body = Array(bytes[offset...])
        guard count >= 1, count <= maximumInstructions, body.count == count * instructionSize, checksum(body) == sum
        else { return nil }
        return body.withUnsafeBytes { raw in
            (0..<count).map { raw.loadUnaligned(fromByteOffset: $0 * instructionSize, as: sock_filter.self) }
        }
    }

    /// FNV-1a, 64 bits.
    static func checksum(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    private static func littleEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private static func readLittleEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: text, as: UTF8.self)
    }
}
