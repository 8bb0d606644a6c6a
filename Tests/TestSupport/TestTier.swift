import Foundation
import Testing

/// Which tier of the suite this run is. `make test` runs everything; `make test-unit` sets
/// `SENTINEL_TEST_TIER=unit` and runs only what starts no sandbox, no binary and no server, so an
/// edit-build-test loop takes minutes.
public enum TestTier {
    /// `make test-unit`: suites marked `.integration` are skipped and `TestHost.canSandbox` is false.
    public static let isUnit = ProcessInfo.processInfo.environment["SENTINEL_TEST_TIER"] == "unit"

    /// Called by every server TestSupport starts: in the unit tier, starting one is a failure that
    /// says which suite to mark `.integration`, so the tier stays what it claims.
    public static func startingServer(_ what: String) {
        if isUnit {
            Issue.record("\(what) started in make test-unit: mark the suite .integration")
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Marks a suite or test that starts a sandbox, a binary or a server: `make test` runs it,
    /// `make test-unit` skips it. An unmarked test that starts one of TestSupport's servers fails
    /// there (`TestTier.startingServer`) rather than slowing the tier unseen.
    public static var integration: Self {
        .enabled(if: !TestTier.isUnit, "starts a sandbox, a binary or a server: make test runs it")
    }

    /// Runs a suite or test only where the PostgreSQL test server can start (`PostgresServer`:
    /// Debian's PostgreSQL 15, run as the postgres user, so root).
    public static var needsPostgres: Self {
        .enabled(if: PostgresServer.available, "starts PostgreSQL 15 from Debian's packages as the postgres user: needs root")
    }

    /// Marks a test that runs long on purpose (megabytes of input to show a bound holds):
    /// `make test` runs it, `make test-unit` skips it.
    public static var exhaustive: Self {
        .enabled(if: !TestTier.isUnit, "runs long on purpose: make test runs it")
    }
}
