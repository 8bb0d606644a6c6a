import PythonSyntax
/// Where a tainted value came from: a source expression, or (while summarising a helper) one of
/// the helper's parameters.
struct TaintOrigin: Hashable, Sendable {
    /// The source code of the source expression (`request.args`), or the parameter name.
    var label: String
    /// 1-based line of the source.
    var line: Int
    /// The parameter position when this stands for "whatever the caller passes".
    var parameter: Int?
}

/// The origins a value may carry; empty means clean. Kept small: one witness per origin is
/// enough to explain a finding.
struct Taint: Sendable, Equatable {
    private(set) var origins: [TaintOrigin] = []
    static let clean = Taint()

    init() {}
    init(_ origin: TaintOrigin) { origins = [origin] }

    var isTainted: Bool { !origins.isEmpty }
    /// Origins from real sources (not parameters).
    var sources: [TaintOrigin] { origins.filter { $0.parameter == nil } }
    var parameters: Set<Int> { Set(origins.compactMap(\.parameter)) }

    mutating func formUnion(_ other: Taint) {
        for origin in other.origins where origins.count < 4 && !origins.contains(origin) { origins.append(origin) }
    }

    func union(_ other: Taint) -> Taint {
        var copy = self
        copy.formUnion(other)
        return copy
    }
}

/// Variable name → what it may hold at one program point.
typealias TaintState = [String: Taint]

extension Dictionary where Key == String, Value == Taint {
    /// The may-merge of two branches: a variable is tainted if it is tainted on either.
    func mergedWith(_ other: TaintState) -> TaintState {
        merging(other) { $0.union($1) }
    }
}

/// What a helper function does with its inputs, as far as one taint rule is concerned.
struct FunctionSummary: Sendable {
    /// Parameter names in order.
    var parameters: [String]
    /// Parameters whose taint reaches the return value.
    var returnsParameters: Set<Int> = []
    /// A source read inside the helper and returned.
    var returnsSource: Taint = .clean
    /// Parameters that reach a sink inside the helper: position → the sink reached.
    var sinkParameters: [Int: TaintSinkHit] = [:]
}

/// A sink reached by a tainted value.
struct TaintSinkHit: Sendable {
    var range: SourceRange
    var label: String
    var bindings: Bindings
}

/// One reported flow.
struct TaintFlow: Sendable {
    var sink: TaintSinkHit
    var origin: TaintOrigin
    /// The helper the flow passed through into the sink, if any.
    var via: String?
}
