import Findings
import Synchronization

/// The named values of a request a file's code reads (`request.form["password"]` at line 12 is
/// `form password`), as the taint analyses named them, whatever rule ran: a proof fills a
/// handler's other fields with them (`RouteFacts`), since a handler that reads a second field
/// first (`if username and password`) answers nothing without it.
final class RequestReads: Sendable {
    /// One read: where, which part, which name.
    struct Read: Sendable, Hashable {
        var line: Int
        var part: RequestPart
        var name: String
    }

    private let reads = Mutex<Set<Read>>([])
    /// At most this many are kept per file.
    static let limit = 500

    /// Notes a read.
    func note(line: Int, part: RequestPart, name: String) {
        reads.withLock { if $0.count < Self.limit { $0.insert(Read(line: line, part: part, name: name)) } }
    }

    /// Every read noted.
    var all: Set<Read> { reads.withLock { $0 } }
}
