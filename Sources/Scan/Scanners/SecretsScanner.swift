import Adapters
import Findings
import Foundation
import SAST

/// The secrets detector over every selected text file.
public struct SecretsScanner: Adapters.Scanner {
    public let name = "secrets"
    public let kind = ScannerKind.secrets
    private let detector = SecretsDetector()

    public init() {}

    public func applies(to target: ScanTarget) -> Bool { !target.files.isEmpty }

    public func scan(_ target: ScanTarget, context: ScanContext) throws -> ScannerOutput {
        var findings: [Finding] = []
        var unread: [SkippedFile] = []
        for (index, file) in target.files.enumerated() {
            if index % 64 == 0 { context.progress(.file(tool: name, index: index, total: target.files.count, path: file)) }
            guard let data = FileManager.default.contents(atPath: target.absolute(file)) else {
                unread.append(SkippedFile(file: file, reason: "cannot read"))
                continue
            }
            findings += detector.scan(file: file, bytes: Array(data))
        }
        var output = ScannerOutput(findings: findings, rules: SecretsDetector.descriptors,
                                   tool: ToolRun(name: name, version: nil, status: .succeeded))
        output.skippedFiles = unread
        return output
    }
}
