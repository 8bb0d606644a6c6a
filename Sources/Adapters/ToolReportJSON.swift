import Findings
import Documents
import Foundation
import Support

/// A tool's JSON report read through `Documents.JSON`, and the loose field access reports need:
/// tools write numbers as strings now and then, and a single string where a list is documented.
enum ToolReportJSON {
    /// The report in `data`. Throws a one-line reason (`no JSON output`, `unreadable JSON output
    /// (N bytes): ...`) for the caller to put after `TOOL failed: `.
    static func parse(_ data: Data, tool: ToolName) throws -> DocumentNode {
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw SentinelError(.toolFailed, "\(tool) failed: no JSON output")
        }
        do {
            return try JSON.parse([UInt8](data), file: "\(tool) report")
        } catch let error as SentinelError {
            throw SentinelError(.toolFailed, "\(tool) failed: unreadable JSON output (\(data.count) bytes): \(error.message)")
        }
    }
}

extension DocumentNode {
    /// The elements of an array; nil for anything else.
    var array: [DocumentNode]? { isArray ? elements : nil }

    /// A whole number written as a number or as a numeric string.
    var int: Int? {
        switch value {
        case .integer(let number): number
        case .double(let number) where number.rounded() == number && abs(number) < 1e15: Int(number)
        case .string(let text): Int(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }

    /// A string as a one-element list, or the strings of an array.
    var strings: [String] {
        if let text = string { return [text] }
        return elements.compactMap(\.string)
    }
}
