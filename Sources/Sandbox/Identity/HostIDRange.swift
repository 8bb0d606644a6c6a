import Support

/// The host uids/gids a root launcher hands its sandboxes, one number per concurrent sandbox
/// (its uid and its gid are that number).
///
/// The default, 1879048192 (0x70000000) and the 65535 ids after it, lies past systemd's
/// container ranges (524288..1879048191) in ids systemd leaves unassigned and below 2^31
/// (tools that read uid_t as signed break above it). The operator changes it with
/// `SENTINEL_ID_RANGE=START:COUNT`; only a root launcher reads it.
public struct HostIDRange: Sendable, Equatable, CustomStringConvertible {
    /// The first id.
    public var start: UInt32
    /// How many ids, from `start`.
    public var count: UInt32

    /// 0x70000000, 65536 ids.
    public static let standard = HostIDRange(start: 0x7000_0000, count: 0x1_0000)
    /// The variable that changes the range.
    public static let environmentVariable = "SENTINEL_ID_RANGE"
    /// The lowest start accepted: ids below it are system, regular and systemd's dynamic users.
    public static let lowestStart: UInt64 = 0x1_0000
    /// One past the highest id accepted (2^31).
    public static let end: UInt64 = 0x8000_0000

    /// `start`..`start+count-1`, unchecked (see `parse`).
    public init(start: UInt32, count: UInt32) {
        self.start = start
        self.count = count
    }

    /// `START:COUNT`.
    public var description: String { "\(start):\(count)" }

    /// Whether `id` is one of the range's.
    public func contains(_ id: UInt32) -> Bool { id >= start && UInt64(id) < UInt64(start) + UInt64(count) }

    /// The range `SENTINEL_ID_RANGE` names in `environment`, or the standard one when it is unset
    /// or empty. Throws `.invalidInput` naming the variable when it is malformed or unsafe.
    public static func configured(_ environment: [String: String]) throws -> HostIDRange {
        guard let text = environment[environmentVariable], !text.isEmpty else { return standard }
        return try parse(text)
    }

    /// Parses `START:COUNT` (decimal): COUNT at least 1, START at least 65536, the whole range below 2^31.
    public static func parse(_ text: String) throws -> HostIDRange {
        func refuse(_ why: String) -> SentinelError {
            SentinelError(.invalidInput, "\(environmentVariable)=\(text): \(why)")
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = UInt64(parts[0]), let count = UInt64(parts[1]) else {
            throw refuse("expected START:COUNT in decimal, e.g. \(standard)")
        }
        guard count >= 1 else { throw refuse("COUNT must be at least 1") }
        guard start >= lowestStart else {
            throw refuse("START must be at least \(lowestStart): lower ids belong to system and regular users")
        }
        guard start + count <= end else {
            throw refuse("the range must end below \(end) (2^31): higher ids break tools that read them as signed")
        }
        return HostIDRange(start: UInt32(start), count: UInt32(count))
    }
}
