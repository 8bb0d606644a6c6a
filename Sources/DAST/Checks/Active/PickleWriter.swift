/// Writes the one pickle the deserialisation check sends — a dict of strings — and reads the
/// strings of a client's pickle by scanning its opcodes (never by unpickling it).
enum PickleWriter {
    /// Protocol 2: `{key: value, ...}` with every key mapped to `value`.
    static func dictionary(keys: [String], value: String) -> [UInt8] {
        var out: [UInt8] = [0x80, 0x02, 0x7D]  // PROTO 2, EMPTY_DICT
        let keys = keys.isEmpty ? ["value"] : keys
        out.append(0x28)  // MARK
        for key in keys {
            appendString(key, to: &out)
            appendString(value, to: &out)
        }
        out.append(0x75)  // SETITEMS
        out.append(0x2E)  // STOP
        return out
    }

    /// Protocol 2: `module.name(argument)` — the one call the blind probe makes (`time.sleep`).
    static func call(module: String, name: String, argument: Int32) -> [UInt8] {
        var out: [UInt8] = [0x80, 0x02, 0x63]  // PROTO 2, GLOBAL
        out += Array("\(module)\n\(name)\n".utf8)
        out.append(0x4A)  // BININT, 4-byte little-endian
        let value = UInt32(bitPattern: argument)
        out += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
        out += [0x85, 0x52, 0x2E]  // TUPLE1, REDUCE, STOP
        return out
    }

    private static func appendString(_ text: String, to out: inout [UInt8]) {
        let bytes = Array(text.utf8)
        out.append(0x58)  // BINUNICODE, 4-byte little-endian length
        let count = UInt32(bytes.count)
        out += [UInt8(count & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count >> 16 & 0xFF), UInt8(count >> 24)]
        out += bytes
    }

    /// The short strings (`SHORT_BINUNICODE`, `BINUNICODE`) in a pickle, in order, at most 16,
    /// found by walking the bytes for those opcodes.
    static func strings(in bytes: [UInt8]) -> [String] {
        var found: [String] = []
        var index = 0
        while index < bytes.count, found.count < 16 {
            switch bytes[index] {
            case 0x8C where index + 1 < bytes.count:  // SHORT_BINUNICODE
                let length = Int(bytes[index + 1])
                let start = index + 2
                guard start + length <= bytes.count else { return found }
                found.append(String(decoding: bytes[start..<start + length], as: UTF8.self))
                index = start + length
            case 0x58 where index + 4 < bytes.count:  // BINUNICODE
                let length =
                    Int(bytes[index + 1]) | Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]) << 16 | Int(bytes[index + 4]) << 24
                let start = index + 5
                guard length < 4096, start + length <= bytes.count else { return found }
                found.append(String(decoding: bytes[start..<start + length], as: UTF8.self))
                index = start + length
            default:
                index += 1
            }
        }
        var seen = Set<String>()
        return found.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
