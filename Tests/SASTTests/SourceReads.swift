import Synchronization

@testable import SAST

/// How many times the front end read each file under one prefix, from `start()` on: the tests of
/// one parse per file count their own files' reads, whatever other tests read at the same time.
final class SourceReads: Sendable {
    private let prefix: String
    private let counts = Mutex<[String: Int]>([:])

    init(under prefix: String) { self.prefix = prefix }

    /// Counts from zero until ``stop()``.
    func start() {
        counts.withLock { $0 = [:] }
        SourceFrontEnd.readObservers.withLock { observers in
            observers[prefix] = { [self] file in self.record(file) }
        }
    }

    private func record(_ file: String) {
        if file.hasPrefix(prefix) { counts.withLock { $0[file, default: 0] += 1 } }
    }

    /// Stops counting.
    func stop() { _ = SourceFrontEnd.readObservers.withLock { $0.removeValue(forKey: prefix) } }

    /// The reads counted, by file.
    var byFile: [String: Int] { counts.withLock { $0 } }
}
