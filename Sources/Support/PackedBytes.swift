/// A compact byte encoding for caches of values Sentinel computes from trusted inputs (the
/// compiled rule pack, ``PackedWriter``/``PackedReader``): unsigned LEB128 integers, and strings
/// and byte runs as a length and their bytes. The reader checks every read against the end, so
/// a cut or damaged cache is an error the caller turns into "no cache", never a crash.
public struct PackedWriter: Sendable {
    /// What was written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty writer.
    public init() {}

    /// A non-negative integer, seven bits a byte, least significant first.
    public mutating func int(_ value: Int) {
        precondition(value >= 0, "PackedWriter.int takes non-negative values")
        var rest = UInt(value)
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// A byte run: its length, then its bytes.
    public mutating func run(_ value: some Collection<UInt8>) {
        int(value.count)
        bytes.append(contentsOf: value)
    }

    /// A string's UTF-8 as a byte run.
    public mutating func string(_ value: String) {
        run(value.utf8)
    }

    /// One byte as written.
    public mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    /// Bytes as they are, with no length.
    public mutating func raw(_ value: some Collection<UInt8>) {
        bytes.append(contentsOf: value)
    }
}

/// Reads what ``PackedWriter`` wrote, within `bounds` of a byte array.
public struct PackedReader: Sendable {
    /// A read past the end, an integer of more than 63 bits or text that is not UTF-8.
    public struct Damaged: Error, Sendable {
        /// Damage found by a decoder built on the reader.
        public init() {}
    }

    /// The array read from.
    public let bytes: [UInt8]
    /// The next byte to read.
    public var position: Int
    /// One past the last byte this reader may read.
    public let end: Int

    /// A reader of `bytes[range]` (of all of it by default).
    public init(_ bytes: [UInt8], range: Range<Int>? = nil) {
        self.bytes = bytes
        let range = range ?? 0..<bytes.count
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "PackedReader range outside its bytes")
        position = range.lowerBound
        end = range.upperBound
    }

    /// Whether every byte was read.
    public var atEnd: Bool { position == end }

    /// An integer ``PackedWriter/int(_:)`` wrote.
    public mutating func int() throws(Damaged) -> Int {
        var value: UInt = 0
        var shift: UInt = 0
        while true {
            guard position < end, shift <= 56 else { throw Damaged() }
            let byte = bytes[position]
            position += 1
            value |= UInt(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        guard value <= UInt(Int.max) else { throw Damaged() }
        return Int(value)
    }

    /// The range of a byte run ``PackedWriter/run(_:)`` wrote, stepped over.
    public mutating func run() throws(Damaged) -> Range<Int> {
        let count = try int()
        guard count <= end - position else { throw Damaged() }
        defer { position += count }
        return position..<(position + count)
    }

    /// A string ``PackedWriter/string(_:)`` wrote.
    public mutating func string() throws(Damaged) -> String {
        let range = try run()
        guard let text = String(validating: bytes[range], as: UTF8.self) else { throw Damaged() }
        return text
    }

    /// One byte.
    public mutating func byte() throws(Damaged) -> UInt8 {
        guard position < end else { throw Damaged() }
        defer { position += 1 }
        return bytes[position]
    }

    /// `count` bytes as they are.
    public mutating func raw(_ count: Int) throws(Damaged) -> ArraySlice<UInt8> {
        guard count >= 0, count <= end - position else { throw Damaged() }
        defer { position += count }
        return bytes[position..<(position + count)]
    }
}
