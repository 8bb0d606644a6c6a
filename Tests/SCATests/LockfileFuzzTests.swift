import Support
import TestSupport
import Testing

@testable import SCA

/// Parsers must return or throw `SentinelError` on any input: never trap, never hang.
@Suite struct LockfileFuzzTests {

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
        var rng = SeededRandom(state: UInt64(index) &* 7919 &+ 1)
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

    /// Nesting beyond any real lockfile: bounded readers refuse it instead of overflowing the stack.
    @Test func hostileNesting() {
        let flow = "lockfileVersion: '9.0'\npackages: " + String(repeating: "[", count: 200_000)
        Self.survives(PnpmLockParser(), Array(flow.utf8), "YAML flow nesting")
        var block = "lockfileVersion: '9.0'\npackages:\n"
        for depth in 0..<1000 { block += String(repeating: " ", count: depth + 1) + "k\(depth):\n" }
        Self.survives(PnpmLockParser(), Array(block.utf8), "YAML block nesting")
        let toml = "a = " + String(repeating: "[", count: 100_000)
        Self.survives(CargoLockParser(), Array(toml.utf8), "TOML array nesting")
        let inline = "a = " + String(repeating: "{b = ", count: 100_000)
        Self.survives(PoetryLockParser(), Array(inline.utf8), "TOML inline table nesting")
        let json = String(repeating: "{\"a\":", count: 100_000)
        Self.survives(PackageLockParser(), Array(json.utf8), "JSON nesting")
        let alias =
            "__metadata:\n  version: 6\n\"a@npm:1\":\n  version: 1.0.0\n  resolution: \""
            + String(repeating: "a@npm:", count: 100_000) + "1\"\n"
        Self.survives(YarnLockParser(), Array(alias.utf8), "yarn alias chain")
    }

    @Test func randomBytes() {
        var rng = SeededRandom(state: 42)
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
