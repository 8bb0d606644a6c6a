import Support

/// Reads a zip file's central directory and entries (stored or deflated), as in OSV's `all.zip`
/// exports. Zip64 and encrypted entries are reported, not guessed at.
struct ZipArchive {
    struct Entry {
        var name: String
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

    init(path: String, bytes: [UInt8]) throws {
        self.path = path
        self.bytes = bytes
        // The end-of-central-directory record sits in the last 22 + up to 65535 comment bytes.
        guard bytes.count >= 22 else { throw SentinelError(.invalidInput, "\(path): too short to be a zip file") }
        var eocd = -1
        var i = bytes.count - 22
        let lowest = max(0, bytes.count - 22 - 65_535)
        while i >= lowest {
            if ZipArchive.u32(bytes, i) == 0x0605_4b50 { eocd = i; break }
            i -= 1
        }
        guard eocd >= 0 else { throw SentinelError(.invalidInput, "\(path): no zip end-of-central-directory record") }
        let count = Int(ZipArchive.u16(bytes, eocd + 10))
        let directorySize = Int(ZipArchive.u32(bytes, eocd + 12))
        let directoryOffset = Int(ZipArchive.u32(bytes, eocd + 16))
        guard directoryOffset != 0xFFFF_FFFF, count != 0xFFFF else {
            throw SentinelError(.unsupported, "\(path): zip64 archives are not supported")
        }
        guard directoryOffset + directorySize <= eocd else {
            throw SentinelError(.invalidInput, "\(path): central directory lies outside the file")
        }
        var entries = [Entry]()
        var at = directoryOffset
        for index in 0..<count {
            guard at + 46 <= eocd, ZipArchive.u32(bytes, at) == 0x0201_4b50 else {
                throw SentinelError(.invalidInput, "\(path): central directory entry \(index) is damaged")
            }
            let nameLength = Int(ZipArchive.u16(bytes, at + 28))
            let extraLength = Int(ZipArchive.u16(bytes, at + 30))
            let commentLength = Int(ZipArchive.u16(bytes, at + 32))
            guard at + 46 + nameLength <= eocd else {
                throw SentinelError(.invalidInput, "\(path): central directory entry \(index) is damaged")
            }
            entries.append(Entry(
                name: String(decoding: bytes[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self),
                method: ZipArchive.u16(bytes, at + 10),
                flags: ZipArchive.u16(bytes, at + 8),
                crc: ZipArchive.u32(bytes, at + 16),
                compressedSize: Int(ZipArchive.u32(bytes, at + 20)),
                size: Int(ZipArchive.u32(bytes, at + 24)),
                localHeaderOffset: Int(ZipArchive.u32(bytes, at + 42))))
            at += 46 + nameLength + extraLength + commentLength
        }
        self.entries = entries
    }

    /// The uncompressed bytes of `entry`, checked against its CRC.
    func contents(of entry: Entry) throws -> [UInt8] {
        let place = "\(path)!\(entry.name)"
        guard entry.flags & 1 == 0 else { throw SentinelError(.unsupported, "\(place): encrypted entry") }
        guard entry.size != 0xFFFF_FFFF, entry.compressedSize != 0xFFFF_FFFF else {
            throw SentinelError(.unsupported, "\(place): zip64 entry")
        }
        let local = entry.localHeaderOffset
        guard local + 30 <= bytes.count, ZipArchive.u32(bytes, local) == 0x0403_4b50 else {
            throw SentinelError(.invalidInput, "\(place): local header is damaged")
        }
        let start = local + 30 + Int(ZipArchive.u16(bytes, local + 26)) + Int(ZipArchive.u16(bytes, local + 28))
        guard start + entry.compressedSize <= bytes.count else {
            throw SentinelError(.invalidInput, "\(place): data runs past the end of the file")
        }
        let data = bytes[start..<(start + entry.compressedSize)]
        let output: [UInt8]
        switch entry.method {
        case 0:
            guard entry.compressedSize == entry.size else { throw SentinelError(.invalidInput, "\(place): stored size mismatch") }
            output = Array(data)
        case 8: output = try Compression.inflateRaw(data, size: entry.size, name: place)
        default: throw SentinelError(.unsupported, "\(place): compression method \(entry.method)")
        }
        guard Compression.crc(output) == entry.crc else { throw SentinelError(.invalidInput, "\(place): CRC mismatch") }
        return output
    }

    private static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    private static func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }
}
