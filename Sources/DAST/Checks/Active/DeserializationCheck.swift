import Foundation
import Findings

/// Insecure deserialisation: a parameter or cookie that carries a serialised object (a Python
/// pickle — base64, hex or raw bytes, `InsertionPoint.wrapped` — or a PHP `serialize()` string)
/// is replaced by an object of the scan's own — plain strings and a dictionary — holding a
/// marker. The marker in the answer proves the server deserialises what clients send. Where the
/// answer shows nothing of the object (blind), a pickle whose one call is `time.sleep` must delay
/// the answer as asked (`TimingOracle`: one request when it does not, four when it does): the
/// only code it runs is that sleep. The original object is never deserialised here: its strings
/// are read off the byte stream to reuse as keys.
public struct DeserializationCheck: ActiveCheck {
    static let rule = WebRule(
        id: "insecure-deserialization", name: "Insecure deserialisation", severity: .critical, cwe: [502],
        help: "Never unpickle or unserialize client data; use JSON and sign what must come back (HMAC).")

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule] }

    /// It tests serialised objects, which are bytes.
    public var readsBytes: Bool { true }

    /// A check.
    public init() {}

    /// Only for values that are or decode to a pickle, or a PHP serialised value, and for files
    /// a form uploads.
    public func test(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        if case .upload = point.place { return try upload(point, context: context) }
        let marker = context.markers.marker()
        let pickle = Self.pickle(point)
        let replacement: String
        let format: String
        if let pickle {
            let object = PickleWriter.dictionary(keys: PickleWriter.strings(in: pickle), value: marker)
            replacement = point.isBinary ? ValueCoding.latin1(object) : Self.base64Encoded(object, like: point.original)
            format = "Python pickle"
        } else if !point.isBinary, let php = PHPSerialized.replacingStrings(in: point.original, with: marker) {
            replacement = php
            format = "PHP serialize()"
        } else {
            return []
        }
        guard !context.baseline.text.contains(marker) else { return [] }
        if let (request, response) = try context.send(point, replacement), response.text.contains(marker) {
            return [
                Self.rule.finding(
                    at: point,
                    message: "Insecure deserialisation in '\(point.name)': the server deserialises a \(format) object the client sends",
                    evidence: Evidence.of(request, response, around: marker)
                        + "\n(the object sent holds only strings; nothing was executed)")
            ]
        }
        guard pickle != nil else { return [] }
        return try blind(point, context: context)
    }

    /// The pickle the point carries: its bytes (a wrapped point), or base64 that the value
    /// wrapping did not recognise (percent-encoded within a cookie, say).
    static func pickle(_ point: InsertionPoint) -> [UInt8]? {
        let bytes: [UInt8]?
        if point.isBinary {
            bytes = point.original.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        } else if point.coding == nil, point.wrapped == nil {
            bytes = base64(point.original)
        } else {
            bytes = nil
        }
        guard let bytes, bytes.count >= 2, bytes[0] == 0x80, (2...5).contains(bytes[1]) else { return nil }
        return bytes
    }

    /// A pickle that sleeps as asked delays the answer: the server unpickles it, though it shows
    /// nothing of what it read.
    private func blind(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        try sleeps(point, context: context, format: "pickle") { delay in
            let object = PickleWriter.call(module: "time", name: "sleep", argument: Int32(delay))
            return point.isBinary ? ValueCoding.latin1(object) : Self.base64Encoded(object, like: point.original)
        }
    }

    /// A file a form uploads, read by a YAML loader that builds Python objects (PyYAML's
    /// `yaml.load` with its unsafe loader, or with its default before 5.4: `tuple(map(f, [x]))`
    /// passes both) or by `pickle`: a YAML document mapping `string.capwords` over a marker shows
    /// it capitalised where the answer shows what was loaded (a safe loader refuses the tags);
    /// else a YAML document and a pickle that sleep must delay the answer as asked. One request
    /// each where nothing shows.
    private func upload(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        let marker = context.markers.marker()
        let capitalised = marker.prefix(1).uppercased() + marker.dropFirst()
        if let (request, response) = try context.send(point, Self.yamlCall("string.capwords", "\"\(marker)\"")),
            response.text.contains(capitalised), !context.baseline.text.contains(capitalised)
        {
            return [
                Self.rule.finding(
                    at: point,
                    message:
                        "Insecure deserialisation in '\(point.name)': the uploaded YAML is loaded with a loader that calls Python functions",
                    evidence: Evidence.of(request, response, around: capitalised)
                        + "\n(the document mapped string.capwords over a marker; nothing else was called)")
            ]
        }
        let yaml = try sleeps(point, context: context, format: "YAML document") { Self.yamlCall("time.sleep", "\($0)") }
        return yaml.isEmpty ? try blind(point, context: context) : yaml
    }

    /// A YAML document whose value is `tuple(map(function, [argument]))`: the call PyYAML's
    /// object-building loaders make.
    static func yamlCall(_ function: String, _ argument: String) -> String {
        "sentinel: !!python/object/new:tuple [!!python/object/new:map [!!python/name:\(function) , [\(argument)]]]\n"
    }

    /// The timing proof for a `format` object that sleeps `delay` seconds (`value(delay)`).
    private func sleeps(
        _ point: InsertionPoint, context: ActiveContext, format: String, value: (Int) -> String
    ) throws -> [Finding] {
        var evidence = ""
        let confirmed = try TimingOracle.confirms(baseline: context.baseline.elapsed) { delay in
            guard let (request, response) = try context.sendAgain(point, value(Int(delay))) else { return nil }
            evidence += "\(request.url) took \(String(format: "%.2f", response.elapsed)) s\n"
            return response.elapsed
        }
        guard confirmed else { return [] }
        return [
            Self.rule.finding(
                at: point,
                message: "Insecure deserialisation in '\(point.name)': a \(format) that sleeps delays the answer (blind)",
                evidence: "Baseline: \(String(format: "%.2f", context.baseline.elapsed)) s\n" + evidence
                    + "(the \(format) sent calls time.sleep and nothing else)",
                web: WebFacts(technique: .time))
        ]
    }

    /// The bytes of a base64 value (standard or URL-safe, padded or not, percent-encoded or not).
    static func base64(_ text: String) -> [UInt8]? {
        let decoded = text.removingPercentEncoding ?? text
        let urlSafe = decoded.contains("-") || decoded.contains("_")
        return ValueCoding.base64(urlSafe: urlSafe, padded: true).unwrap(decoded)
    }

    /// `bytes` in base64, URL-safe when `original` was.
    static func base64Encoded(_ bytes: [UInt8], like original: String) -> String {
        let urlSafe = original.contains("-") || original.contains("_")
        return ValueCoding.base64(urlSafe: urlSafe, padded: true).wrap(ValueCoding.latin1(bytes), binary: true)
    }
}
