/// A request's line as `HTTPResponder` read it: `METHOD TARGET HTTP/x`.
public struct ResponderRequest: Sendable, Hashable {
    /// `GET`, `POST`, ... as sent.
    public var method: String
    /// The request target as sent (`/metrics?x=1`), at most the 8 KiB the head may take.
    public var target: String
    /// The request line, for a record of what was asked.
    public var line: String

    /// The target's path: what comes before `?`.
    public var path: Substring { target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0] }

    /// Reads the first line of `head`; nil when it is not three parts ending in `HTTP/…` with a
    /// target that starts with `/` (or `head` holds no line at all).
    public init?(head: [UInt8]) {
        var first = head.prefix { $0 != 10 }
        if first.last == 13 { first.removeLast() }
        let line = String(decoding: first, as: UTF8.self)
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/"), parts[1].hasPrefix("/") else { return nil }
        method = String(parts[0])
        target = String(parts[1])
        self.line = line
    }

    /// Where the head ends (after its blank line, CRLF or bare LF), if it has ended.
    static func headEnd(_ bytes: ArraySlice<UInt8>) -> Int? {
        let crlf: [UInt8] = [13, 10, 13, 10]
        let lf: [UInt8] = [10, 10]
        return bytes.firstRange(of: crlf)?.upperBound ?? bytes.firstRange(of: lf)?.upperBound
    }
}
