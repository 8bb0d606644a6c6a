import Digest
import Foundation
import Testing

@testable import Support

@Suite struct SHA256Tests {
    /// FIPS 180-4 / NIST CAVP example messages.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func nistVectors(message: String, digest: String) {
        #expect(SHA256.hex(message) == digest)
        #expect(SHA256.hex(Array(message.utf8)) == digest)
    }

    @Test func oneMillionA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hex(message) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Chunk boundaries must not matter: feed the same bytes in pieces of every awkward size.
    @Test(arguments: [1, 3, 55, 56, 63, 64, 65, 127, 1000])
    func incrementalMatchesOneShot(chunk: Int) {
        let message = (0..<3001).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var hasher = SHA256()
        var start = 0
        while start < message.count {
            let end = min(start + chunk, message.count)
            hasher.update(message[start..<end])
            start = end
        }
        #expect(hasher.finalize() == SHA256.hash(message))
    }

    @Test func digestIs32Bytes() {
        #expect(SHA256.hash([1, 2, 3]).count == 32)
        #expect(SHA256.hexString([0x00, 0x0f, 0xab]) == "000fab")
    }

    /// A non-contiguous sequence takes the copying path and must agree.
    @Test func nonContiguousSequence() {
        var hasher = SHA256()
        hasher.update((0..<200).lazy.map { UInt8($0) })
        #expect(hasher.finalize() == SHA256.hash((0..<200).map { UInt8($0) }))
    }

    /// A hasher is a value: a copy taken mid-message goes on by itself (libcrypto's context is
    /// copied on write), and finalizing one leaves the other untouched.
    @Test func copiesAreIndependent() {
        var original = SHA256()
        original.update("abc")
        var copy = original
        copy.update("def")
        #expect(SHA256.hexString(original.finalize()) == SHA256.hex("abc"))
        #expect(SHA256.hexString(copy.finalize()) == SHA256.hex("abcdef"))
    }

    /// Large input, fed in odd-sized chunks, agrees with the one-shot digest and with a fixed value.
    @Test func largeInputIncrementalMatchesOneShot() {
        let message = (0..<(5 << 20) + 3).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
        var hasher = SHA256()
        var start = 0
        while start < message.count {
            let end = min(start + 65_537, message.count)
            message[start..<end].withUnsafeBytes { hasher.update($0) }
            start = end
        }
        let digest = hasher.finalize()
        #expect(digest == SHA256.hash(message))
        #expect(digest == SHA256.hash(message.lazy.map { $0 }), "non-contiguous path")
    }

    /// Hashing from many tasks at once: each hasher owns its context.
    @Test func concurrentHashing() async {
        let digests = await withTaskGroup(of: String.self) { group in
            for _ in 0..<16 { group.addTask { SHA256.hex("abc") } }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(digests) == ["ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"])
    }

    static let sha256sum = "/usr/bin/sha256sum"

    /// Lengths around the padding edge (55/56/64 bytes) and a large buffer, compared with coreutils.
    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: sha256sum), "needs coreutils sha256sum"),
        arguments: [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 4096, 1_048_583])
    func matchesSha256sum(length: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let path = NSTemporaryDirectory() + "sha256-\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.sha256sum)
        process.arguments = [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let expected = String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init)
        #expect(process.terminationStatus == 0)
        #expect(SHA256.hex(bytes) == expected)
    }

    /// An 8 MiB buffer (one call, as fingerprints and the audit chain hash whole files). Its speed
    /// is measured by `bench/speed-bounds.sh` against sha256sum (`SENTINEL_BENCH=1` prints a
    /// `BENCH` line), never asserted here.
    @Test func eightMebibytesInOneCall() {
        let bytes = [UInt8](repeating: 0x5a, count: 8 << 20)
        var digest = ""
        let elapsed = ContinuousClock().measure { digest = SHA256.hex(bytes) }
        #expect(digest == "7014ae0f2fc0fee42a440b97859207efb72ffee09d4864f7433f1bf756a17aca")
        if ProcessInfo.processInfo.environment["SENTINEL_BENCH"] == "1" {
            let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            print("BENCH sha256 bytes=\(bytes.count) wall_ms=\(String(format: "%.1f", ms))")
        }
    }
}
