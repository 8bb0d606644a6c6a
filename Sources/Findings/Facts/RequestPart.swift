/// Where in an HTTP request a value travels: what a taint finding's source reads (`request.args`
/// is the query) and where a proof puts its payload. Spelled like OpenAPI's parameter `in`
/// (`query`, `header`, `path`, `cookie`), with the body's forms beside them.
public enum RequestPart: String, Sendable, Hashable, CaseIterable, Codable {
    /// The URL's query string (`request.args`, `req.query`, `request.GET`).
    case query
    /// An `application/x-www-form-urlencoded` body (`request.form`, `request.POST`).
    case form
    /// A JSON body (`request.json`, `req.body` of an API).
    case json
    /// The whole raw body (`request.data`, `request.body`).
    case body
    /// A cookie (`request.cookies`).
    case cookie
    /// A request header (`request.headers`, `META`).
    case header
    /// A segment of the URL's path a route names (`/notes/<id>`, `/:id`).
    case path
    /// The query or a form, whichever the client sends (`request.values`, Tornado's
    /// `get_argument`): a proof sends the query for a `GET` route, a form otherwise.
    case queryOrForm = "query-or-form"
    /// The body, a form or JSON, whichever the application parses (Express's `req.body`): a
    /// proof sends a form, then JSON.
    case formOrJSON = "form-or-json"
    /// A parameter of the handler function the framework fills: a path segment when the route's
    /// path names it, else the query (FastAPI), settled once the route is known.
    case handlerParameter = "handler-parameter"
}
