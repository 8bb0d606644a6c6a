/// One request handler of a scanned project and what its code shows (``RouteExtractor``): the
/// facts route rules (`mode: route`, `rules/README.md`) decide on.
public struct RouteHandler: Sendable, Hashable {
    /// The file, as findings carry it.
    public var file: String
    /// The function's name (`Class.method` for a method).
    public var name: String
    /// Handlers of one group are siblings: one app/blueprint/router object in a file, one class,
    /// or a file's function views.
    public var group: String
    /// The object whose hooks apply to the handler (`app` of `@app.route`); nil for other shapes.
    public var receiver: String?
    /// Where findings go: the first decorator's line and column, else the `def`'s.
    public var line: Int
    /// Column of ``line``'s position.
    public var column: Int
    /// The URL path when the code names it (`/notes/<int:id>`).
    public var path: String?
    /// For a URL configuration's entry (``RouteEntryKind/urlTarget``) that includes another
    /// (`path("polls/", include("polls.urls"))`): that module; its entries' paths start with
    /// this one's.
    public var included: String?
    /// For an entry that gives a Flask blueprint its URL prefix (`bp = Blueprint(...,
    /// url_prefix="/user")`, `app.register_blueprint(bp, url_prefix="/user")`): the blueprint,
    /// as the module that defines it and its name (`pkg.views.bp`), or as the importer resolves it.
    public var mounted: String?
    /// The request's values its code reads by name, `part:name` (`form:password`), sorted: a
    /// proof sends them with the one it tries (``RouteFacts``).
    public var requestParameters: [String] = []
    /// The HTTP methods it answers, when the code says (`methods=["GET", "POST"]`, `@app.post`,
    /// a view class's `get`); empty when unknown.
    public var methods: [String] = []
    /// The last line of the handler's function (``line`` to this is its code).
    public var endLine: Int = 0
    /// Whether its guards admit only administrators: a guard, dependency or base that names an
    /// administrator role (`@admin_required`, `Depends(require_role(["admin"]))`,
    /// `AdminController`, `IsAdminUser`, `@staff_member_required`, `is_superuser`).
    public var administratorsOnly = false
    /// For a hook: its receiver registers blueprints in the hook's file (`app.register_blueprint`),
    /// so it is the application and the hook runs before the handlers of every blueprint of the
    /// package it is written in (a Flask factory's global login check).
    public var coversPackage = false
    /// Resolved dotted names of what guards the handler: its decorators, its class's decorators,
    /// bases and `permission_classes`/`method_decorators`/`decorators`, FastAPI `Depends(...)`.
    public var guards: [String] = []
    /// What its body shows (``HandlerFacts``).
    public var facts = HandlerFacts()
    /// The source line at ``line``, for the finding.
    public var snippet: String?
    /// What the entry is: a handler, or what decides about others.
    public var kind = RouteEntryKind.handler
}

/// What a ``RouteHandler`` entry of a file stands for.
public enum RouteEntryKind: Sendable, Hashable {
    /// A request handler.
    case handler
    /// A hook that runs before every handler of its ``RouteHandler/receiver`` (Flask
    /// `before_request`), not a handler.
    case hook
    /// A Django function view by its shape only (first parameter `request`): a handler when some
    /// URL configuration of the project names it.
    case unroutedView
    /// A name a URL configuration routes to (`path("x/", views.show)`: `show`), not a handler.
    case urlTarget
    /// A function or class of the project, by its qualified name (`pkg.auth.role_required`,
    /// `pkg.views.PermissionMixin`): a guard when what it does rejects a caller
    /// (``ProjectGuards``), whatever it is called.
    case definition
}

/// What one handler's body does that bears on access control, as source text and names.
public struct HandlerFacts: Sendable, Hashable {
    /// Normalized source of every `if`/`elif`/`while`/`assert` test and conditional expression.
    public var conditions: [String] = []
    /// Normalized source of every comparison and every keyword argument of a call.
    public var comparisons: [String] = []
    /// Resolved dotted names of everything the body names or calls.
    public var names: Set<String> = []
    /// Whether it refuses with 401/403 (`abort(403)`, `return ..., 401`, `HTTPException(403)`,
    /// `PermissionDenied`).
    public var denies = false
    /// Lines where it loads a stored object by a value the request supplies (`Note.query.get(id)`,
    /// `get_object_or_404(M, pk=pk)`, `M.objects.get(id=x)`, SQL `... WHERE ... id ...`).
    public var objectLoads: [Int] = []
    /// The source of each load (SQL text a local variable holds included), for ownership
    /// evidence inside the query itself (`WHERE owner_id = {current_user.id}`).
    public var loadTexts: [String] = []
    /// The normalized source of what each local name is assigned from values the client does not
    /// supply (`user` ← `request.user.profile`), so that a filter by a local holding the current
    /// user (`filter(id=x, user=user)`) counts.
    public var assignments: [String: [String]] = [:]
}
