import Support

/// Where a zip file's central directory lies and how many entries it holds, from the
/// end-of-central-directory record, or from its zip64 form when the 16/32-bit fields are too small.
struct ZipDirectory {
    /// Offset of the first central directory entry.
    var offset: Int
    /// Where the central directory must end (the zip64 or plain end record that follows it).
    var end: Int
    var count: Int

    init(path: String, bytes: [UInt8]) throws {
        // The end-of-central-directory record sits in the last 22 + up to 65535 comment bytes.
        guard bytes.count >= 22 else { throw SentinelError(.invalidInput, "\(path): too short to be a zip file") }
        var eocd = -1
        var i = bytes.count - 22
        let lowest = max(0, bytes.count - 22 - 65_535)
        while i >= lowest {
            if bytes.u32(i) == 0x0605_4b50 {
                eocd = i
                break
            }
            i -= 1
        }
        guard eocd >= 0 else { throw SentinelError(.invalidInput, "\(path): no zip end-of-central-directory record") }
        count = Int(bytes.u16(eocd + 10))
        var size = Int(bytes.u32(eocd + 12))
        offset = Int(bytes.u32(eocd + 16))
        end = eocd
        // A zip64 locator (20 bytes) just before the record points to the zip64 end record.
        if eocd >= 20, bytes.u32(eocd - 20) == 0x0706_4b50 {
            let damaged = SentinelError(.invalidInput, "\(path): zip64 end-of-central-directory record is damaged")
            guard let record = Int(exactly: bytes.u64(eocd - 20 + 8)), record <= eocd - 20 - 56,
                bytes.u32(record) == 0x0606_4b50,
                let count64 = Int(exactly: bytes.u64(record + 32)), let size64 = Int(exactly: bytes.u64(record + 40)),
                let offset64 = Int(exactly: bytes.u64(record + 48))
            else { throw damaged }
            (count, size, offset, end) = (count64, size64, offset64, record)
        }
        guard offset <= end, size <= end - offset else {
            throw SentinelError(.invalidInput, "\(path): central directory lies outside the file")
        }
        // Each entry takes at least 46 bytes: a count larger than the directory can hold is damage.
        guard count <= size / 46 else {
            throw SentinelError(.invalidInput, "\(path): central directory entry count \(count) does not fit its size")
        }
    }
}
