import Foundation
import Testing

@testable import SCA

/// Sentinel's reading of requirements files against pip's own, on 500 seeded random inputs (BOMs,
/// UTF-16, latin-1, cp1252, cp1251, cp1250, koi8-r, latin-2 and latin-9 declarations, every Python
/// line break, Unicode spaces, comments and continuations) whose logical lines pip 24.2 computed:
/// `Fixtures/pip/generate.py`.
@Suite struct PipLinesDifferentialTests {
    private struct Case: Decodable {
        let input: String
        let lines: [[Line]]

        enum Line: Decodable {
            case number(Int)
            case text(String)

            init(from decoder: Decoder) throws {
                let value = try decoder.singleValueContainer()
                if let number = try? value.decode(Int.self) {
                    self = .number(number)
                } else {
                    self = .text(try value.decode(String.self))
                }
            }

            var shown: String {
                switch self {
                case .number(let number): String(number)
                case .text(let text): text
                }
            }
        }
    }

    @Test func pipReadsTheseLinesAndSoDoesSentinel() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/pip/pip-lines.json")
        let cases = try JSONDecoder().decode([Case].self, from: Data(contentsOf: path))
        #expect(cases.count == 500)
        for item in cases {
            let bytes = [UInt8](Data(base64Encoded: item.input) ?? Data())
            guard case .text(let text) = PipText.decode(bytes) else {
                Issue.record("refused: \(item.input)")
                continue
            }
            let ours = RequirementsParser.logicalLines(PipText.lines(text)).map { "\($0.number) \($0.text)" }
            let pips = item.lines.map { $0.map(\.shown).joined(separator: " ") }
            #expect(ours == pips, "input \(item.input)")
        }
    }
}
