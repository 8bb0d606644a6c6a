extension RandomAccessCollection {
    /// The index of the first element for which `belongsInSecondPartition` holds, found by binary
    /// search (`endIndex` when none does). The collection must already be partitioned by it:
    /// every element for which it is false comes before every element for which it is true.
    public func partitioningIndex(where belongsInSecondPartition: (Element) throws -> Bool) rethrows -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if try belongsInSecondPartition(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
