import TestSupport

/// A seeded, deterministic mutator in the manner of libFuzzer's: each input is a seed changed
/// by a few byte flips, dictionary insertions, deletions, repeated chunks (nesting and long
/// runs), truncations and splices with another seed. The same seed gives the same inputs on
/// every run, so a failure names an input that can be replayed.
struct Mutator {
    /// Inputs are kept small so the suite stays cheap; bench/fuzz.sh goes further.
    static let maxLength = 4096
    /// Bytes readers treat specially: NUL, line separators, invalid UTF-8, a BOM.
    static let interesting: [[UInt8]] = [
        [0], [0xFF], [0x80], [0xC3], [0x0D], [0x0A], [0x0B], [0x0C], [0xC2, 0x85], [0xE2, 0x80, 0xA8],
        [0xEF, 0xBB, 0xBF], [0xFF, 0xFE], [0x7F], [0x5C],
    ]

    var random: SeededRandom
    /// Tokens of the format under test (keywords, brackets, separators).
    let dictionary: [[UInt8]]

    init(seed: UInt64, dictionary: [String]) {
        random = SeededRandom(state: seed)
        self.dictionary = dictionary.map { Array($0.utf8) } + Self.interesting
    }

    /// One mutant of `seeds[index]`, possibly spliced with another seed.
    mutating func mutant(of seeds: [[UInt8]]) -> [UInt8] {
        var bytes = Array(seeds[Int.random(in: 0..<seeds.count, using: &random)].prefix(Self.maxLength))
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            mutate(&bytes, seeds: seeds)
        }
        return Array(bytes.prefix(Self.maxLength * 2))
    }

    private mutating func mutate(_ bytes: inout [UInt8], seeds: [[UInt8]]) {
        let at = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<8, using: &random) {
        case 0 where !bytes.isEmpty:
            bytes[at] = UInt8.random(in: 0...255, using: &random)
        case 1 where !bytes.isEmpty:
            bytes[at] ^= 1 << UInt8.random(in: 0..<8, using: &random)
        case 2:
            bytes.insert(contentsOf: token(), at: at)
        case 3 where !bytes.isEmpty:
            bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...16, using: &random)))
        case 4 where !bytes.isEmpty:
            // A chunk repeated: deep nesting, long runs, many entries.
            let chunk = Array(bytes[at..<min(bytes.count, at + Int.random(in: 1...8, using: &random))])
            let times = Int.random(in: 2...200, using: &random)
            bytes.insert(contentsOf: Array([[UInt8]](repeating: chunk, count: times).joined()), at: at)
        case 5:
            bytes = Array(bytes.prefix(at))
        case 6:
            let other = seeds[Int.random(in: 0..<seeds.count, using: &random)]
            let from = other.isEmpty ? 0 : Int.random(in: 0..<other.count, using: &random)
            bytes = Array(bytes.prefix(at)) + other[from...].prefix(Self.maxLength)
        default:
            bytes.insert(contentsOf: Self.interesting[Int.random(in: 0..<Self.interesting.count, using: &random)], at: at)
        }
    }

    private mutating func token() -> [UInt8] {
        dictionary[Int.random(in: 0..<dictionary.count, using: &random)]
    }
}
