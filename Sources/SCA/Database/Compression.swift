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
    /// Streamed in chunks: memory grows with what the data really yields, never with what the
    /// archive declares, and a stream that yields more than `size` stops there.
    static func inflateRaw(_ input: ArraySlice<UInt8>, size: Int, name: String) throws -> [UInt8] {
        var stream = z_stream()
        // -15 window bits: a raw deflate stream without zlib header, as zip stores it.
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw SentinelError(.io, "\(name): inflateInit2 failed")
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8]()
        output.reserveCapacity(min(size, 1 << 20))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let rc: Int32 = try input.withUnsafeBufferPointer { inBuf in
            var consumed = 0
            var rc = Z_OK
            while rc == Z_OK {
                if stream.avail_in == 0, consumed < inBuf.count, let base = inBuf.baseAddress {
                    // avail_in is 32-bit: feed at most 1 GiB at a time.
                    let length = min(inBuf.count - consumed, 1 << 30)
                    stream.next_in = UnsafeMutablePointer(mutating: base + consumed)
                    stream.avail_in = uInt(length)
                    consumed += length
                }
                rc = chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                guard produced <= size - output.count else {
                    throw SentinelError(.invalidInput, "\(name): inflates past its declared size \(size)")
                }
                output.append(contentsOf: chunk[0..<produced])
            }
            return rc
        }
        guard rc == Z_STREAM_END, output.count == size else {
            throw SentinelError(.invalidInput, "\(name): corrupt deflate data (inflate returned \(rc))")
        }
        return output
    }

    /// CRC-32 as zip records it (fed in pieces: zlib's length argument is 32-bit).
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            var crc = crc32(0, nil, 0)
            var at = 0
            repeat {
                let length = min(buffer.count - at, 1 << 30)
                crc = crc32(crc, buffer.baseAddress.map { $0 + at }, uInt(length))
                at += length
            } while at < buffer.count
            return UInt32(crc)
        }
    }
}
