import Documents

/// SwiftPM's `Package.resolved`, versions 1 (`object.pins`, `repositoryURL`) and 2/3 (`pins`,
/// `location`). The name is the repository URL (OSV's `SwiftURL`); branch or revision pins have
/// no version and are reported.
public struct PackageResolvedParser: LockfileParser {
    /// The format name results carry.
    public static let format = "Package.resolved"
    /// File names this parser reads.
    public static let fileNames = ["Package.resolved"]

    /// A parser; it needs no configuration.
    public init() {}

    /// Parses one file; throws `SentinelError(.invalidInput, "FILE:LINE: ...")` when it is malformed.
    public func parse(_ bytes: [UInt8], file: String) throws -> LockfileResult {
        let root = try JSON.parse(bytes, file: file)
        guard case .object = root.value else {
            throw malformed(file, root.line, "expected a JSON object at the top level")
        }
        let pinsNode: DocumentNode?
        let schema = root["version"]?.scalarText ?? "1"
        pinsNode = schema == "1" ? root["object"]?["pins"] : root["pins"]
        guard let pinsNode else {
            throw malformed(file, root.line, "no \"pins\" for Package.resolved version \(schema)")
        }
        guard case .array(let pins) = pinsNode.value else {
            throw malformed(file, pinsNode.line, "\"pins\" must be an array")
        }
        var result = LockfileResult(file: file, format: Self.format)
        for pin in pins {
            guard case .object(let members) = pin.value else {
                throw malformed(file, pin.line, "each pin must be an object")
            }
            let locationKey = schema == "1" ? "repositoryURL" : "location"
            guard let location = pin[locationKey]?.string else {
                throw malformed(file, pin.line, "pin without \"\(locationKey)\"")
            }
            // The identity (v2+) or package name (v1) line is where a reader looks for the pin.
            let line = members.first { $0.key == "identity" || $0.key == "package" }?.line ?? pin.line
            var notes: [String: String] = [:]
            if let identity = (pin["identity"] ?? pin["package"])?.string { notes["identity"] = identity }
            let state = pin["state"]
            if let revision = state?["revision"]?.string { notes["revision"] = revision }
            if let kind = pin["kind"]?.string {
                notes["kind"] = kind
                if kind == "localSourceControl" || kind == "fileSystem" {
                    result.problems.append(
                        .init(
                            .info, file: file, line: line,
                            "\(location) is a local package, not matched against advisories"))
                    continue
                }
            }
            let version = state?["version"]?.string
            if version == nil {
                let branch = state?["branch"]?.string.map { "branch \($0)" } ?? "a revision"
                result.problems.append(
                    .init(.info, file: file, line: line, "not pinned to a version: \(location) follows \(branch)"))
            }
            result.dependencies.append(
                Dependency(
                    ecosystem: .swiftURL, name: location, version: version,
                    file: file, line: line, notes: notes))
        }
        result.dependencies = deduplicated(result.dependencies)
        return result
    }
}
