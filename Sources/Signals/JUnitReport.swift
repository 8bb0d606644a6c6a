import Foundation
import Web

/// A JUnit XML report (pytest `--junitxml`, and most other runners): the failing and erroring
/// test cases with their messages and types.
struct JUnitReport {
    struct Case {
        var id: String
        var file: String?
        var line: Int?
        var failed = false
        var message = ""
        var type: String?
        var text = ""
    }

    var cases: [Case] = []

    /// Parses `data`; nil when it has no `testsuite`/`testsuites` element. Read by the one
    /// bounded `XMLReader` (no DTD, no entities but XML's own), as leniently as Foundation's
    /// parser (libxml2, recovering) did for the report's own elements: each start and end tag is
    /// taken as it comes, a report cut short gives the cases it closed; an unknown reference, a
    /// tag that is no name or nesting deeper than 256 fails. Bytes that are not UTF-8 read as
    /// U+FFFD; CDATA sections are not part of a failure's text.
    static func parse(_ data: Data) -> JUnitReport? {
        var reader = XMLReader(bytes: [UInt8](data))
        var builder = Builder()
        var depth = 0
        while let event = reader.next() {
            switch event {
            case .start(let range, let attributeRange, let selfClosing, _):
                guard let first = reader.bytes[range].first, isNameStart(first), depth < maxDepth else { return nil }
                let name = reader.string(range)
                let attributes = reader.attributes(attributeRange, selfClosing: selfClosing) ?? []
                builder.start(name, attributes: Dictionary(attributes, uniquingKeysWith: { first, _ in first }))
                if selfClosing { builder.end(name) } else { depth += 1 }
            case .end(let range, _):
                depth = max(0, depth - 1)
                builder.end(reader.string(range))
            case .text(let range):
                guard let text = XMLReader.decoded(reader.bytes[range], inAttribute: false) else { return nil }
                builder.characters(text)
            case .cdata, .markup:
                break
            }
        }
        guard builder.sawSuite else { return nil }
        return JUnitReport(cases: builder.cases)
    }

    /// The deepest nesting read.
    static let maxDepth = 256

    /// Whether an element name may start with `byte`: a letter, `_`, `:` or a non-ASCII byte.
    private static func isNameStart(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
    }

    /// pytest writes `classname="tests.test_x"` `name="test_y"`: the id pytest prints is
    /// `tests/test_x.py::test_y` (a class adds `::Class`).
    static func testId(classname: String, name: String, file: String?) -> String {
        if let file, !file.isEmpty {
            let module = file.replacingOccurrences(of: ".py", with: "").replacingOccurrences(of: "/", with: ".")
            var rest = classname.hasPrefix(module) ? String(classname.dropFirst(module.count)) : ""
            if rest.hasPrefix(".") { rest.removeFirst() }
            return ([file] + rest.split(separator: ".").map(String.init) + [name]).joined(separator: "::")
        }
        var parts = classname.split(separator: ".").map(String.init)
        // A trailing capitalised part is a class; the rest is the module path.
        var classes: [String] = []
        while let last = parts.last, last.first?.isUppercase == true, parts.count > 1 {
            classes.insert(last, at: 0)
            parts.removeLast()
        }
        let path = parts.isEmpty ? "" : parts.joined(separator: "/") + ".py"
        return ([path] + classes + [name]).filter { !$0.isEmpty }.joined(separator: "::")
    }

    /// The cases, from the elements as they open and close.
    private struct Builder {
        var cases: [Case] = []
        var sawSuite = false
        private var current: Case?
        private var inFailure = false

        mutating func start(_ name: String, attributes: [String: String]) {
            switch name {
            case "testsuite", "testsuites": sawSuite = true
            case "testcase":
                let file = attributes["file"]
                current = Case(
                    id: JUnitReport.testId(
                        classname: attributes["classname"] ?? "", name: attributes["name"] ?? "?", file: file),
                    file: file, line: attributes["line"].flatMap { Int($0) }.map { $0 + 1 })
            case "failure", "error":
                guard current != nil else { return }
                current!.failed = true
                current!.message = attributes["message"] ?? ""
                current!.type = attributes["type"]
                inFailure = true
            default: break
            }
        }

        mutating func characters(_ string: String) {
            if inFailure, current != nil, current!.text.utf8.count < 64 << 10 { current!.text += string }
        }

        mutating func end(_ name: String) {
            switch name {
            case "failure", "error": inFailure = false
            case "testcase":
                if let done = current { cases.append(done) }
                current = nil
            default: break
            }
        }
    }
}

extension JUnitReport {
    /// One test-failure signal for every failing case; nil when none fails.
    func signal() -> Signal? {
        let failing = cases.filter(\.failed)
        guard let first = failing.first else { return nil }
        // The failure text is pytest's traceback (long form): read its positions and E lines.
        let detail = PytestReport(output: "=== FAILURES ===\n___ \(first.id) ___\n" + first.text)
        var locations = (detail.failures.first?.locations ?? []).reversed().map { $0 }
        if locations.isEmpty, let file = first.file { locations = [Signal.Location(file: file, line: first.line)] }
        var type = first.type.map { $0.split(separator: ".").last.map(String.init) ?? $0 }
        if type == nil || type == "" { type = detail.failures.first?.exceptionType }
        let message = first.message.split(whereSeparator: \.isNewline).first.map(String.init) ?? first.message
        return Signal(
            kind: .testFailure, source: "junit",
            message: "\(failing.count) failing test\(failing.count == 1 ? "" : "s"): \(first.id) - \(message)",
            locations: locations, failingTests: failing.map(\.id), exceptionType: type,
            topFrames: locations.prefix(3).map { "\(PythonTraceback.baseName($0.file)):\($0.function ?? "")" })
    }
}
