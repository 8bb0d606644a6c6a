/// The `properties` encoding of `FindingFacts`: the one place that knows each fact's key and
/// spelling. Lists are joined with a separator, booleans are `true`/`false`. A value is read
/// into a typed field only when writing it back gives the same string; otherwise it stays in
/// `other`, so any report (older versions, other tools) round-trips byte for byte.
extension FindingFacts {
    /// Facts from a `properties` object: known keys into their facets, the rest into `other`.
    public init(properties: [String: String]) {
        var reader = PropertyReader(remaining: properties)
        self.init(
            dependency: DependencyFacts(reading: &reader), web: WebFacts(reading: &reader),
            code: CodeFacts(reading: &reader), external: ExternalToolFacts(reading: &reader),
            pipeline: PipelineFacts(reading: &reader), proof: ProofFacts(reading: &reader), other: reader.remaining)
    }

    /// The facts as a `properties` object (typed facts win over a same-named key in `other`).
    public var properties: [String: String] {
        var writer = PropertyWriter(properties: other)
        dependency.write(to: &writer)
        web.write(to: &writer)
        code.write(to: &writer)
        external.write(to: &writer)
        pipeline.write(to: &writer)
        proof.write(to: &writer)
        return writer.properties
    }

    /// The keys a merge accumulates rather than adopts.
    static let mergeListKeys: Set<String> = ["alsoReportedBy", "alsoReportedAs"]
}

extension DependencyFacts {
    init(reading r: inout PropertyReader) {
        self.init(
            package: r.string("package"), installedVersion: r.string("installedVersion"),
            ecosystem: r.string("ecosystem"), affectedRange: r.string("affectedRange"),
            fixedVersions: r.list("fixedVersions", ","), smallestFixedVersion: r.string("fixedVersion"),
            fixIsSameMajor: r.bool("fixSameMajor"), aliases: r.list("aliases", ","), sameAs: r.list("sameAs", ","),
            isDirect: r.bool("direct"), path: r.list("dependencyPath", " > "), cvssScore: r.double("cvssScore"),
            cvssVector: r.string("cvssVector"), severitySource: r.string("severitySource"))
    }

    func write(to w: inout PropertyWriter) {
        w.set("package", package)
        w.set("installedVersion", installedVersion)
        w.set("ecosystem", ecosystem)
        w.set("affectedRange", affectedRange)
        w.set("fixedVersions", fixedVersions, ",")
        w.set("fixedVersion", smallestFixedVersion)
        w.set("fixSameMajor", fixIsSameMajor)
        w.set("aliases", aliases, ",")
        w.set("sameAs", sameAs, ",")
        w.set("direct", isDirect)
        w.set("dependencyPath", path, " > ")
        w.set("cvssScore", cvssScore.map { String($0) })
        w.set("cvssVector", cvssVector)
        w.set("severitySource", severitySource)
    }
}

extension WebFacts {
    init(reading r: inout PropertyReader) {
        self.init(
            parameterIn: r.string("parameterIn"), technique: r.raw("technique"), shownAt: r.string("shownAt"),
            reflectionContext: r.string("context"), occurrences: r.int("occurrences"), wascId: r.int("wascid"),
            wstg: r.list("wstg", ", "))
    }

    func write(to w: inout PropertyWriter) {
        w.set("parameterIn", parameterIn)
        w.set("technique", technique?.rawValue)
        w.set("shownAt", shownAt)
        w.set("context", reflectionContext)
        w.set("occurrences", occurrences.map { String($0) })
        w.set("wascid", wascId.map { String($0) })
        w.set("wstg", wstg, ", ")
    }
}

extension CodeFacts {
    init(reading r: inout PropertyReader) {
        self.init(
            taintSource: r.raw("source"), sourceEncoding: r.string("sourceEncoding"), sourceIn: r.raw("sourceIn"),
            sourceParameter: r.string("sourceParameter"), route: r.string("route"), routeMethods: r.list("routeMethods", ","),
            routeParameters: r.list("routeParameters", ","), routeHandler: r.string("routeHandler"))
    }

    func write(to w: inout PropertyWriter) {
        w.set("source", taintSource?.rawValue)
        w.set("sourceEncoding", sourceEncoding)
        w.set("sourceIn", sourceIn?.rawValue)
        w.set("sourceParameter", sourceParameter)
        w.set("route", route)
        w.set("routeMethods", routeMethods, ",")
        w.set("routeParameters", routeParameters, ",")
        w.set("routeHandler", routeHandler)
    }
}

extension ExternalToolFacts {
    init(reading r: inout PropertyReader) {
        self.init(
            testId: r.string("testId"), testName: r.string("testName"), reportedLine: r.int("banditLine"),
            checkId: r.string("checkId"), category: r.string("category"), module: r.string("module"),
            section: r.string("section"), alertRef: r.string("alertRef"), messageId: r.string("messageId"),
            solution: r.string("solution"))
    }

    func write(to w: inout PropertyWriter) {
        w.set("testId", testId)
        w.set("testName", testName)
        w.set("banditLine", reportedLine.map { String($0) })
        w.set("checkId", checkId)
        w.set("category", category)
        w.set("module", module)
        w.set("section", section)
        w.set("alertRef", alertRef)
        w.set("messageId", messageId)
        w.set("solution", solution)
    }
}

extension PipelineFacts {
    init(reading r: inout PropertyReader) {
        self.init(
            alsoReportedBy: r.list("alsoReportedBy", ",")?.map(ToolName.init(rawValue:)), alsoReportedAs: r.list("alsoReportedAs", ","),
            suppressionReason: r.string("suppressionReason"),
            suppressionKind: r.string("suppressionKind").map(SuppressionKind.init(rawValue:)))
    }

    func write(to w: inout PropertyWriter) {
        w.set("alsoReportedBy", alsoReportedBy?.map(\.rawValue), ",")
        w.set("alsoReportedAs", alsoReportedAs, ",")
        w.set("suppressionReason", suppressionReason)
        w.set("suppressionKind", suppressionKind?.rawValue)
    }
}

extension ProofFacts {
    init(reading r: inout PropertyReader) {
        self.init(
            proven: r.bool("proven"), reason: r.string("proofReason"), oracle: r.string("proofOracle"),
            request: r.string("proofRequest"), evidence: r.string("proofEvidence"), requests: r.int("proofRequests"))
    }

    func write(to w: inout PropertyWriter) {
        w.set("proven", proven)
        w.set("proofReason", reason)
        w.set("proofOracle", oracle)
        w.set("proofRequest", request)
        w.set("proofEvidence", evidence)
        w.set("proofRequests", requests.map { String($0) })
    }
}

/// Takes keys out of a `properties` object as typed values, only where the value round-trips.
struct PropertyReader {
    var remaining: [String: String]

    mutating func string(_ key: String) -> String? { remaining.removeValue(forKey: key) }

    mutating func bool(_ key: String) -> Bool? { take(key) { ["true": true, "false": false][$0] } }

    mutating func int(_ key: String) -> Int? { take(key) { text in Int(text).flatMap { String($0) == text ? $0 : nil } } }

    mutating func double(_ key: String) -> Double? { take(key) { text in Double(text).flatMap { String($0) == text ? $0 : nil } } }

    mutating func raw<Value: RawRepresentable<String>>(_ key: String) -> Value? { take(key) { Value(rawValue: $0) } }

    /// `""` is the empty list; a list with an empty item cannot be written back, so it stays.
    mutating func list(_ key: String, _ separator: String) -> [String]? {
        take(key) { text in
            if text.isEmpty { return [] }
            let items = text.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
            return items.contains("") ? nil : items
        }
    }

    private mutating func take<Value>(_ key: String, _ parse: (String) -> Value?) -> Value? {
        guard let text = remaining[key], let value = parse(text) else { return nil }
        remaining[key] = nil
        return value
    }
}

/// Writes typed values into a `properties` object.
struct PropertyWriter {
    var properties: [String: String]

    mutating func set(_ key: String, _ value: String?) {
        if let value { properties[key] = value }
    }

    mutating func set(_ key: String, _ value: Bool?) {
        if let value { properties[key] = value ? "true" : "false" }
    }

    mutating func set(_ key: String, _ items: [String]?, _ separator: String) {
        if let items { properties[key] = items.joined(separator: separator) }
    }
}
