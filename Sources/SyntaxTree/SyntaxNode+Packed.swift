import SourcePositions
import Support

extension SyntaxNode {
    /// The deepest nesting ``init(packed:)`` reads (a rule's pattern nests a few dozen levels).
    public static let maximumPackedDepth = 512

    /// Kinds by their position in ``SyntaxKind/allCases``: a pack names its writer's build, so
    /// the reader's kinds are the writer's.
    private static let kinds = SyntaxKind.allCases
    private static let kindNumbers = Dictionary(uniqueKeysWithValues: SyntaxKind.allCases.enumerated().map { ($1, $0) })

    /// Writes the tree with `writer` (``PackedWriter``): the compiled rule pack keeps each
    /// pattern's tree so that a scan need not parse and lower the pattern again.
    public func pack(into writer: inout PackedWriter) {
        writer.int(Self.kindNumbers[kind]!)
        writer.byte((text == nil ? 0 : 1) | (raw == nil ? 0 : 2))
        if let text { writer.string(text) }
        if let raw { writer.string(raw) }
        for location in [range.start, range.end] {
            writer.int(location.line)
            writer.int(location.column)
            writer.int(location.offset)
        }
        writer.int(children.count)
        for child in children { child.pack(into: &writer) }
    }

    /// Reads a tree ``pack(into:)`` wrote.
    /// - Throws: ``PackedReader/Damaged`` for bytes it did not write or nesting deeper than
    ///   ``maximumPackedDepth``.
    public init(packed reader: inout PackedReader) throws(PackedReader.Damaged) {
        self = try Self.unpack(&reader, depth: 0)
    }

    private static func unpack(_ reader: inout PackedReader, depth: Int) throws(PackedReader.Damaged) -> SyntaxNode {
        guard depth <= maximumPackedDepth else { throw PackedReader.Damaged() }
        let number = try reader.int()
        guard number < kinds.count else { throw PackedReader.Damaged() }
        let present = try reader.byte()
        guard present < 4 else { throw PackedReader.Damaged() }
        let text = present & 1 != 0 ? try reader.string() : nil
        let raw = present & 2 != 0 ? try reader.string() : nil
        let start = SourceLocation(line: try reader.int(), column: try reader.int(), offset: try reader.int())
        let end = SourceLocation(line: try reader.int(), column: try reader.int(), offset: try reader.int())
        let count = try reader.int()
        // Each child takes at least nine bytes: a count beyond what is left is damage.
        guard count <= (reader.end - reader.position) / 9 else { throw PackedReader.Damaged() }
        var children: [SyntaxNode] = []
        children.reserveCapacity(count)
        for _ in 0..<count { children.append(try unpack(&reader, depth: depth + 1)) }
        return SyntaxNode(
            kinds[number], text: text, children: children, range: SourceRange(start: start, end: end), raw: raw)
    }
}
