import Foundation
import Heal
import Testing

/// One `logic-*` fixture of Tests/Fixtures/heal: its one-line bug and the fix it expects.
struct LogicFixture: Sendable, CustomTestStringConvertible {
    /// The fixture's directory name, `logic-bfs-distance`.
    let name: String
    /// The buggy file, relative to the fixture.
    let file: String
    /// The 1-based line of the bug.
    let line: Int
    /// The line as shipped.
    let buggy: String
    /// What replaces it (several lines for a guard).
    let fixed: String

    var testDescription: String { name }

    /// The whole buggy file, read in place.
    func source() throws -> String {
        try String(contentsOfFile: LogicCorpus.directory + "/" + name + "/" + file, encoding: .utf8)
    }

    /// `source` with line `line` replaced by `fixed`, or nil when that line is not `buggy`.
    func fixedSource(_ source: String) -> String? {
        var lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard line >= 1, line <= lines.count, lines[line - 1] == buggy else { return nil }
        lines[line - 1] = fixed
        return lines.joined(separator: "\n")
    }
}

/// The logic fixtures, read from their `.fixture.json` files in place.
enum LogicCorpus {
    /// `Tests/Fixtures/heal`, found from this file's path so the tests run from any directory.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/heal").path

    /// The `bug` object of a `.fixture.json`.
    struct Bug: Decodable {
        let file: String
        let line: Int
        let buggy: String
        let fixed: String
    }

    /// A `.fixture.json` of kind `logic`.
    struct Metadata: Decodable {
        let kind: String
        let bug: Bug?
    }

    /// Every `logic-*` fixture, by name.
    static let fixtures: [LogicFixture] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasPrefix("logic-") }.sorted().compactMap { name in
            guard let data = FileManager.default.contents(atPath: directory + "/" + name + "/.fixture.json"),
                let metadata = try? JSONDecoder().decode(Metadata.self, from: data), metadata.kind == "logic",
                let bug = metadata.bug
            else { return nil }
            return LogicFixture(name: name, file: bug.file, line: bug.line, buggy: bug.buggy, fixed: bug.fixed)
        }
    }()
}

/// The repair templates against the fixture corpus: for every one-line bug, the candidates for
/// the buggy line include the fixture's own fix, word for word.
@Suite("Repair corpus")
struct RepairCorpusTests {
    @Test("the corpus is found and every logic fixture is read")
    func corpusIsRead() throws {
        let directories = try FileManager.default.contentsOfDirectory(atPath: LogicCorpus.directory).filter {
            $0.hasPrefix("logic-")
        }
        // Tests/Fixtures/heal/README.md: at least 22 logic fixtures.
        #expect(directories.count >= 22)
        #expect(LogicCorpus.fixtures.count == directories.count)
    }

    @Test("the candidates for the bug line include the fixture's fix", arguments: LogicCorpus.fixtures)
    func proposesTheFix(_ fixture: LogicFixture) throws {
        let source = try fixture.source()
        let expected = try #require(fixture.fixedSource(source), "line \(fixture.line) is not the fixture's buggy line")
        // The repair actor's own cap on candidates (200).
        let made = try RepairGenerator().candidates(
            path: fixture.file, source: source, suspicious: [SuspiciousLine(file: fixture.file, line: fixture.line, score: 1)])
        let rank = made.firstIndex { $0.change.after == expected }
        #expect(rank != nil, "no candidate of \(made.count) is `\(fixture.fixed)`")
    }
}
