import Findings
import Support
import Synchronization

/// What a check has for one insertion point: the client, the point's answer with its original
/// value (the baseline), fresh markers, the canary for out-of-band probes, and what other checks
/// already proved there. Answers are remembered per value, so two checks that send the same
/// probe (a stray quote) cost one request.
public struct ActiveContext: Sendable {
    /// Sends requests (scope, budget, session).
    public let client: WebClient
    /// The answer to the point's request with its original value.
    public let baseline: WebResponse
    /// Makes unique markers and arithmetic probes.
    public let markers: Markers
    /// Out-of-band probes: the canary's URL and the registry of tokens sent.
    public let canary: CanaryRegistry?
    /// Stored-XSS markers planted, for the re-check after the active phase.
    public let planted: PlantedMarkers
    /// Rule ids already reported at this point (a later check may defer to an earlier one).
    public var reported: Set<String> = []
    /// The marker appended to the original value to see where it lands (one per point).
    public let reflectionMarker: String
    /// An arithmetic expression of this point and its product: the plain value ``readsValue(_:)``
    /// sends is the one the code-evaluation check needs, so one request serves both.
    public let arithmetic: (expression: String, product: Int)
    /// The database engines the site's answers have named so far (shared by every point).
    public let engines: DatabaseEngines
    /// The check sending now, for the scan's requests-per-check tally.
    var check = "baseline"
    /// Requests sent, per check (shared by every point of the scan).
    let tally: RequestTally
    /// Told about every exchange (the error-disclosure check reads them).
    let observe: @Sendable (Exchange) -> Void
    let answers: ResponseMemo

    /// A context for one point.
    init(
        client: WebClient, baseline: WebResponse, markers: Markers, canary: CanaryRegistry?, planted: PlantedMarkers,
        answers: ResponseMemo = ResponseMemo(), tally: RequestTally = RequestTally(),
        engines: DatabaseEngines = DatabaseEngines(), observe: @escaping @Sendable (Exchange) -> Void = { _ in }
    ) {
        self.tally = tally
        self.engines = engines
        self.reflectionMarker = markers.marker()
        let (a, b, product) = markers.product()
        self.arithmetic = ("\(a)*\(b)", product)
        self.client = client
        self.baseline = baseline
        self.markers = markers
        self.canary = canary
        self.planted = planted
        self.answers = answers
        self.observe = observe
    }

    /// Sends the point's request with `value` (or recalls the answer to the same value); nil
    /// when the target did not answer. Throws `RequestBudget.Exhausted` only.
    public func send(_ point: InsertionPoint, _ value: String) throws -> (WebRequest, WebResponse)? {
        if let remembered = answers.recall(value) { return remembered }
        let request = point.request(value)
        tally.count(check)
        do {
            let response = try client.send(request)
            engines.note(response.text)
            observe(Exchange(request: request, response: response))
            answers.remember(value, (request, response))
            return (request, response)
        } catch let exhausted as RequestBudget.Exhausted {
            throw exhausted
        } catch {
            return nil
        }
    }

    /// The answer to the original value followed by `reflectionMarker`: where the value shows
    /// (body, headers), for every check that asks. Nil when the target did not answer.
    public func reflection(_ point: InsertionPoint) throws -> WebResponse? {
        try send(point, point.original + reflectionMarker)?.1
    }

    /// True when ``reflection(_:)``'s answer shows the marker in a header value (a `Location`, a
    /// cookie): the value is copied into the response's headers.
    public func reflectedInHeader(_ point: InsertionPoint) throws -> Bool {
        try reflection(point)?.headers.contains { $0.value.contains(reflectionMarker) } == true
    }

    /// Quotes, parentheses, a shell separator and pipe, a backslash and the openers of the common
    /// template syntaxes: no SQL, XPath, LDAP, shell, template or code parser takes them as they are.
    public static let breaker = "'\"`)(;|\\{{${<%"

    /// True when the original value followed by `breaker` answers differently from the original
    /// (beyond its own reflection), or not at all: something parses this value. The checks that
    /// need a visible effect (an error, a condition deciding the answer) run only then;
    /// time-based probes do not ask. One request per point, shared by every check.
    public func reacts(_ point: InsertionPoint) throws -> Bool {
        let value = point.original + Self.breaker
        guard let (_, broken) = try send(point, value) else { return true }
        return ResponseSimilarity.ratio(broken, baseline, value: value, original: point.original) < 0.99
    }

    /// ``reacts(_:)``, or — where the original may itself be what fails, so breaking it changes
    /// nothing (`ping test` that prints to stderr only) — a plain arithmetic value that answers
    /// unlike both the original and the broken value: the value is read. One more request at most.
    public func readsValue(_ point: InsertionPoint) throws -> Bool {
        if try reacts(point) { return true }
        let broken = point.original + Self.breaker
        let number = arithmetic.expression
        guard let (_, plain) = try send(point, number), let brokenAnswer = answers.recall(broken)?.1 else { return true }
        return ResponseSimilarity.ratio(plain, baseline, value: number, original: point.original) < 0.99
            && ResponseSimilarity.ratio(plain, brokenAnswer, removing: [broken, number]) < 0.99
    }

    /// Sends `value` afresh, never from memory (timing and repeat-to-confirm probes).
    public func sendAgain(_ point: InsertionPoint, _ value: String) throws -> (WebRequest, WebResponse)? {
        answers.forget(value)
        return try send(point, value)
    }
}

/// Answers to the values sent to one point (bounded: the first 64).
final class ResponseMemo: Sendable {
    /// Where the second fetch of the original value is kept (not a value anyone sends).
    static let againKey = "\u{0}again"
    private let answers = Mutex<[String: (WebRequest, WebResponse)]>([:])

    func recall(_ value: String) -> (WebRequest, WebResponse)? { answers.withLock { $0[value] } }

    func remember(_ value: String, _ answer: (WebRequest, WebResponse)) {
        answers.withLock { if $0.count < 64 { $0[value] = answer } }
    }

    func forget(_ value: String) { answers.withLock { _ = $0.removeValue(forKey: value) } }
}

/// Requests sent per check, across every point of a scan (ZAP shows the same per rule).
public final class RequestTally: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// An empty tally.
    public init() {}

    /// One more request for `name`.
    public func count(_ name: String, _ requests: Int = 1) { counts.withLock { $0[name, default: 0] += requests } }

    /// The counts, by name.
    public var all: [String: Int] { counts.withLock { $0 } }
}

/// The database engines a site's answers name in their errors, gathered over the scan: a site
/// that shows SQLite's or MySQL's errors is not asked for PostgreSQL's sleep, and the reverse.
public final class DatabaseEngines: Sendable {
    /// An engine an error text names.
    public enum Engine: Sendable, Hashable {
        case sqlite, mysql, postgres, mssql, oracle
    }

    static let signatures: [(Engine, String)] = [
        (.sqlite, "sqlite3.OperationalError"), (.sqlite, "SQLITE_ERROR"), (.sqlite, "SQLiteException"),
        (.mysql, "You have an error in your SQL syntax"), (.mysql, "MySqlException"), (.mysql, "mysql_fetch"),
        (.postgres, "psycopg2."), (.postgres, "org.postgresql.util.PSQLException"), (.postgres, "pg_query():"),
        (.mssql, "Unclosed quotation mark"), (.mssql, "ODBC SQL Server Driver"), (.oracle, "ORA-0"),
    ]
    private let named = Mutex<Set<Engine>>([])

    /// None named yet.
    public init() {}

    /// Notes the engines `text` names.
    public func note(_ text: String) {
        let found = Self.signatures.filter { text.contains($0.1) }.map(\.0)
        guard !found.isEmpty else { return }
        named.withLock { $0.formUnion(found) }
    }

    /// The engines named so far.
    public var all: Set<Engine> { named.withLock { $0 } }
}
