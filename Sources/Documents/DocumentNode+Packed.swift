import Support

extension DocumentNode {
    /// The deepest nesting ``init(packed:)`` reads (a rule file nests a dozen levels).
    public static let maximumPackedDepth = 256

    /// Writes the node, its positions and its children with `writer` (``PackedWriter``): what
    /// the compiled rule pack keeps of a rule file so that a scan need not read its YAML.
    public func pack(into writer: inout PackedWriter) {
        writer.int(line)
        writer.int(column)
        switch value {
        case .null: writer.byte(0)
        case .bool(let flag): writer.byte(flag ? 2 : 1)
        case .integer(let number):
            writer.byte(3)
            writer.raw(LittleEndian.bytes(UInt64(bitPattern: Int64(number))))
        case .double(let number):
            writer.byte(4)
            writer.raw(LittleEndian.bytes(number.bitPattern))
        case .string(let text):
            writer.byte(5)
            writer.string(text)
        case .array(let elements):
            writer.byte(6)
            writer.int(elements.count)
            for element in elements { element.pack(into: &writer) }
        case .object(let members):
            writer.byte(7)
            writer.int(members.count)
            for member in members {
                writer.string(member.key)
                writer.int(member.line)
                writer.int(member.column)
                member.value.pack(into: &writer)
            }
        }
    }

    /// Reads a node ``pack(into:)`` wrote.
    /// - Throws: ``PackedReader/Damaged`` for bytes it did not write or nesting deeper than
    ///   ``maximumPackedDepth``.
    public init(packed reader: inout PackedReader) throws(PackedReader.Damaged) {
        self = try Self.unpack(&reader, depth: 0)
    }

    private static func unpack(_ reader: inout PackedReader, depth: Int) throws(PackedReader.Damaged) -> DocumentNode {
        guard depth <= maximumPackedDepth else { throw PackedReader.Damaged() }
        let line = try reader.int()
        let column = try reader.int()
        let value: Value
        switch try reader.byte() {
        case 0: value = .null
        case 1: value = .bool(false)
        case 2: value = .bool(true)
        case 3: value = .integer(Int(Int64(bitPattern: LittleEndian.value(try reader.raw(8)))))
        case 4: value = .double(Double(bitPattern: LittleEndian.value(try reader.raw(8))))
        case 5: value = .string(try reader.string())
        case 6:
            let count = try reader.int()
            // Each element takes at least three bytes: a count beyond what is left is damage.
            guard count <= (reader.end - reader.position) / 3 else { throw PackedReader.Damaged() }
            var elements: [DocumentNode] = []
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(try unpack(&reader, depth: depth + 1)) }
            value = .array(elements)
        case 7:
            let count = try reader.int()
            guard count <= (reader.end - reader.position) / 6 else { throw PackedReader.Damaged() }
            var members: [DocumentMember] = []
            members.reserveCapacity(count)
            for _ in 0..<count {
                let key = try reader.string()
                let keyLine = try reader.int()
                let keyColumn = try reader.int()
                let member = try unpack(&reader, depth: depth + 1)
                members.append(DocumentMember(key: key, line: keyLine, column: keyColumn, value: member))
            }
            value = .object(members)
        default: throw PackedReader.Damaged()
        }
        return DocumentNode(value, line: line, column: column)
    }
}
