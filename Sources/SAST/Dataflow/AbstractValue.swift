/// What the analysis knows about one Python value: its taint, its constant value, and for
/// containers and objects the parts it holds, so that `a = [safe, tainted]; a[0]` is clean and
/// `d['k'] = tainted; d['other']` too.
struct AbstractValue: Sendable, Equatable {
    /// Taint of the value itself; for a container, of the parts not tracked one by one.
    var taint = Taint.clean
    /// The constant, when the value is one.
    var constant: PyConstant?
    /// A list or tuple whose length and order are known.
    var elements: [AbstractValue]?
    /// Dict entries under constant keys (`PyConstant.key`) and attributes (`.name`).
    var members: [String: AbstractValue] = [:]
    /// Produced by `realpath`/`abspath`/`normpath`/`resolve()`: a prefix check then confines it.
    var isNormalizedPath = false
    /// The class it is an instance of, when made by a constructor of a class the analysis knows.
    var typeName: String?

    static let clean = AbstractValue()
    /// Containers longer than this are tracked as a whole.
    static let maximumParts = 32

    init(taint: Taint = .clean) { self.taint = taint }

    init(constant: PyConstant) { self.constant = constant }

    init(elements: [AbstractValue]) {
        if elements.count <= Self.maximumParts {
            self.elements = elements
        } else {
            for element in elements { taint.formUnion(element.whole) }
        }
    }

    /// Everything the value holds: itself and all its parts.
    var whole: Taint {
        var out = taint
        if let elements { for element in elements { out.formUnion(element.whole) } }
        // By key: a dictionary's order changes from run to run, and a union keeps the first
        // origins and witnesses it meets.
        if members.count == 1, let only = members.first {
            out.formUnion(only.value.whole)
        } else {
            for key in members.keys.sorted() { out.formUnion(members[key]!.whole) }
        }
        return out
    }

    var isTainted: Bool { whole.isTainted }

    /// The element at a constant index of a list/tuple, or entry under a constant key of a dict.
    func part(at key: PyConstant) -> AbstractValue {
        if let elements, case .integer(let i) = key {
            let index = i < 0 ? elements.count + i : i
            return elements.indices.contains(index) ? elements[index] : AbstractValue(taint: taint)
        }
        if let member = members[key.key] { return member }
        return AbstractValue(taint: taint)
    }

    /// Writes `value` where ``part(at:)`` reads: the element at a constant index inside a
    /// list/tuple, else the entry under the key.
    mutating func setPart(at key: PyConstant, to value: AbstractValue) {
        if elements != nil, case .integer(let i) = key {
            let position = i < 0 ? elements!.count + i : i
            if elements!.indices.contains(position) {
                elements![position] = value
                return
            }
        }
        members[key.key] = value
    }

    /// `value.name`: a field written before, else the object's own taint.
    func attribute(_ name: String) -> AbstractValue {
        members["." + name] ?? AbstractValue(taint: taint)
    }

    /// Forgets the shape: one taint for the whole value.
    var collapsed: AbstractValue { AbstractValue(taint: whole) }

    /// The may-merge of two paths: tainted if tainted on either; a constant only if equal.
    func joined(with other: AbstractValue) -> AbstractValue {
        if self == other { return self }
        var out = AbstractValue(taint: taint.union(other.taint))
        out.constant = constant == other.constant ? constant : nil
        out.isNormalizedPath = isNormalizedPath && other.isNormalizedPath
        out.typeName = typeName == other.typeName ? typeName : nil
        if let a = elements, let b = other.elements, a.count == b.count {
            out.elements = zip(a, b).map { $0.joined(with: $1) }
        } else if elements != nil || other.elements != nil {
            out.taint.formUnion(AbstractValue(taint: .clean, elementsOf: self).whole)
            out.taint.formUnion(AbstractValue(taint: .clean, elementsOf: other).whole)
        }
        for key in Set(members.keys).union(other.members.keys) {
            let a = members[key] ?? AbstractValue(taint: taint)
            let b = other.members[key] ?? AbstractValue(taint: other.taint)
            out.members[key] = a.joined(with: b)
        }
        return out
    }

    private init(taint: Taint, elementsOf value: AbstractValue) {
        self.taint = taint
        self.elements = value.elements
    }

    /// Appends an element (a list's `append`), collapsing when the list grows too long.
    mutating func append(_ element: AbstractValue) {
        if elements != nil, elements!.count < Self.maximumParts {
            elements!.append(element)
        } else {
            self = collapsed
            taint.formUnion(element.whole)
        }
    }

    /// Adds `other`'s taint without any shape: the value may now hold it anywhere.
    mutating func absorb(_ other: Taint) {
        guard other.isTainted else { return }
        if elements != nil || !members.isEmpty { self = collapsed }
        taint.formUnion(other)
        constant = nil
    }
}
