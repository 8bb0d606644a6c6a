import Synchronization

/// Markers the XSS check planted through state-changing requests: after the active phase the
/// pages are fetched again, and a marker that shows up there as markup is stored XSS.
public final class PlantedMarkers: Sendable {
    private let planted = Mutex<[String: InsertionPoint]>([:])

    /// An empty registry.
    public init() {}

    /// Records that `marker` went into `point`.
    public func plant(_ marker: String, at point: InsertionPoint) {
        planted.withLock { if $0.count < 10_000 { $0[marker] = point } }
    }

    /// Every marker and where it went.
    public var all: [String: InsertionPoint] { planted.withLock { $0 } }
}
