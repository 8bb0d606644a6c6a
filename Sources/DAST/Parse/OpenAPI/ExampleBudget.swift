import Documents

/// How many bytes an OpenAPI document's examples may become once written out as requests: a
/// small document can name one large example (or a `$ref` chain to one) from every operation,
/// and each request holds its own serialised copy. Each request body and each parameter's
/// example has a bound of its own, and all of them together share one (hostile inputs round 4,
/// H17: a 1.7 MB `/openapi.json` took the DAST worker past its 1 GiB memory limit). An example
/// over a bound is left out of its request and the bound hit is a notice, never a crash.
struct ExampleBudget {
    /// The most bytes one request body's example may hold once serialised.
    static let maxBodyBytes = 64 << 10
    /// The most bytes one parameter's example may hold.
    static let maxParameterBytes = 4 << 10
    /// The most bytes every example of the document may hold together.
    static let maxDocumentBytes = 4 << 20

    /// The most bytes measured over the document, examples left out included: what measuring
    /// may cost, however many oversized examples a document names.
    static let maxMeasuredBytes = 64 << 20

    /// Bytes the document's examples may still take.
    private(set) var left = ExampleBudget.maxDocumentBytes
    /// Bytes that may still be measured.
    private var measurable = ExampleBudget.maxMeasuredBytes

    /// Whether `node`, written out, fits in `limit` bytes and in what the document has left.
    /// What an admitted example takes is charged to the document; what measuring took to the
    /// measuring budget, so that a document of many oversized examples costs no more than it.
    mutating func admit(_ node: DocumentNode, limit: Int) -> Admission {
        guard left > 0, measurable > 0 else { return .documentSpent }
        let bound = min(limit, left, measurable)
        guard let size = Self.size(of: node, upTo: bound) else {
            measurable -= bound
            return bound == limit ? .tooLarge : .documentSpent
        }
        measurable -= size
        left -= size
        return .admitted
    }

    /// What `admit` decided.
    enum Admission: Equatable {
        case admitted
        /// Over its own bound.
        case tooLarge
        /// Over what the whole document had left.
        case documentSpent
    }

    /// The bytes of `node` as compact JSON (strings counted without their escapes), or nil as
    /// soon as they pass `limit`: the walk stops there, so it costs at most `limit` steps however
    /// often a subtree is shared.
    static func size(of node: DocumentNode, upTo limit: Int) -> Int? {
        var total = 0
        var stack = [node]
        while let current = stack.popLast() {
            switch current.value {
            case .null: total += 4
            case .bool(let value): total += value ? 4 : 5
            case .integer(let value): total += String(value).utf8.count
            case .double: total += 24
            case .string(let text): total += text.utf8.count + 2
            case .array(let elements):
                total += 2 + max(0, elements.count - 1)
                guard total <= limit else { return nil }
                stack.append(contentsOf: elements.prefix(limit - total + 1))
            case .object(let members):
                total += 2 + max(0, members.count - 1)
                for member in members {
                    total += member.key.utf8.count + 3
                    guard total <= limit else { return nil }
                    stack.append(member.value)
                }
            }
            guard total <= limit else { return nil }
        }
        return total
    }
}
