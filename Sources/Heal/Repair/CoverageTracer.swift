import Documents
import Foundation
import Support

extension SentinelError.Code {
    /// A traced test run printed no coverage document (the plugin did not load, or pytest died).
    public static let traceMissing = SentinelError.Code("trace-missing")
    /// A traced test run printed a coverage document that is not one.
    public static let traceMalformed = SentinelError.Code("trace-malformed")
}

/// A pytest plugin that records, for every test, the project lines it executes and how it ends;
/// and the reader of what it prints. The sandbox's filesystem is thrown away after the run, so
/// the plugin prints one JSON document between marker lines on the process's own standard output.
///
/// The loop writes ``pluginSource`` as `<moduleName>.py` into a read-only directory and adds
/// ``pytestOption`` to `PYTEST_ADDOPTS`, so it works whatever the user's command looks like
/// (`python3 -m pytest -q`, `pytest tests/ -x`). The directory reaches `sys.path` two ways
/// (``environment(directory:merging:)``): first on `PYTHONPATH`, and through a `.pth` file in the
/// user site of a user base of its own (`PYTHONUSERBASE`, ``installUserSite(in:module:)``), which
/// a command that sets `PYTHONPATH` itself (`PYTHONPATH=src pytest`, every src-layout project)
/// does not override. Set ``rootEnvironmentVariable`` to the workspace when pytest's rootdir may
/// not be the project root.
///
/// Document (version 1): `{"version":1,"files":[path...],"tests":[{"id":…,"outcome":…,
/// "lines":{"<file index>":[line or [first,last]...]}}]}`.
public enum CoverageTracer {
    /// The plugin's module name.
    public static let moduleName = "sentinel_heal_trace"
    /// The pytest option that loads the plugin.
    public static let pytestOption = "-p \(moduleName)"
    /// The line before the document.
    public static let beginMarker = "@@SENTINEL-TRACE-BEGIN@@"
    /// The line after the document.
    public static let endMarker = "@@SENTINEL-TRACE-END@@"
    /// Overrides pytest's rootdir as the directory whose non-test files are traced.
    public static let rootEnvironmentVariable = "SENTINEL_HEAL_TRACE_ROOT"

    /// Bounds on what ``parse(output:limits:)`` accepts: the document comes out of a sandbox that
    /// ran untrusted code.
    public struct Limits: Sendable, Hashable {
        /// The largest document, in bytes.
        public var documentBytes: Int
        /// The most (test, line) pairs once runs are expanded: a hostile run like
        /// `[1, 2000000000]` stops here instead of exhausting memory.
        public var lineEntries: Int
        /// The highest line number.
        public var line: Int

        /// Limits of `documentBytes`, `lineEntries` and `line`.
        public init(documentBytes: Int = 64 << 20, lineEntries: Int = 20_000_000, line: Int = 10_000_000) {
            self.documentBytes = documentBytes
            self.lineEntries = lineEntries
            self.line = line
        }
    }

    /// Writes the plugin as `<moduleName>.py` into `directory` (which must exist), and its user
    /// site (``installUserSite(in:module:)``); returns the plugin's path.
    @discardableResult
    public static func install(into directory: String) throws -> String {
        let path = directory + "/" + moduleName + ".py"
        try PreparedOutputFile(path: path).write(pluginSource)
        try installUserSite(in: directory, module: moduleName)
        return path
    }

    /// The spectrum in the last marked document of `output` (a traced run's standard output, or
    /// its output and error together). Throws ``SentinelError/Code/traceMissing`` when there is
    /// none and ``SentinelError/Code/traceMalformed`` when it is not a valid document.
    public static func parse(output: String, limits: Limits = Limits()) throws -> TestSpectrum {
        var text = output
        let document = try text.withUTF8 { try lastDocument(in: $0, maximumBytes: limits.documentBytes) }
        let node: DocumentNode
        do {
            node = try JSON.parse(document, file: "coverage trace")
        } catch let error as SentinelError {
            throw SentinelError(.traceMalformed, error.message)
        }
        var decoder = TraceDecoder(limits: limits)
        return try decoder.spectrum(from: node)
    }

    /// `output` without its last marked document (markers included): what the test run itself
    /// printed, for readers of a baseline's output that the spectrum's names must not mislead.
    public static func removingTrace(from output: String) -> String {
        let bytes = Array(output.utf8)
        guard let (begin, end) = bytes.withUnsafeBufferPointer(lastMarkers) else { return output }
        return String(decoding: bytes[..<begin] + bytes[(end + endMarker.utf8.count)...], as: UTF8.self)
    }

    /// The starts of the last end marker and of the begin marker before it.
    static func lastMarkers(in bytes: UnsafeBufferPointer<UInt8>) -> (begin: Int, end: Int)? {
        guard let end = lastIndex(of: Array(endMarker.utf8), in: bytes, before: bytes.count),
            let begin = lastIndex(of: Array(beginMarker.utf8), in: bytes, before: end)
        else { return nil }
        return (begin, end)
    }

    /// The bytes between the last end marker and the begin marker before it, trimmed.
    static func lastDocument(in bytes: UnsafeBufferPointer<UInt8>, maximumBytes: Int) throws -> [UInt8] {
        guard let (begin, end) = lastMarkers(in: bytes) else {
            throw SentinelError(.traceMissing, "coverage trace: no marked document in the test output")
        }
        var lower = begin + beginMarker.utf8.count
        var upper = end
        while lower < upper, isSpace(bytes[lower]) { lower += 1 }
        while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
        guard upper - lower <= maximumBytes else {
            throw SentinelError(.traceMalformed, "coverage trace: document of \(upper - lower) bytes, more than \(maximumBytes)")
        }
        return Array(bytes[lower..<upper])
    }

    /// Start of the last occurrence of `pattern` that ends at or before `limit`.
    static func lastIndex(of pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, before limit: Int) -> Int? {
        var start = limit - pattern.count
        while start >= 0 {
            if bytes[start] == pattern[0], (1..<pattern.count).allSatisfy({ bytes[start + $0] == pattern[$0] }) {
                return start
            }
            start -= 1
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 10 || byte == 13 || byte == 32 || byte == 9 }
}
