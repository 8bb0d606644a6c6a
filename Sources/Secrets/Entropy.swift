import Foundation

/// Shannon entropy in bits per byte: random keys score above ~3.5, words and placeholders lower.
func shannonEntropy(_ bytes: ArraySlice<UInt8>) -> Double {
    guard !bytes.isEmpty else { return 0 }
    var counts = [Int](repeating: 0, count: 256)
    for byte in bytes { counts[Int(byte)] += 1 }
    let total = Double(bytes.count)
    var entropy = 0.0
    for count in counts where count > 0 {
        let p = Double(count) / total
        entropy -= p * log2(p)
    }
    return entropy
}
