/// One setting of a scan as `ScanPlan` decided it, with where its value came from: what
/// `sentinel config show` prints.
public struct ScanSetting: Sendable, Hashable {
    /// Where a value came from.
    public enum Origin: Sendable, Hashable, CustomStringConvertible {
        /// Sentinel's default.
        case defaults
        /// A config file (the tree's `.sentinel.yml`, or `--config FILE`), named.
        case file(String)
        /// A command-line option, named.
        case commandLine(String)
        /// A list the config file and an option both added to.
        case both(file: String, option: String)

        /// The list's origin from what the file (`file`) and the command line (`option`) added.
        static func merged(file: Origin?, option: String?) -> Origin {
            switch (file, option) {
            case (.file(let name)?, let option?): .both(file: name, option: option)
            case (let file?, nil): file
            case (nil, let option?): .commandLine(option)
            default: .defaults
            }
        }

        /// `default`, the file's name, `--option`, or both.
        public var description: String {
            switch self {
            case .defaults: "default"
            case .file(let name): name
            case .commandLine(let option): option
            case .both(let file, let option): "\(file) + \(option)"
            }
        }
    }

    /// The key as `.sentinel.yml` spells it (`failOn`, `sca.max-db-age`).
    public var key: String
    /// The value in force, as text; empty for none.
    public var value: String
    /// Where it came from.
    public var origin: Origin

    /// A setting of one value.
    public init(key: String, value: String, origin: Origin) {
        self.key = key
        self.value = value
        self.origin = origin
    }

    /// A setting whose value is a list, shown comma-separated.
    init(key: String, list: [String], origin: Origin) {
        self.init(key: key, value: list.joined(separator: ", "), origin: origin)
    }

    /// `seconds` as the largest whole unit that states it exactly: `7d`, `36h`, `90m`, `45s`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds)
        for (unit, size) in [("d", 86_400), ("h", 3_600), ("m", 60)] where whole >= size && whole % size == 0 {
            return "\(whole / size)\(unit)"
        }
        return "\(whole)s"
    }
}
