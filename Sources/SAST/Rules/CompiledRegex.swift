import Foundation
import Synchronization

/// An ICU expression compiled when it is made, or at its first use when its rule file was
/// compiled in full before: a file the shipped rules' ``RuleIndex`` describes (`rules index`
/// compiles every expression of every file it lists, and a file whose bytes differ is not
/// described). Compiling was a tenth of loading a small scan's rules (`uregex_open`, 4 % of its
/// CPU, issue 77), and most expressions are never run: they sit behind a pattern the tree does
/// not hold. Its ``literals`` are read at their first use for the same reason (another 4 %).
final class CompiledRegex: Sendable {
    /// The expression in ICU's spelling.
    let pattern: String
    // Both read lock-free once set: they are asked on every candidate match. Threads that meet a
    // checked expression first may each compile it; one result is kept, the same expression.
    private let compiled = AtomicLazyReference<NSRegularExpression>()
    private let readLiterals = AtomicLazyReference<Literals>()
    private let splitAlternatives = AtomicLazyReference<Alternatives>()

    private final class Literals: Sendable {
        let value: RegexLiterals
        init(_ value: RegexLiterals) { self.value = value }
    }

    private final class Alternatives: Sendable {
        let value: [CompiledRegex]
        init(_ value: [CompiledRegex]) { self.value = value }
    }

    /// Compiles `pattern` now (throwing when it is invalid), or only when first used if `checked`.
    /// `literals`: its ``literals`` as read before (the ``RulePack`` keeps them).
    init(pattern: String, checked: Bool, literals: RegexLiterals? = nil) throws {
        self.pattern = pattern
        if !checked { _ = compiled.storeIfNil(try NSRegularExpression(pattern: pattern)) }
        if let literals { _ = readLiterals.storeIfNil(Literals(literals)) }
    }

    /// The compiled expression; nil only for a checked expression that no longer compiles, which
    /// then matches nothing.
    var regex: NSRegularExpression? {
        if let regex = compiled.load() { return regex }
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
        return compiled.storeIfNil(regex)
    }

    /// The literal text every match contains (``RegexLiterals``), read once.
    var literals: RegexLiterals {
        if let read = readLiterals.load() { return read.value }
        return readLiterals.storeIfNil(Literals(RegexLiterals(pattern: pattern))).value
    }

    /// The top-level alternatives as expressions of their own (``RegexBranches``); none when the
    /// expression does not split, an alternative does not compile alone, or one has no literal
    /// requirement: it would be run on every text anyway, and it may match the empty string,
    /// which ICU does not always find at a text's end inside a larger expression.
    private var alternatives: [CompiledRegex] {
        if let split = splitAlternatives.load() { return split.value }
        let parts = RegexBranches.split(pattern).flatMap { parts in
            try? parts.map { try CompiledRegex(pattern: $0, checked: false) }
        }
        let usable = parts.flatMap { $0.allSatisfy { !$0.literals.required.isEmpty } ? $0 : nil } ?? []
        return splitAlternatives.storeIfNil(Alternatives(usable)).value
    }

    /// Whether ``occurs(in:)`` searches the alternatives one at a time.
    var searchesAlternatives: Bool { !alternatives.isEmpty }

    /// Whether `text` holds a match. Where the text has what every match needs, the expression's
    /// alternatives are searched one at a time, each only where the text has what its own
    /// matches need.
    func occurs(in text: String) -> Bool {
        guard literals.mayMatch(text) else { return false }
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        let alternatives = self.alternatives
        if alternatives.isEmpty { return regex?.firstMatch(in: text, range: range) != nil }
        return alternatives.contains { $0.literals.mayMatch(text) && $0.regex?.firstMatch(in: text, range: range) != nil }
    }
}
