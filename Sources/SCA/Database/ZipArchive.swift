import Support

/// Reads a zip file's central directory and entries (stored or deflated), as in OSV's `all.zip`
/// exports: zip64 archives (more than 65,535 entries, or past 4 GiB) and streamed entries (sizes in
/// a data descriptor; the central directory repeats them) included. Encrypted entries and other
/// compression methods are reported, not guessed at. Kept over ZIPFoundation: twice as fast on the
/// OSV exports, and a damaged central directory fails here instead of ending the listing early
/// (BENCHMARKS.md, "Zip reader").
///
/// Hostile archives (issue 26): every size and offset the central directory declares is checked
/// against the file and `ZipLimits` before anything is read or allocated, entries may not overlap
/// each other or the central directory, and inflation stops at the declared size.
struct ZipArchive {
    struct Entry {
        var name: String
        /// The name's length in bytes as stored (`name` may hold replacement characters).
        var nameLength: Int
        var method: UInt16
        var flags: UInt16
        var crc: UInt32
        var compressedSize: Int
        var size: Int
        var localHeaderOffset: Int
    }

    let path: String
    let bytes: [UInt8]
    let entries: [Entry]

    init(path: String, bytes: [UInt8], limits: ZipLimits = .osvExports) throws {
        self.path = path
        self.bytes = bytes
        let directory = try ZipDirectory(path: path, bytes: bytes)
        var entries = [Entry]()
        var at = directory.offset
        for index in 0..<directory.count {
            let damaged = SentinelError(.invalidInput, "\(path): central directory entry \(index) is damaged")
            guard at <= directory.end - 46, bytes.u32(at) == 0x0201_4b50 else { throw damaged }
            let nameLength = Int(bytes.u16(at + 28))
            let extraLength = Int(bytes.u16(at + 30))
            let commentLength = Int(bytes.u16(at + 32))
            let extraStart = at + 46 + nameLength
            guard extraStart + extraLength <= directory.end else { throw damaged }
            var entry = Entry(
                name: String(decoding: bytes[(at + 46)..<extraStart], as: UTF8.self),
                nameLength: nameLength,
                method: bytes.u16(at + 10),
                flags: bytes.u16(at + 8),
                crc: bytes.u32(at + 16),
                compressedSize: Int(bytes.u32(at + 20)),
                size: Int(bytes.u32(at + 24)),
                localHeaderOffset: Int(bytes.u32(at + 42)))
            guard entry.readZip64Fields(bytes[extraStart..<(extraStart + extraLength)]) else { throw damaged }
            entries.append(entry)
            at = extraStart + extraLength + commentLength
        }
        try Self.checkPlacement(entries, before: directory.offset, path: path)
        try limits.check(entries, path: path)
        self.entries = entries
    }

    /// Each entry's local header and data lie before the central directory, and no two entries
    /// share bytes (overlapping entries are how a small zip expands many times over). The span
    /// counted is the least an entry takes: its 30-byte header, its name and its data.
    private static func checkPlacement(_ entries: [Entry], before directory: Int, path: String) throws {
        var previous: (end: Int, name: String)?
        let ordered = entries.indices.sorted { (entries[$0].localHeaderOffset, $0) < (entries[$1].localHeaderOffset, $1) }
        for entry in ordered.map({ entries[$0] }) {
            let place = "\(path)!\(entry.shownName)"
            let local = entry.localHeaderOffset
            guard local <= directory - 30 else {
                throw SentinelError(.invalidInput, "\(place): local header offset \(local) lies outside the file")
            }
            let dataStart = local + 30 + entry.nameLength
            guard dataStart <= directory, entry.compressedSize <= directory - dataStart else {
                throw SentinelError(.invalidInput, "\(place): compressed size \(entry.compressedSize) runs past the central directory")
            }
            if let previous, local < previous.end {
                throw SentinelError(.invalidInput, "\(place): overlaps \(path)!\(previous.name)")
            }
            previous = (dataStart + entry.compressedSize, entry.shownName)
        }
    }

    /// The uncompressed bytes of `entry`, checked against its CRC.
    func contents(of entry: Entry) throws -> [UInt8] {
        let place = "\(path)!\(entry.shownName)"
        guard entry.flags & 1 == 0 else { throw SentinelError(.unsupported, "\(place): encrypted entry") }
        let local = entry.localHeaderOffset
        guard local <= bytes.count - 30, bytes.u32(local) == 0x0403_4b50 else {
            throw SentinelError(.invalidInput, "\(place): local header is damaged")
        }
        // The local header's own sizes may be zero (streamed) or 0xFFFFFFFF (zip64): the central
        // directory's are the ones to use; only its name and extra lengths place the data.
        let start = local + 30 + Int(bytes.u16(local + 26)) + Int(bytes.u16(local + 28))
        guard start <= bytes.count, entry.compressedSize <= bytes.count - start else {
            throw SentinelError(.invalidInput, "\(place): data runs past the end of the file")
        }
        let data = bytes[start..<(start + entry.compressedSize)]
        let output: [UInt8]
        switch entry.method {
        case 0:
            guard entry.compressedSize == entry.size else { throw SentinelError(.invalidInput, "\(place): stored size mismatch") }
            output = Array(data)
        case 8:
            output = try Compression.inflateRaw(data, size: entry.size, name: place)
        default: throw SentinelError(.unsupported, "\(place): compression method \(entry.method)")
        }
        guard Compression.crc(output) == entry.crc else { throw SentinelError(.invalidInput, "\(place): CRC mismatch") }
        return output
    }
}

extension ZipArchive.Entry {
    /// The name for messages: the archive chooses it, so control characters (a newline would
    /// forge a second line of output, an escape sequence restyle the terminal) are shown as `\xNN`.
    var shownName: String {
        var shown = ""
        for scalar in name.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                shown += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// Replaces the 32-bit fields saturated at 0xFFFFFFFF with the zip64 extra field's 64-bit
    /// values (tag 1: size, compressed size, local header offset, in that order, each present only
    /// when saturated). False when a saturated field has no value or a value does not fit.
    mutating func readZip64Fields(_ extra: ArraySlice<UInt8>) -> Bool {
        let saturated = 0xFFFF_FFFF
        guard size == saturated || compressedSize == saturated || localHeaderOffset == saturated else { return true }
        var at = extra.startIndex
        while at + 4 <= extra.endIndex {
            let tag = extra.u16(at)
            let length = Int(extra.u16(at + 2))
            let body = at + 4
            guard body + length <= extra.endIndex else { return false }
            if tag == 1 {
                var field = body
                func next() -> Int? {
                    guard field + 8 <= body + length, let value = Int(exactly: extra.u64(field)) else { return nil }
                    field += 8
                    return value
                }
                if size == saturated {
                    guard let value = next() else { return false }
                    size = value
                }
                if compressedSize == saturated {
                    guard let value = next() else { return false }
                    compressedSize = value
                }
                if localHeaderOffset == saturated {
                    guard let value = next() else { return false }
                    localHeaderOffset = value
                }
                return true
            }
            at = body + length
        }
        return false
    }
}

/// Little-endian reads at absolute indexes (callers check the bounds first).
extension Collection where Self.Element == UInt8, Self.Index == Int {
    func u16(_ i: Int) -> UInt16 { UInt16(self[i]) | UInt16(self[i + 1]) << 8 }
    func u32(_ i: Int) -> UInt32 { UInt32(u16(i)) | UInt32(u16(i + 2)) << 16 }
    func u64(_ i: Int) -> UInt64 { UInt64(u32(i)) | UInt64(u32(i + 4)) << 32 }
}
