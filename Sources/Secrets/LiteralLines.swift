import SourcePositions

/// The lines of a file that hold any of a few byte strings (optionally ASCII case aside), in one
/// pass: each position's two bytes index a table of the literals starting with them, and a line
/// found is left at once for the next. Searching for each literal with `memchr` on its first
/// byte cost more than the per-line work it was to spare: the secret keywords start with `p`,
/// `s`, `a`, `t` and `c`, and the token prefixes with `g`, `s`, `r`, `n` and `p`, which code is
/// full of.
struct LiteralLines: Sendable {
    /// The literals, sorted, each at least two bytes (lowercase when case is ignored).
    private let literals: [[UInt8]]
    /// By a position's two bytes (`first << 8 | second`, lowered when case is ignored): 1 + the
    /// index of the first literal starting with them in ``literals``, or 0.
    private let firstByPair: [UInt16]
    /// Whether ASCII capitals match their lowercase letters.
    private let ignoresCase: Bool

    /// A finder of `literals` (two bytes or more; ASCII without capitals when `ignoringCase`).
    init(_ literals: [[UInt8]], ignoringCase: Bool) {
        precondition(literals.allSatisfy { $0.count >= 2 })
        precondition(!ignoringCase || literals.allSatisfy { $0.allSatisfy { $0 < 0x80 && !(65...90).contains($0) } })
        self.literals = literals.sorted { $0.lexicographicallyPrecedes($1) }
        ignoresCase = ignoringCase
        var table = [UInt16](repeating: 0, count: 1 << 16)
        for (index, literal) in self.literals.enumerated().reversed() {
            table[Int(literal[0]) << 8 | Int(literal[1])] = UInt16(index + 1)
        }
        firstByPair = table
    }

    /// `byte`, with ASCII capitals lowered when case is ignored.
    @inline(__always) private func folded(_ byte: UInt8) -> UInt8 {
        ignoresCase && byte &- 65 < 26 ? byte | 0x20 : byte
    }

    /// The 1-based numbers of the lines of `lines` holding a literal.
    func lines(of lines: LineIndex) -> Set<Int> {
        var found = Set<Int>()
        let starts = lines.lineStarts
        lines.bytes.withUnsafeBufferPointer { bytes in
            let count = bytes.count
            var line = 0  // The 0-based line holding `i`.
            var i = 0
            while i + 1 < count {
                let first = folded(bytes[i])
                let second = folded(bytes[i + 1])
                let entry = Int(firstByPair[Int(first) << 8 | Int(second)])
                guard entry != 0, matchesAt(i, from: entry - 1, first, second, in: bytes) else {
                    i += 1
                    continue
                }
                while line + 1 < starts.count, starts[line + 1] <= i { line += 1 }
                found.insert(line + 1)
                // The rest of this line cannot add it again.
                guard line + 1 < starts.count else { break }
                i = starts[line + 1]
            }
        }
        return found
    }

    /// Whether a literal starting with `first`, `second` (from index `candidate` on) occurs at `i`.
    private func matchesAt(
        _ i: Int, from candidate: Int, _ first: UInt8, _ second: UInt8, in bytes: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        var candidate = candidate
        while candidate < literals.count, literals[candidate][0] == first, literals[candidate][1] == second {
            let literal = literals[candidate]
            if i + literal.count <= bytes.count, (2..<literal.count).allSatisfy({ folded(bytes[i + $0]) == literal[$0] }) {
                return true
            }
            candidate += 1
        }
        return false
    }
}
