/// Where a syntax node lies in its file: shared by every language's parser (Python's, JavaScript's),
/// so that the analysis reads positions the same way whatever the language.

/// A point in a source file.
///
/// Lines and columns are 1-based; columns count UTF-8 bytes (as CPython's `col_offset` does), so they
/// are cheap to compute and stable for non-ASCII text. `offset` is the 0-based byte offset.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// 1-based column, in UTF-8 bytes.
    public var column: Int
    /// 0-based byte offset into the file.
    public var offset: Int

    /// Creates a location.
    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// Orders by byte offset.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool { lhs.offset < rhs.offset }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}

/// A half-open region `[start, end)` of a source file.
public struct SourceRange: Sendable, Hashable, CustomStringConvertible {
    /// First byte of the region.
    public var start: SourceLocation
    /// Location just past the last byte of the region.
    public var end: SourceLocation

    /// Creates a range.
    public init(start: SourceLocation, end: SourceLocation) {
        self.start = start
        self.end = end
    }

    /// Whether `location` falls inside this range (end-exclusive).
    public func contains(_ location: SourceLocation) -> Bool {
        start.offset <= location.offset && location.offset < end.offset
    }

    /// Whether a 1-based `line` falls inside this range.
    public func contains(line: Int) -> Bool { start.line <= line && line <= end.line }

    /// `line:column-line:column`.
    public var description: String { "\(start)-\(end)" }
}
