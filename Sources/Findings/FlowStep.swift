/// One step of the data flow behind a finding: where the value is, and what happens to it there
/// (`source: request.args`, `q = request.args['q']`, `passed to helper run(cmd)`,
/// `sink: os.system`). A finding's `codeFlow` lists them source first, sink last; SARIF carries
/// them as a `threadFlow` so code-scanning viewers can walk the path.
public struct FlowStep: Sendable, Codable, Hashable {
    /// Where this step happens (a file region; a URL for a web step).
    public var location: Location
    /// What happens to the value here, one short phrase.
    public var message: String

    /// A step at `location` described by `message`.
    public init(location: Location, message: String) {
        self.location = location
        self.message = message
    }

    private enum CodingKeys: String, CodingKey {
        case location, message
    }

    /// Decodes leniently: a step written without a message has an empty one.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            location: try c.decode(Location.self, forKey: .location),
            message: try c.decodeIfPresent(String.self, forKey: .message) ?? "")
    }
}
