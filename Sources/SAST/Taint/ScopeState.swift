/// The variables of the scope being analysed on one path: each name's value, by a slot the
/// analysis gives the name when it is first bound. Every `if`, loop and `try` copies the state and
/// joins the copies: slots make the join a walk over two arrays (no name hashed), and a copy one
/// retain until a path writes.
struct ScopeState {
    /// The slot of each name, shared by every copy of the state of one analysis (the paths of one
    /// function): a name keeps its slot on all of them.
    private var slots: ScopeSlots
    /// By slot; nil (or past the end): the name is not bound on this path.
    private var values: [AbstractValue?] = []
    /// Whether the path runs where the caller proved it holds a secret (`if not
    /// hmac.compare_digest(token, SECRET): return`, or a helper doing that): request data read
    /// there comes from a trusted principal, so it counts as a local source.
    var isAuthenticated = false

    /// A state with no name bound, numbering names afresh.
    init() { slots = ScopeSlots() }

    /// Unbinds every name and numbers names afresh, keeping the tables' memory when nothing else
    /// holds them: one state serves the analyses of a whole file.
    mutating func removeAll() {
        if isKnownUniquelyReferenced(&slots) {
            slots.removeAll()
        } else {
            slots = ScopeSlots()
        }
        values.removeAll(keepingCapacity: true)
        isAuthenticated = false
    }

    /// The value bound to `name` on this path.
    subscript(name: String) -> AbstractValue? {
        get {
            guard let slot = slots.slot(of: name), slot < values.count else { return nil }
            return values[slot]
        }
        set {
            guard let newValue else {
                if let slot = slots.slot(of: name), slot < values.count { values[slot] = nil }
                return
            }
            let slot = slots.slot(for: name)
            if slot >= values.count { values.append(contentsOf: repeatElement(nil, count: slot + 1 - values.count)) }
            values[slot] = newValue
        }
    }

    /// The may-merge of two paths: a name bound on one path keeps that value, one bound on both
    /// gets the join of the two; authenticated only if on both.
    static func join(_ a: ScopeState, _ b: ScopeState) -> ScopeState {
        var out = a
        out.isAuthenticated = a.isAuthenticated && b.isAuthenticated
        if b.values.count > a.values.count {
            out.values.append(contentsOf: repeatElement(nil, count: b.values.count - a.values.count))
        }
        for slot in b.values.indices {
            guard let value = b.values[slot] else { continue }
            if slot < a.values.count, let existing = a.values[slot] {
                // Most names hold the same value on both paths (one storage: compared without a look).
                if existing != value { out.values[slot] = existing.joined(with: value) }
            } else {
                out.values[slot] = value
            }
        }
        return out
    }
}

/// The numbering of a scope's names (see ``ScopeState``), shared by reference between the copies
/// of one analysis's state. An open-addressing table with a cheap hash of the name's bytes: it is
/// asked at every name the analysis meets, and the names of one function are few and short.
private final class ScopeSlots {
    /// Names by bucket (nil: free); a power of two long, at most half full.
    @exclusivity(unchecked) private var names: [String?] = Array(repeating: nil, count: 16)
    /// The slot of the name in each bucket.
    @exclusivity(unchecked) private var slots: [Int] = Array(repeating: 0, count: 16)
    /// How many names have a slot (the next slot given).
    @exclusivity(unchecked) private(set) var count = 0

    /// The slot of `name`, if it has one.
    func slot(of name: String) -> Int? {
        let mask = names.count - 1
        var bucket = Self.hash(name) & mask
        while let known = names[bucket] {
            if known == name { return slots[bucket] }
            bucket = (bucket + 1) & mask
        }
        return nil
    }

    /// The slot of `name`, given the next free one when it has none.
    func slot(for name: String) -> Int {
        let mask = names.count - 1
        var bucket = Self.hash(name) & mask
        while let known = names[bucket] {
            if known == name { return slots[bucket] }
            bucket = (bucket + 1) & mask
        }
        names[bucket] = name
        slots[bucket] = count
        count += 1
        if count * 2 > names.count { grow() }
        return count - 1
    }

    /// Forgets every name, keeping the table's size.
    func removeAll() {
        for bucket in names.indices { names[bucket] = nil }
        count = 0
    }

    private func grow() {
        let old = zip(names, slots)
        names = Array(repeating: nil, count: names.count * 2)
        slots = Array(repeating: 0, count: names.count)
        let mask = names.count - 1
        for case (let name?, let slot) in old {
            var bucket = Self.hash(name) & mask
            while names[bucket] != nil { bucket = (bucket + 1) & mask }
            names[bucket] = name
            slots[bucket] = slot
        }
    }

    /// FNV-1a over the UTF-8 bytes, folded: identifiers are short, and a seeded hasher costs more
    /// than the lookup it serves.
    private static func hash(_ name: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}
