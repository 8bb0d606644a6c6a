import Support
import Testing

/// The binary search the indexes share: the first element of the second partition.
@Suite struct PartitioningIndexTests {
    @Test func findsTheFirstElementOfTheSecondPartition() {
        let starts = [1, 3, 3, 5, 8]
        #expect(starts.partitioningIndex { $0 > 3 } == 3)
        #expect(starts.partitioningIndex { $0 >= 3 } == 1)
        #expect(starts.partitioningIndex { $0 > 8 } == 5, "none: the end index")
        #expect(starts.partitioningIndex { $0 > 0 } == 0, "all")
        #expect([Int]().partitioningIndex { $0 > 0 } == 0)
        #expect(starts[1...].partitioningIndex { $0 > 3 } == 3, "a slice keeps its indices")
    }

    @Test func agreesWithALinearScanOnRandomInputs() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let values = (0..<Int.random(in: 0...40, using: &generator)).map { _ in Int.random(in: 0...20, using: &generator) }.sorted()
            let pivot = Int.random(in: -1...21, using: &generator)
            #expect(values.partitioningIndex { $0 >= pivot } == (values.firstIndex { $0 >= pivot } ?? values.endIndex))
        }
    }
}
