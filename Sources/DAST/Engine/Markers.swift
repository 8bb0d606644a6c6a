import Synchronization

/// Unique markers (`snt` + 8 letters and digits) and arithmetic probes (two random factors whose
/// product a response can only contain if the payload was evaluated). Deterministic for a seed,
/// so tests and benchmarks repeat.
public final class Markers: Sendable {
    private let state: Mutex<UInt64>

    /// Markers from `seed` (0 picks a random seed).
    public init(seed: UInt64) {
        state = Mutex(seed == 0 ? UInt64.random(in: 1...UInt64.max) : seed)
    }

    private func next() -> UInt64 {
        state.withLock { value in
            // xorshift64*: fast, and plenty for markers that only need to be unlikely in a page.
            value ^= value >> 12
            value ^= value << 25
            value ^= value >> 27
            return value &* 0x2545_F491_4F6C_DD1D
        }
    }

    /// `snt` followed by 8 lowercase letters and digits.
    public func marker() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var number = next()
        var text = "snt"
        for _ in 0..<8 {
            text.append(alphabet[Int(number % 36)])
            number /= 36
        }
        return text
    }

    /// Two factors in 10_000...99_999 and their product.
    public func product() -> (a: Int, b: Int, product: Int) {
        let a = 10_000 + Int(next() % 90_000)
        let b = 10_000 + Int(next() % 90_000)
        return (a, b, a * b)
    }
}
