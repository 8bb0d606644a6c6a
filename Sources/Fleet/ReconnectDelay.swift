import Foundation

/// How long a worker waits before it tries its database again after a failure (a lost session,
/// a refused connection): not at all after the first (a terminated session, a failover: the
/// server is there and a job submitted meanwhile should not wait), then from 50 ms doubling to a
/// second while failures go on, each delay drawn from its upper half so that a fleet restarted
/// with its server does not reconnect in step.
enum ReconnectDelay {
    /// The delay after `failures` consecutive failures (1 for the first); `random` in 0.5...1.
    static func seconds(failures: Int, random: Double = Double.random(in: 0.5...1)) -> Double {
        guard failures > 1 else { return 0 }
        let exponent = Double(min(failures - 2, 30))
        return min(0.05 * pow(2, exponent), 1) * random
    }
}
