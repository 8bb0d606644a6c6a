import Support
import Testing

@testable import SCA

/// Parsers must return or throw `SentinelError` on any input: never trap, never hang.
@Suite struct LockfileFuzzTests {
    /// SplitMix64: a seeded generator so a failure replays exactly.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Bytes that steer parsers into their structural paths more often than uniform noise.
    static let alphabet = Array("{}[]\"',:=#\\ \n\r\t-@/()._ab1v\u{FEFF}é".utf8) + [0, 0xFF, 0xC3]

    static func survives(_ parser: any LockfileParser, _ bytes: [UInt8], _ label: String) {
        do {
            _ = try parser.parse(bytes, file: "fuzz")
        } catch let error as SentinelError {
            #expect(error.code == .invalidInput, "\(label): \(error)")
            #expect(error.message.hasPrefix("fuzz:"), "\(label): \(error.message)")
        } catch {
            Issue.record("\(label): threw a non-Sentinel error \(error)")
        }
    }

    @Test(arguments: allFixtures.indices)
    func truncationsAndMutations(index: Int) throws {
        let (path, parser) = allFixtures[index]
        let bytes = try fixture(path)
        var rng = SeededGenerator(state: UInt64(index) &* 7919 &+ 1)
        for _ in 0..<40 {
            let cut = Int.random(in: 0...bytes.count, using: &rng)
            Self.survives(parser, Array(bytes[..<cut]), "\(path) cut at \(cut)")
        }
        for _ in 0..<40 {
            var mutated = bytes
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                let at = Int.random(in: 0..<mutated.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: mutated[at] = Self.alphabet.randomElement(using: &rng) ?? 0
                case 1: mutated.remove(at: at)
                default: mutated.insert(Self.alphabet.randomElement(using: &rng) ?? 0, at: at)
                }
            }
            Self.survives(parser, mutated, "\(path) mutated")
        }
    }

    @Test func randomBytes() {
        var rng = SeededGenerator(state: 42)
        let parsers = allFixtures.map(\.1)
        for round in 0..<60 {
            let count = Int.random(in: 0..<400, using: &rng)
            let bytes = (0..<count).map { _ in
                Bool.random(using: &rng)
                    ? UInt8.random(in: 0...255, using: &rng) : (Self.alphabet.randomElement(using: &rng) ?? 0)
            }
            for parser in parsers { Self.survives(parser, bytes, "round \(round) \(type(of: parser).format)") }
        }
    }
}
