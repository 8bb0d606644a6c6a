import PythonSyntax

/// Source ranges, for listing fast those that enclose a range: a sink asks which matches of its
/// `pattern-inside` hold it, and a `return` which functions it is written in. Scanning every
/// range for every question made a file of N functions cost N² (issue 76 H13, issue 77).
///
/// Ranges of syntax nodes nest or are apart; so kept, the ranges around a point are one chain of
/// parents, walked from the last range starting at or before it. A set where two ranges overlap
/// without one holding the other (a statement sequence's matches may), or one is empty, is
/// answered by a scan, as before.
struct NestedRanges: Sendable {
    private let ranges: [SourceRange]
    /// Positions in `ranges`, by start ascending, then end descending (an outer range first).
    private let order: [Int]
    /// The start offset of each range in `order`.
    private let starts: [Int]
    /// For each range in `order`, the position in `order` of the nearest range holding it (-1: none).
    private let parents: [Int]
    /// Whether every two ranges nest or are apart, and none is empty.
    private let nests: Bool

    init(_ ranges: [SourceRange]) {
        self.ranges = ranges
        order = ranges.indices.sorted { a, b in
            let (x, y) = (ranges[a], ranges[b])
            return x.start.offset != y.start.offset ? x.start.offset < y.start.offset : x.end.offset > y.end.offset
        }
        starts = order.map { ranges[$0].start.offset }
        var parents = [Int](repeating: -1, count: order.count)
        var nests = true
        var open: [Int] = []
        for (position, index) in order.enumerated() {
            let range = ranges[index]
            if range.start.offset >= range.end.offset { nests = false }
            while let top = open.last, !PatternSearch.contains(ranges[order[top]], range) {
                // Overlapping past its start without holding it.
                if ranges[order[top]].end.offset > range.start.offset { nests = false }
                open.removeLast()
            }
            parents[position] = open.last ?? -1
            open.append(position)
        }
        self.parents = parents
        self.nests = nests
    }

    /// The positions (in the ranges given) of those that hold `range`, innermost first when the
    /// ranges nest.
    func enclosing(_ range: SourceRange) -> [Int] { enclosingCountingWork(range).positions }

    /// ``enclosing(_:)`` with the number of ranges it compared `range` with (for tests).
    func enclosingCountingWork(_ range: SourceRange) -> (positions: [Int], compared: Int) {
        guard nests, range.start.offset < range.end.offset else {
            return (ranges.indices.filter { PatternSearch.contains(ranges[$0], range) }, ranges.count)
        }
        var out: [Int] = []
        var compared = 0
        // The last range starting at or before `range`: those holding it are it and its parents.
        var position = starts.partitioningIndex { $0 > range.start.offset } - 1
        while position >= 0 {
            compared += 1
            if PatternSearch.contains(ranges[order[position]], range) { out.append(order[position]) }
            position = parents[position]
        }
        return (out, compared)
    }
}
