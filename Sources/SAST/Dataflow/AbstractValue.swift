/// What the analysis knows about one Python value: its taint, its constant value, and for
/// containers and objects the parts it holds, so that `a = [safe, tainted]; a[0]` is clean and
/// `d['k'] = tainted; d['other']` too.
struct AbstractValue: Sendable, Equatable {
    /// The fields, behind one reference: the analysis copies values all the time (state maps at
    /// every branch and join, arguments, summaries), and a copy is then one retain, not one per
    /// field. Written only when not shared (copy on write).
    private var storage: Storage

    /// Taint of the value itself; for a container, of the parts not tracked one by one.
    var taint: Taint {
        get { storage.taint }
        _modify {
            makeUnique()
            yield &storage.taint
        }
    }
    /// The constant, when the value is one.
    var constant: PyConstant? {
        get { storage.constant }
        _modify {
            makeUnique()
            yield &storage.constant
        }
    }
    /// A list or tuple whose length and order are known.
    var elements: [AbstractValue]? {
        get { storage.elements }
        _modify {
            makeUnique()
            yield &storage.elements
        }
    }
    /// Dict entries under constant keys (`PyConstant.key`) and attributes (`.name`).
    var members: [String: AbstractValue] {
        get { storage.members }
        _modify {
            makeUnique()
            yield &storage.members
        }
    }
    /// Produced by `realpath`/`abspath`/`normpath`/`resolve()`: a prefix check then confines it.
    var isNormalizedPath: Bool {
        get { storage.isNormalizedPath }
        _modify {
            makeUnique()
            yield &storage.isNormalizedPath
        }
    }
    /// The class it is an instance of, when made by a constructor of a class the analysis knows.
    var typeName: String? {
        get { storage.typeName }
        _modify {
            makeUnique()
            yield &storage.typeName
        }
    }

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
    }

    /// Two values are equal when their fields are; the same storage is equal without a look.
    static func == (a: AbstractValue, b: AbstractValue) -> Bool {
        a.storage === b.storage || a.storage.sameFields(as: b.storage)
    }

    static let clean = AbstractValue()
    /// Containers longer than this are tracked as a whole.
    static let maximumParts = 32

    init(taint: Taint = .clean) {
        storage = taint.isTainted ? Storage(taint: taint) : Storage.clean
    }

    init(constant: PyConstant) {
        storage = Storage(taint: .clean)
        storage.constant = constant
    }

    init(elements: [AbstractValue]) {
        storage = Storage(taint: .clean)
        if elements.count <= Self.maximumParts {
            self.elements = elements
        } else {
            for element in elements { taint.formUnion(element.whole) }
        }
    }

    /// Everything the value holds: itself and all its parts.
    var whole: Taint {
        // Most values have no parts: their taint, without a union.
        if storage.elements == nil, storage.members.isEmpty { return storage.taint }
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
        storage = Storage(taint: taint)
        storage.elements = value.elements
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

extension AbstractValue {
    /// ``AbstractValue``'s fields. `@unchecked Sendable`: a storage is written only while one
    /// value holds it (``AbstractValue/makeUnique()``), and shared values are only read.
    /// The fields skip the run-time exclusivity check: every value reads them, and a storage is
    /// written only through ``AbstractValue/makeUnique()``'s single owner.
    fileprivate final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var taint: Taint
        @exclusivity(unchecked) var constant: PyConstant?
        @exclusivity(unchecked) var elements: [AbstractValue]?
        @exclusivity(unchecked) var members: [String: AbstractValue] = [:]
        @exclusivity(unchecked) var isNormalizedPath = false
        @exclusivity(unchecked) var typeName: String?

        /// The storage of every clean value made without parts (never written: it is shared).
        static let clean = Storage(taint: .clean)

        init(taint: Taint) { self.taint = taint }

        init(copying other: Storage) {
            taint = other.taint
            constant = other.constant
            elements = other.elements
            members = other.members
            isNormalizedPath = other.isNormalizedPath
            typeName = other.typeName
        }

        func sameFields(as other: Storage) -> Bool {
            taint == other.taint && constant == other.constant && elements == other.elements && members == other.members
                && isNormalizedPath == other.isNormalizedPath && typeName == other.typeName
        }
    }
}
