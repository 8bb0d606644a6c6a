/// Overlap checks between byte ranges in O(n log n), so a line holding thousands of secrets
/// costs what thousands of lines holding one do.
public enum ByteRanges {
    /// `ranges` sorted by start, without any range overlapping one kept before it (of two
    /// starting together, the longer is kept).
    public static func disjoint(_ ranges: [Range<Int>]) -> [Range<Int>] {
        let sorted = ranges.sorted {
            $0.lowerBound != $1.lowerBound ? $0.lowerBound < $1.lowerBound : $0.upperBound > $1.upperBound
        }
        var kept: [Range<Int>] = []
        for range in sorted where kept.last.map({ $0.upperBound <= range.lowerBound }) ?? true {
            kept.append(range)
        }
        return kept
    }

    /// The members of `candidates` that overlap no range of `taken`, in their order.
    public static func sparing(_ candidates: [Range<Int>], _ taken: [Range<Int>]) -> [Range<Int>] {
        guard !taken.isEmpty else { return candidates }
        let sorted = taken.sorted { $0.lowerBound < $1.lowerBound }
        // reach[k]: the furthest end among the first k + 1 taken ranges.
        var reach: [Int] = []
        reach.reserveCapacity(sorted.count)
        for range in sorted { reach.append(max(reach.last ?? range.upperBound, range.upperBound)) }
        return candidates.filter { candidate in
            // How many taken ranges start before the candidate ends.
            let low = sorted.partitioningIndex { $0.lowerBound >= candidate.upperBound }
            return low == 0 || reach[low - 1] <= candidate.lowerBound
        }
    }
}
