import CZlib
import Support

/// zlib compression of stored advisory JSON, and raw-deflate inflation for zip entries.
enum Compression {
    /// zlib-format compression (for the database's `raw` column).
    static func compress(_ input: [UInt8]) throws -> [UInt8] {
        var size = compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(size))
        let rc = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { compress2(out.baseAddress, &size, $0.baseAddress, uLong(input.count), 6) }
        }
        guard rc == Z_OK else { throw SentinelError(.io, "compress2 failed (\(rc))") }
        return Array(output.prefix(Int(size)))
    }

    /// Reverses `compress`; `size` is the original length.
    static func uncompress(_ input: [UInt8], size: Int) throws -> [UInt8] {
        var length = uLong(size)
        var output = [UInt8](repeating: 0, count: max(size, 1))
        let rc = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { CZlib.uncompress(out.baseAddress, &length, $0.baseAddress, uLong(input.count)) }
        }
        guard rc == Z_OK else { throw SentinelError(.io, "uncompress failed (\(rc))") }
        return Array(output.prefix(Int(length)))
    }

    /// Inflates a raw deflate stream (zip method 8) that must expand to exactly `size` bytes.
    static func inflateRaw(_ input: ArraySlice<UInt8>, size: Int, name: String) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: max(size, 1))
        var stream = z_stream()
        // -15 window bits: a raw deflate stream without zlib header, as zip stores it.
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw SentinelError(.io, "\(name): inflateInit2 failed")
        }
        defer { inflateEnd(&stream) }
        let rc: Int32 = input.withUnsafeBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf in
                stream.next_in = UnsafeMutablePointer(mutating: inBuf.baseAddress)
                stream.avail_in = uInt(inBuf.count)
                stream.next_out = outBuf.baseAddress
                stream.avail_out = uInt(size)
                return inflate(&stream, Z_FINISH)
            }
        }
        guard rc == Z_STREAM_END, Int(stream.total_out) == size else {
            throw SentinelError(.invalidInput, "\(name): corrupt deflate data (inflate returned \(rc))")
        }
        return size == 0 ? [] : output
    }

    /// CRC-32 as zip records it.
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
    }
}
