#if canImport(Glibc)
    import Glibc
#endif
import FoundationEssentials
import Support

/// One file of the launcher's run cache, in its private run directory (`/run/sentinel` as root,
/// `$XDG_RUNTIME_DIR/sentinel` otherwise): what a short-lived CLI would otherwise redo at every
/// launch (the default seccomp program, profiles' parsed documents).
///
/// A cached file is trusted only as far as the directory is: it is read through the directory's
/// descriptor, without following a link, only if it is a regular file of this launcher's uid
/// with no permission for anyone else and a single name, within the reader's size limit; its
/// header must hold the reader's magic, the key it was stored under, and the length and a
/// checksum of its body (FNV-1a, against a damaged file: what keeps others from writing it is
/// the directory's and the file's ownership). Anything else reads as absent, and the caller
/// redoes the work and stores it again. Keys start with the executable's build ID (the linker's
/// hash of its contents), so another build never reads what it did not write.
///
/// No SHA-256 here: its first use in a process initialises OpenSSL (~0.9 ms, more than the
/// read it would check).
enum RunCacheFile {
    /// The longest key a header holds.
    static let keySize = 64

    /// The directory the cache lives in: the launcher's private run directory, when it has one.
    static func directory() -> String? {
        NewRootDirectory.privateBase()
    }

    /// The first 20 bytes of a build ID in hex, the start of every key; nil without one.
    static func buildPrefix(_ buildID: [UInt8]?) -> String? {
        guard let buildID, !buildID.isEmpty else { return nil }
        return Hex.lowercase(buildID.prefix(20))
    }

    /// The body of file `name` in `directory` if it is one this launcher may trust (see the
    /// type's documentation) and was stored with `magic` and `key`; nil otherwise.
    static func load(_ name: String, magic: [UInt8], key: [UInt8], in directory: String, bodyLimit: Int) -> [UInt8]? {
        guard let parent = try? DirectoryDescriptor.workingDirectory.openDirectory(directory),
            let fd = try? parent.openFile(name, flags: O_RDONLY | O_NONBLOCK)
        else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(),
            info.st_mode & 0o077 == 0, info.st_nlink == 1,
            let data = try? BoundedFile.read(fd: fd, name: name, limit: headerSize(magic) + bodyLimit),
            let body = decode(Array(data), magic: magic, key: key)
        else { return nil }
        // Used now: `store` keeps the newest entries, so an entry in use is not the first to go.
        _ = futimens(fd, nil)
        return body
    }

    /// A file of the cache directory, as `store` shows it to its caller.
    struct Entry {
        /// The file name.
        let name: String
        /// Its last modification or use (`load` marks a hit), in seconds and nanoseconds since the epoch.
        let modified: (seconds: Int, nanoseconds: Int)
    }

    /// A `stale` picker for `store`: of the entries named `prefix…suffix`, all but the newest
    /// `count` (by modification time, then name).
    static func beyondNewest(_ count: Int, prefix: String, suffix: String) -> (_ entries: [Entry]) -> [String] {
        { entries in
            let cached = entries.filter { $0.name.hasPrefix(prefix) && $0.name.hasSuffix(suffix) }
            guard cached.count > count else { return [] }
            let oldestFirst = cached.sorted {
                ($0.modified.seconds, $0.modified.nanoseconds, $0.name) < ($1.modified.seconds, $1.modified.nanoseconds, $1.name)
            }
            return oldestFirst.prefix(cached.count - count).map(\.name)
        }
    }

    /// Stores `body` as file `name` in `directory` (a new file renamed into place, mode 0600),
    /// then removes the entries `stale` picks among the directory's regular files; `name`
    /// itself is never removed. Failures are ignored: the next launch redoes the work.
    static func store(
        _ body: [UInt8], name: String, magic: [UInt8], key: [UInt8], in directory: String,
        stale: (_ entries: [Entry]) -> [String]
    ) {
        guard let file = try? PreparedOutputFile(path: directory + "/" + name),
            (try? file.write(Data(encode(body, magic: magic, key: key)), mode: 0o600)) != nil,
            let parent = try? DirectoryDescriptor.workingDirectory.openDirectory(directory),
            let entries = try? parent.entries()
        else { return }
        let files = entries.compactMap { entry -> Entry? in
            guard entry.type == DT_REG, let info = try? parent.status(of: entry.name) else { return nil }
            return Entry(name: entry.text, modified: (info.st_mtim.tv_sec, info.st_mtim.tv_nsec))
        }
        for entry in stale(files) where entry != name {
            try? parent.remove(entry)
        }
    }

    private static func headerSize(_ magic: [UInt8]) -> Int { magic.count + keySize + 16 }

    /// The header (magic, key padded with NULs, checksum and length of the body, little-endian)
    /// and the body.
    static func encode(_ body: [UInt8], magic: [UInt8], key: [UInt8]) -> [UInt8] {
        magic + padded(key) + LittleEndian.bytes(checksum(body)) + LittleEndian.bytes(UInt64(body.count)) + body
    }

    /// The body of `bytes` if its header has `magic`, names `key` and matches the body.
    static func decode(_ bytes: [UInt8], magic: [UInt8], key: [UInt8]) -> [UInt8]? {
        guard bytes.count >= headerSize(magic), bytes.starts(with: magic) else { return nil }
        var offset = magic.count
        guard bytes[offset..<offset + keySize].elementsEqual(padded(key)) else { return nil }
        offset += keySize
        let sum = LittleEndian.value(bytes[offset..<offset + 8])
        let length = LittleEndian.value(bytes[offset + 8..<offset + 16])
        offset += 16
        let body = Array(bytes[offset...])
        guard UInt64(body.count) == length, checksum(body) == sum else { return nil }
        return body
    }

    /// FNV-1a, 64 bits.
    static func checksum(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    private static func padded(_ key: [UInt8]) -> [UInt8] {
        Array(key.prefix(keySize)) + [UInt8](repeating: 0, count: keySize - min(keySize, key.count))
    }

    /// `checksum(bytes)` as 16 hex digits, most significant first: a name for a key.
    static func checksumText(_ bytes: [UInt8]) -> String {
        Hex.lowercase(LittleEndian.bytes(checksum(bytes)).reversed())
    }
}
