import Synchronization

/// The session's cookies for the one origin in scope: set by `Set-Cookie` answers and by
/// `--cookie`, sent back with every request. Paths and expiry are honoured loosely (a scanner
/// wants the session, not a browser's exact rules): a cookie set to an empty value or with
/// `Max-Age=0` is removed.
public final class CookieJar: Sendable {
    private let cookies = Mutex<[(name: String, value: String)]>([])
    private let held = Atomic<Bool>(false)
    /// At most this many cookies are kept (a hostile target cannot grow the jar without bound).
    public static let capacity = 64

    /// An empty jar.
    public init() {}

    /// Sets `name` to `value` (replacing it).
    public func set(_ name: String, _ value: String) {
        cookies.withLock { list in
            list.removeAll { $0.name == name }
            if list.count < Self.capacity { list.append((name, value)) }
        }
        held.store(true, ordering: .relaxed)
    }

    /// True once any cookie was set, even if removed since: the site keeps state in cookies, so a
    /// browser sends them along with a forged cross-site request.
    public var everHeld: Bool { held.load(ordering: .relaxed) }

    /// Takes the cookies a response sets.
    public func store(from response: WebResponse) {
        for line in response.headers(named: "Set-Cookie") {
            guard let cookie = SetCookie(line) else { continue }
            if cookie.value.isEmpty || cookie.maxAge == 0 {
                cookies.withLock { $0.removeAll { $0.name == cookie.name } }
            } else {
                set(cookie.name, cookie.value)
            }
        }
    }

    /// The cookies, in the order set.
    public var all: [(name: String, value: String)] { cookies.withLock { $0 } }

    /// The `Cookie` header value, nil when empty.
    public var header: String? {
        let list = all
        return list.isEmpty ? nil : list.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }
}
