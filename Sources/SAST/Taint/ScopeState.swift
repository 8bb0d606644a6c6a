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
            slots.slots.removeAll(keepingCapacity: true)
        } else {
            slots = ScopeSlots()
        }
        values.removeAll(keepingCapacity: true)
        isAuthenticated = false
    }

    /// The value bound to `name` on this path.
    subscript(name: String) -> AbstractValue? {
        get {
            guard let slot = slots.slots[name], slot < values.count else { return nil }
            return values[slot]
        }
        set {
            guard let newValue else {
                if let slot = slots.slots[name], slot < values.count { values[slot] = nil }
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
/// of one analysis's state.
private final class ScopeSlots {
    /// Read at every name the analysis meets: no run-time exclusivity check (one thread, and no
    /// access overlaps another).
    @exclusivity(unchecked) var slots: [String: Int] = [:]

    /// The slot of `name`, given the next free one when it has none (one lookup either way).
    func slot(for name: String) -> Int {
        let next = slots.count
        return Self.take(&slots[name], next)
    }

    private static func take(_ slot: inout Int?, _ next: Int) -> Int {
        if let slot { return slot }
        slot = next
        return next
    }
}
