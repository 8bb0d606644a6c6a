import Adapters
import Findings
import Foundation
import SAST

/// The secrets detector over every selected text file.
public struct SecretsScanner: Adapters.Scanner {
    /// Selected by `--tools secrets`; findings carry it as their tool.
    public let name = "secrets"
    /// Secrets detection, selected by `--secrets`.
    public let kind = ScannerKind.secrets
    private let detector = SecretsDetector()

    /// Makes the secrets scanner; it has no options.
    public init() {}

    /// Whether any file is selected; every text file may hold a secret.
    public func applies(to target: ScanTarget) -> Bool { !target.files.isEmpty }

    /// Looks for credentials in the target's files; found values are redacted.
    public func scan(_ target: ScanTarget, context: ScanContext) throws -> ScannerOutput {
        var findings: [Finding] = []
        var unread: [SkippedFile] = []
        for (index, file) in target.files.enumerated() {
            if index % 64 == 0 { context.progress(.file(tool: name, index: index, total: target.files.count, path: file)) }
            guard let data = try? target.read(file) else {
                unread.append(SkippedFile(file: file, reason: "cannot read"))
                continue
            }
            findings += detector.scan(file: file, bytes: Array(data))
        }
        var output = ScannerOutput(
            findings: findings, rules: SecretsDetector.descriptors,
            tool: ToolRun(name: name, version: nil, status: .succeeded))
        output.skippedFiles = unread
        return output
    }
}
