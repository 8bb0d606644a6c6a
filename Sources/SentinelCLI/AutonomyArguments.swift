import ArgumentParser
import Audit
import Autonomy

// The typed values of `heal`, `proposals` and `audit`: ArgumentParser parses them, lists a closed
// set's values in `--help`, and reports a bad one as a usage error (status 2) in the words it uses
// for `scan --format`. The types are the libraries'; only their conformance lives here.

/// `heal --level observer|proposer|actor`.
extension AutonomyLevel: ExpressibleByArgument {}

/// `proposals list --status STATE`.
extension ProposalStatus: ExpressibleByArgument {}

extension AuditHead: ExpressibleByArgument {
    /// `audit verify --expect-head SEQ:SHA256`, as the verification prints it.
    public init?(argument: String) {
        self.init(parsing: argument)
    }
}
