import Foundation
import Testing

/// `../shared/corpora` beside the package, read in place (never copied into the project).
public enum Corpora {
    /// The corpora directory: Tests/TestSupport → package root → ../shared/corpora.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpora")

    /// `relative` under the corpora directory.
    public static func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }

    /// Whether every one of `relatives` exists under the corpora directory.
    public static func present(_ relatives: [String]) -> Bool {
        relatives.allSatisfy { FileManager.default.fileExists(atPath: path($0)) }
    }

    /// CI (`.ci/run` sets `SENTINEL_REQUIRE_CORPORA=1`) runs every corpus test: a missing corpus is a
    /// failure there, not a silent skip. Elsewhere a test whose corpus is absent is skipped.
    public static let required = ProcessInfo.processInfo.environment["SENTINEL_REQUIRE_CORPORA"] == "1"
}

extension Trait where Self == ConditionTrait {
    /// Runs the test when `relatives` exist under `../shared/corpora`, and always in CI, where a missing
    /// corpus then fails the test instead of skipping it.
    public static func needsCorpus(_ relatives: String...) -> Self {
        .enabled(
            if: Corpora.required || Corpora.present(relatives),
            "needs ../shared/corpora/\(relatives.joined(separator: ", "))")
    }
}
