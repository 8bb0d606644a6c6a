import Findings
import PythonSyntax

/// One step of a flow, for the finding's code flow: where it happened and what happened there.
struct FlowHop: Sendable, Hashable {
    /// The file the step is in, relative to the scan root; nil for the file being analysed.
    var file: String?
    var range: SourceRange
    var note: String
}

/// Where a tainted value came from: a source expression, or (while summarising a helper) one of
/// the helper's parameters, or a field of its receiver.
struct TaintOrigin: Sendable {
    /// The source code of the source expression (`request.args`), or the parameter name.
    var label: String
    /// 1-based line of the source.
    var line: Int
    /// The parameter position when this stands for "whatever the caller passes".
    var parameter: Int?
    /// With `parameter`: the attribute of that argument (`self.cmd` read in a method).
    var field: String?
    /// A local source (environment, argv, stdin): a flow from it is at most medium, low confidence.
    var isLocal = false
    /// A parameter of a function a package exports (`kind: library`): its callers' data, at most
    /// medium severity and confidence.
    var isLibrary = false
    /// A source read from a socket a helper was passed (`def recv_all(s): return s.recv(n)`): the
    /// parameter, so that a caller passing a Unix-domain socket makes it local.
    var socketParameter: Int?
    /// Where the value went between the source and here, oldest first (bounded).
    var hops: [FlowHop] = []
    /// Where in the request the source reads (the source's `in:`), for a proof.
    var requestPart: RequestPart?
    /// The request value's name, when the code names it: the key read off the source
    /// (`request.args.get("q")`, `req.query.q`), the source call's own (`get_argument("q")`), a
    /// handler's parameter.
    var requestName: String?

    /// Whether the value came back through a call (a helper's return, a summary's path): a key
    /// read off it then names nothing, the helper may have read one already.
    var crossedCall = false

    /// Whether the value is the source itself, not yet keyed, here or in a variable it was
    /// assigned to (`data = request.get_json()`, `const body = await request.json()`): a key read
    /// off it names the request's value.
    var awaitsRequestName: Bool { requestPart != nil && requestName == nil && !crossedCall && parameter == nil }

    static let maximumHops = 10

    /// Appends a step, keeping the first hop (next to the source) and the latest ones.
    mutating func append(_ hop: FlowHop) {
        if let last = hops.last, last.range == hop.range, last.file == hop.file { return }
        hops.append(hop)
        if hops.count > Self.maximumHops { hops.remove(at: 1) }
    }
}

extension TaintOrigin: Hashable {
    // The path taken is a witness, not part of the origin's identity.
    static func == (a: TaintOrigin, b: TaintOrigin) -> Bool {
        a.label == b.label && a.line == b.line && a.parameter == b.parameter && a.field == b.field && a.isLocal == b.isLocal
            && a.isLibrary == b.isLibrary
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(label)
        hasher.combine(line)
        hasher.combine(parameter)
        hasher.combine(field)
    }
}

/// The origins a value may carry; empty means clean. Kept small: a few witnesses are enough to
/// explain a finding.
struct Taint: Sendable, Equatable {
    private(set) var origins: [TaintOrigin] = []
    static let clean = Taint()
    static let maximumOrigins = 4

    init() {}
    init(_ origin: TaintOrigin) { origins = [origin] }

    var isTainted: Bool { !origins.isEmpty }
    /// Origins from real sources (not parameters).
    var sources: [TaintOrigin] { origins.filter { $0.parameter == nil } }
    var parameters: Set<Int> { Set(origins.compactMap(\.parameter)) }

    mutating func formUnion(_ other: Taint) {
        for origin in other.origins where !origins.contains(origin) {
            // A remote source outranks local ones when the list is full: it decides severity.
            if origins.count < Self.maximumOrigins {
                origins.append(origin)
            } else if !origin.isLocal, origin.parameter == nil, let local = origins.firstIndex(where: \.isLocal) {
                origins[local] = origin
            }
        }
    }

    func union(_ other: Taint) -> Taint {
        var copy = self
        copy.formUnion(other)
        return copy
    }

    /// Whether an origin is a request's source not yet keyed (``TaintOrigin/awaitsRequestName``).
    var awaitsRequestName: Bool { origins.contains(where: \.awaitsRequestName) }

    /// The same origins, those awaiting one named `name`: a key was read off the source.
    func namingRequest(_ name: String) -> Taint {
        var copy = self
        for i in copy.origins.indices where copy.origins[i].awaitsRequestName { copy.origins[i].requestName = name }
        return copy
    }

    /// The same origins with `hop` appended to each path.
    /// `assignment`: the hop only binds the value to a name (it is still what it was).
    func through(_ hop: FlowHop, assignment: Bool = false) -> Taint {
        var copy = self
        for i in copy.origins.indices {
            copy.origins[i].append(hop)
            if !assignment { copy.origins[i].crossedCall = true }
        }
        return copy
    }
}

/// What a helper function does with its inputs, as far as one taint rule is concerned.
struct FunctionSummary: Sendable {
    /// Parameter names in order.
    var parameters: [String]
    /// Parameters (or fields of them) whose taint reaches the return value, with the path inside.
    var returns: [ParameterPath: [FlowHop]] = [:]
    /// A source read inside the helper and returned.
    var returnsSource: Taint = .clean
    /// Parameters that reach a sink inside the helper: the sink reached and the path to it.
    var sinks: [ParameterPath: SummarySink] = [:]
    /// `self.name = <parameter>` in the helper (a constructor): the field and the parameter.
    var fieldWrites: [String: Set<Int>] = [:]
    /// Whether the function is a method whose first parameter is the receiver.
    var isMethod = false
    /// Whether a sanitizer of the rule runs in it.
    var usesSanitizer = false
    /// Whether it compares a value with a secret in constant time (`hmac.compare_digest`): used
    /// as a condition, it authenticates the caller (see ``ScopeState/isAuthenticated``).
    var checksSecret = false
    /// Parameters its result vouches for: every `return` with a value returns a check of them (a
    /// rule's sanitizer used as a test, or another such validator), so a true result in a
    /// condition proves them clean -- a project's own `safe_for_redirect(url)` wrapping
    /// `url_has_allowed_host_and_scheme(url)` (issue 55).
    var validates: Set<Int> = []
    /// Parameters a sanitizer of the rule reads in it (`def parse(u): return urlparse(u)`): a test
    /// on what it answered tests them (``TaintAnalyzer/sanitizedParameters``).
    var sanitizes: Set<Int> = []

    /// Whether a `return` with a value runs in it.
    var hasReturnValue = false

    /// Whether callers in other modules learn anything from it beyond "arguments flow to the
    /// result" (what an unknown call is assumed to do): a sink, a source, fields, or a result that
    /// leaves out one of its parameters (a sanitising helper).
    var mattersToImporters: Bool {
        if !sinks.isEmpty || returnsSource.isTainted || !fieldWrites.isEmpty || usesSanitizer || checksSecret || !validates.isEmpty {
            return true
        }
        let first = isMethod ? 1 : 0
        guard hasReturnValue, parameters.count > first else { return false }
        let flowing = Set(returns.keys.map(\.parameter))
        return (first..<parameters.count).contains { !flowing.contains($0) }
    }

    /// Whether two summaries say the same (the fixpoint stops when nothing changes).
    func sameEffects(as other: FunctionSummary) -> Bool {
        Set(returns.keys) == Set(other.returns.keys) && Set(sinks.keys) == Set(other.sinks.keys)
            && returnsSource.origins.count == other.returnsSource.origins.count && fieldWrites == other.fieldWrites
            && validates == other.validates && sanitizes == other.sanitizes
    }
}

/// A parameter position and, for a receiver, the field read from it.
struct ParameterPath: Hashable, Sendable, Comparable {
    var parameter: Int
    var field: String?

    /// By parameter, then field (none first).
    static func < (a: ParameterPath, b: ParameterPath) -> Bool {
        (a.parameter, a.field ?? "") < (b.parameter, b.field ?? "") || (a.parameter == b.parameter && a.field == nil && b.field == "")
    }
}

/// A sink inside a helper reached from one of its parameters.
struct SummarySink: Sendable {
    var hit: TaintSinkHit
    var hops: [FlowHop]
}

/// A sink reached by a tainted value.
struct TaintSinkHit: Sendable {
    /// The file of the sink when it is not the file analysed (a helper in another module).
    var file: String?
    var range: SourceRange
    var label: String
    var bindings: Bindings
    /// The sink's `evidence:` did not hold: nothing shows the receiver is the library's.
    var lacksEvidence = false
    /// The code the sink's `focus` names (`$BODY` of `return $BODY`): what a `fix:` rewrites; nil
    /// without a focus (the fix rewrites the whole sink).
    var focusRange: SourceRange? = nil
}

/// One reported flow.
struct TaintFlow: Sendable {
    var sink: TaintSinkHit
    var origin: TaintOrigin
    /// The helper the flow passed through into the sink, if any.
    var via: String?
    /// Where the finding is reported: the sink, or the call into a helper of another file.
    var reportRange: SourceRange
}

extension FunctionSummary {
    /// Whether the two say exactly the same, the paths and witnesses included (``sameEffects(as:)``
    /// compares only what the fixpoint needs).
    func isIdentical(to other: FunctionSummary) -> Bool {
        parameters == other.parameters && returns == other.returns && fieldWrites == other.fieldWrites
            && isMethod == other.isMethod && usesSanitizer == other.usesSanitizer && checksSecret == other.checksSecret
            && validates == other.validates && sanitizes == other.sanitizes
            && hasReturnValue == other.hasReturnValue && returnsSource.origins.count == other.returnsSource.origins.count
            && zip(returnsSource.origins, other.returnsSource.origins).allSatisfy { $0.isIdentical(to: $1) }
            && sinks.count == other.sinks.count
            && sinks.allSatisfy { path, sink in other.sinks[path].map { sink.isIdentical(to: $0) } ?? false }
    }
}

extension TaintOrigin {
    /// Equal in every field, the path taken included (`==` leaves the path out).
    func isIdentical(to other: TaintOrigin) -> Bool {
        self == other && hops == other.hops && socketParameter == other.socketParameter
    }
}

extension SummarySink {
    /// The same sink (range, label, bindings) reached along the same path.
    func isIdentical(to other: SummarySink) -> Bool {
        hops == other.hops && hit.file == other.hit.file && hit.range == other.hit.range && hit.label == other.hit.label
            && hit.lacksEvidence == other.hit.lacksEvidence
            && hit.bindings.count == other.hit.bindings.count
            && hit.bindings.allSatisfy { name, binding in
                other.hit.bindings[name].map { $0.identifier == binding.identifier && $0.nodes == binding.nodes } ?? false
            }
    }
}
