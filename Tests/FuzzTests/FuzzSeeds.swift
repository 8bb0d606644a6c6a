import Foundation

/// Seeds from the repository's own fixtures (found from this file, so tests run from any
/// directory), plus the hand-written ones each suite adds.
enum FuzzSeeds {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// Every regular file under `Tests/relative` whose name passes `keep`, sorted, at most `limit`.
    static func files(_ relative: String, limit: Int = 64, keep: (String) -> Bool = { _ in true }) -> [[UInt8]] {
        let root = testsDirectory.appendingPathComponent(relative)
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        var paths: [URL] = []
        for case let url as URL in walker where keep(url.lastPathComponent) {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { paths.append(url) }
        }
        return paths.sorted { $0.path < $1.path }.prefix(limit).compactMap { try? [UInt8](Data(contentsOf: $0)) }
    }
}

/// Runs `iterations` mutants of `seeds` (the seeds themselves first) through `body`, which
/// returns a problem description for an input that broke the reader's contract, nil otherwise.
/// Returns the first few problems with the input that caused each (escaped, for replay).
func fuzz(
    seeds: [[UInt8]], dictionary: [String], seed: UInt64, iterations: Int, _ body: ([UInt8]) -> String?
) -> [String] {
    var mutator = Mutator(seed: seed, dictionary: dictionary)
    var problems: [String] = []
    for index in 0..<(seeds.count + iterations) {
        let input = index < seeds.count ? seeds[index] : mutator.mutant(of: seeds)
        if let problem = body(input), problems.count < 5 {
            problems.append("\(problem) on input #\(index): \(String(decoding: input, as: UTF8.self).debugDescription)")
        }
    }
    return problems
}

/// nil when `body` returns or throws an error `typed` accepts; the error otherwise.
func contractBroken(typed: (any Error) -> Bool, _ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let error where typed(error) {
        return nil
    } catch {
        return "untyped error \(error)"
    }
}
