import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

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

    /// Parses `data`; nil when it is not XML with `testsuite`/`testcase` elements.
    static func parse(_ data: Data) -> JUnitReport? {
        let delegate = Delegate()
        // Foundation's XMLParser traps on a name or attribute that is not UTF-8 (libxml2 passes
        // such bytes through): bad sequences become U+FFFD first, as SignalReader reads the text.
        let parser = XMLParser(data: Data(String(decoding: data, as: UTF8.self).utf8))
        parser.shouldResolveExternalEntities = false
        parser.delegate = delegate
        guard parser.parse(), delegate.sawSuite else { return nil }
        return JUnitReport(cases: delegate.cases)
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

    private final class Delegate: NSObject, XMLParserDelegate {
        var cases: [Case] = []
        var sawSuite = false
        private var current: Case?
        private var inFailure = false

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
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

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inFailure, current != nil, current!.text.utf8.count < 64 << 10 { current!.text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
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
