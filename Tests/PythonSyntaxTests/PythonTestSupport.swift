import Foundation
import Testing

@testable import PythonSyntax
import TestSupport

/// Helpers shared by the Python parser tests.
enum PyTest {
    /// Parses `source` as a module and returns the S-expression of its only expression statement.
    static func expr(_ source: String) throws -> String {
        let module = try PythonParser.parseModule(source: source + "\n", fileName: "t.py")
        let stmts = module.root.children
        guard stmts.count == 1, stmts[0].kind == .exprStmt else { return "not one expression: " + module.root.sexpr }
        return stmts[0].children[0].sexpr
    }

    /// S-expression of a whole module.
    static func module(_ source: String) throws -> String {
        try PythonParser.parseModule(source: source, fileName: "t.py").root.sexpr
    }

    /// The error thrown for `source`, or nil when it parses.
    static func error(_ source: String) -> PythonSyntaxError? {
        do {
            _ = try PythonParser.parseModule(source: source, fileName: "t.py")
            return nil
        } catch let e as PythonSyntaxError {
            return e
        } catch {
            return PythonSyntaxError(
                .unexpectedToken, file: "?", line: 0, column: 0, message: "wrong error type \(error)")
        }
    }

    /// `../shared/corpora` beside the package (TestSupport's one `Corpora.root`).
    static let corpora: URL = Corpora.root

    /// Directories of the Python corpus.
    static let corpusDirectories = ["bandit/examples", "semgrep-rules/python"].map {
        corpora.appendingPathComponent($0)
    }

    static var corpusPresent: Bool {
        corpusDirectories.allSatisfy { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// Every `.py` file of the corpus, sorted.
    static func corpusFiles() -> [URL] {
        var out: [URL] = []
        for dir in corpusDirectories {
            guard let e = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in e where url.pathExtension == "py" { out.append(url) }
        }
        return out.sorted { $0.path < $1.path }
    }

    /// Path of a `python3` executable (`SENTINEL_PYTHON` overrides, e.g. to compare with 3.12), if any.
    static let python3: String? = {
        if let forced = ProcessInfo.processInfo.environment["SENTINEL_PYTHON"] { return forced }
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = "\(dir)/python3"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }()
}
