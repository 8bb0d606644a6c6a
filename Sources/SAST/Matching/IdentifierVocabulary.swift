/// The identifiers the search rules' file checks name (``IdentifierRequirement``), numbered once
/// per engine. A file's identifiers become a bitset over them — one lookup each, most rejected by a
/// ``NameFilter`` without hashing — and each rule's check is then a few bit tests, not a set
/// lookup per identifier per rule (hundreds of rules run the check on every file).
struct IdentifierVocabulary: Sendable {
    private let numbers: [String: Int]
    private let filter: NameFilter

    /// Numbers the identifiers of `requirements`' alternatives.
    init(_ requirements: [IdentifierRequirement]) {
        var numbers: [String: Int] = [:]
        for alternatives in requirements.compactMap(\.alternatives) {
            for word in alternatives.joined() where numbers[word] == nil { numbers[word] = numbers.count }
        }
        self.numbers = numbers
        filter = NameFilter(numbers.keys)
    }

    /// Which numbered identifiers `identifiers` holds.
    func presence(in identifiers: Set<String>) -> IdentifierPresence {
        var presence = IdentifierPresence(count: numbers.count)
        for word in identifiers where filter.mayContain(word) {
            if let number = numbers[word] { presence.insert(number) }
        }
        return presence
    }

    /// `requirement` with its identifiers replaced by their numbers.
    func numbered(_ requirement: IdentifierRequirement) -> NumberedRequirement {
        NumberedRequirement(alternatives: requirement.alternatives?.map { $0.compactMap { numbers[$0] } })
    }
}

/// A set of identifier numbers of one ``IdentifierVocabulary``, as bits.
struct IdentifierPresence: Sendable {
    private var words: [UInt64]

    init(count: Int) { words = [UInt64](repeating: 0, count: (count + 63) / 64) }

    mutating func insert(_ number: Int) { words[number >> 6] |= 1 << UInt64(number & 63) }

    func contains(_ number: Int) -> Bool { words[number >> 6] & (1 << UInt64(number & 63)) != 0 }
}

/// An ``IdentifierRequirement`` over identifier numbers: satisfied when every number of one
/// alternative is present; no alternatives means "cannot tell; always run".
struct NumberedRequirement: Sendable {
    let alternatives: [[Int]]?

    func isSatisfied(by presence: IdentifierPresence) -> Bool {
        guard let alternatives else { return true }
        return alternatives.contains { $0.allSatisfy(presence.contains) }
    }
}
