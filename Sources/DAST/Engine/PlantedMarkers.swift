import Synchronization

/// Markers the XSS check planted through state-changing requests: after the active phase the
/// pages are fetched again, and a marker that shows up there as markup is stored XSS. Also the
/// plain reflection markers it sent through reads (GET parameters): one that shows up on another
/// page means that read stores what it is given, and it is tried with markup then.
public final class PlantedMarkers: Sendable {
    private let planted = Mutex<[String: InsertionPoint]>([:])
    private let probed = Mutex<[String: InsertionPoint]>([:])

    /// An empty registry.
    public init() {}

    /// Records that `marker` went into `point`.
    public func plant(_ marker: String, at point: InsertionPoint) {
        planted.withLock { if $0.count < 10_000 { $0[marker] = point } }
    }

    /// Records that the plain marker `marker` went into the read `point`.
    public func probe(_ marker: String, at point: InsertionPoint) {
        probed.withLock { if $0.count < 10_000 { $0[marker] = point } }
    }

    /// Every marker and where it went.
    public var all: [String: InsertionPoint] { planted.withLock { $0 } }

    /// Every plain marker sent through a read, and where it went.
    public var probes: [String: InsertionPoint] { probed.withLock { $0 } }
}
