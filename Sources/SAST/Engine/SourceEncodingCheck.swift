import Findings
import PythonSyntax

/// Reads a Python file as CPython does (its PEP 263 `coding:` cookie decides) and reports a file
/// whose declared encoding makes the code Python runs differ from the code a reader sees: never a
/// silently clean file.
public enum SourceEncodingCheck {
    /// The rule findings of this check carry.
    public static let descriptor = RuleDescriptor(
        id: "sentinel.source-encoding-evasion", name: "source-encoding-evasion",
        shortDescription: "The declared source encoding hides code from readers",
        fullDescription:
            "The file declares an encoding (unicode_escape, raw_unicode_escape, utf-7, or one Sentinel cannot decode as Python does) under which plain ASCII reads as other characters: `# \\u000aos.system(...)` is a comment to a reader and a call to Python. Remove the coding declaration or use UTF-8.",
        defaultSeverity: .high, cwe: [116], tags: ["obfuscation"], precision: .high)

    /// What to analyse: the decoded text, or nil when it cannot be decoded faithfully (the file is
    /// then not analysed); and the finding when the declared encoding hides code.
    public static func read(_ bytes: [UInt8], file: String) -> (text: String?, finding: Finding?) {
        do {
            let source = try PythonSource(bytes: bytes, fileName: file)
            guard source.rewritesASCII, let name = source.declaredEncoding else { return (source.text, nil) }
            return (
                source.text,
                finding(
                    file: file,
                    "declares \(name), under which plain ASCII reads as other characters: what Python runs differs from what the file shows (analysed as Python decodes it)"
                )
            )
        } catch let error as PythonSyntaxError where error.code == .unsupportedEncoding {
            return (nil, finding(file: file, "\(error.message): what Python runs may differ from what the file shows (not analysed)"))
        } catch {
            // CPython refuses these bytes too; the parser says why.
            return (String(decoding: bytes, as: UTF8.self), nil)
        }
    }

    private static func finding(file: String, _ message: String) -> Finding {
        Finding(
            ruleId: descriptor.id, severity: .high, confidence: .high, message: message,
            location: Location(file: file, startLine: 1, startColumn: 1), cwe: descriptor.cwe)
    }
}
