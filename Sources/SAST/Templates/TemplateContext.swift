/// What a template's context holds, as far as the project's code shows: the variables its
/// sources give it (the views' render calls, the templates that include, extend or import it)
/// and whether each is markup the application built safely.
///
/// A join of sources: a source not giving a variable leaves it undefined there, it does not make
/// it unsafe; a source of unknown content (`**options`, a referrer whose own context is unknown)
/// may give any variable it does not name.
public struct TemplateContext: Sendable, Equatable {
    /// Each variable some source gives, and whether every source giving it gives safe markup.
    public private(set) var variables: [String: Bool] = [:]
    /// With a source of unknown content: the variables every such source names as safe markup
    /// (any other may be among what it does not show); nil without one.
    private var namedByUnknown: Set<String>?

    /// A context no source gives anything (a template no view renders and none references).
    public init() {}

    /// The join of what the render calls `calls` pass.
    public init(calls: [RenderedContext]) {
        for call in calls {
            var context = TemplateContext()
            context.variables = call.variables
            if call.passesUnknown { context.namedByUnknown = Set(call.variables.filter(\.value).keys) }
            join(context)
        }
    }

    /// A source of unknown content naming nothing: any variable may hold anything.
    public static let unknown: TemplateContext = {
        var context = TemplateContext()
        context.namedByUnknown = []
        return context
    }()

    /// Whether some source gives what the code does not show.
    public var isUnknown: Bool { namedByUnknown != nil }

    /// The variables the sources give; nil when unknown (any variable may be given).
    public var passed: Set<String>? { isUnknown ? nil : Set(variables.keys) }

    /// The variables known to hold safe markup: some source gives it, every source giving it gives
    /// safe markup, and every source of unknown content names it.
    public var safe: Set<String> { Set(variables.keys.filter(isSafe)) }

    /// Whether `name` holds safe markup (as ``safe`` says).
    public func isSafe(_ name: String) -> Bool {
        variables[name] == true && (namedByUnknown?.contains(name) ?? true)
    }

    /// Adds what the source `other` gives.
    public mutating func join(_ other: TemplateContext) {
        for (name, safe) in other.variables { variables[name] = (variables[name] ?? true) && safe }
        if let named = other.namedByUnknown { namedByUnknown = namedByUnknown.map { $0.intersection(named) } ?? named }
    }

    /// `name` holds a value whatever the sources give it (a binding shadows them): safe markup or not.
    mutating func bind(_ name: String, safe: Bool) {
        variables[name] = safe
        if safe { namedByUnknown?.insert(name) } else { namedByUnknown?.remove(name) }
    }

    /// `name` is no longer given by the sources (a binding to what they do not give shadows them).
    mutating func unbind(_ name: String) {
        variables[name] = nil
        namedByUnknown?.remove(name)
    }
}
