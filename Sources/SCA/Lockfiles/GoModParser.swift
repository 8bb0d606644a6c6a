import Foundation

/// `go.mod`: `require` lines and blocks (`// indirect` marks transitive ones), `replace`
/// directives (a replacement module and version take the original's place; local paths are
/// reported), and the `go` directive as the `stdlib` dependency at that Go version.
public struct GoModParser: LockfileParser {
    /// The format name results carry.
    public static let format = "go.mod"
    /// File names this parser reads.
    public static let fileNames = ["go.mod"]

    /// A parser; it needs no configuration.
    public init() {}

    private struct Replacement {
        let oldVersion: String?
        let newPath: String
        let newVersion: String?
        let line: Int
    }

    /// Parses one file; throws `SentinelError(.invalidInput, "FILE:LINE: ...")` when it is malformed.
    public func parse(_ bytes: [UInt8], file: String) throws -> LockfileResult {
        var result = LockfileResult(file: file, format: Self.format)
        var requires: [Dependency] = []
        var replacements: [String: [Replacement]] = [:]
        var block: String?
        var sawModule = false
        let lines = TextLines.lineFeedLines(bytes)
        for line in lines {
            // The go command ends lines at `\n` only; `\r` is whitespace like space and tab.
            var text = String(line.text.map { $0 == "\r" ? " " : $0 })
            var comment = ""
            if let slashes = text.range(of: "//") {
                comment = text[slashes.upperBound...].trimmingCharacters(in: .whitespaces)
                text = String(text[..<slashes.lowerBound])
            }
            let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let first = words.first else { continue }
            if let current = block {
                if first == ")" {
                    block = nil
                    continue
                }
                try directive(
                    current, words, comment: comment, line: line.number, file: file,
                    requires: &requires, replacements: &replacements, result: &result)
                continue
            }
            if words.count == 2, words[1] == "(" {
                block = first
                continue
            }
            if first == "module" { sawModule = true }
            try directive(
                first, Array(words.dropFirst()), comment: comment, line: line.number, file: file,
                requires: &requires, replacements: &replacements, result: &result)
        }
        if let block {
            throw malformed(file, lines.last?.number ?? 0, "unterminated \(block) ( block")
        }
        if !sawModule, !requires.isEmpty || !result.dependencies.isEmpty {
            result.problems.append(.init(.warning, file: file, line: 0, "no module directive"))
        }
        for var dependency in requires {
            let candidates = replacements[dependency.name] ?? []
            if let replacement = candidates.first(where: { $0.oldVersion == dependency.version })
                ?? candidates.first(where: { $0.oldVersion == nil })
            {
                guard let newVersion = replacement.newVersion else {
                    result.problems.append(
                        .init(
                            .info, file: file, line: replacement.line,
                            "\(dependency.name) is replaced by local path \(replacement.newPath), not matched against advisories"
                        ))
                    continue
                }
                dependency.notes["replaces"] = "\(dependency.name)@\(dependency.version ?? "")"
                dependency.notes["replaceLine"] = String(replacement.line)
                dependency.name = replacement.newPath
                dependency.version = newVersion
                if dependency.isDirect { dependency.path = [replacement.newPath] }
            }
            result.dependencies.append(dependency)
        }
        result.dependencies = deduplicated(result.dependencies)
        return result
    }

    private func directive(
        _ verb: String, _ words: [String], comment: String, line: Int, file: String,
        requires: inout [Dependency], replacements: inout [String: [Replacement]],
        result: inout LockfileResult
    ) throws {
        let words = words.map(Self.unquoted)
        switch verb {
        case "require":
            guard words.count == 2 else { throw malformed(file, line, "require needs a module path and a version") }
            let indirect = comment.split(separator: ";").contains {
                $0.trimmingCharacters(in: .whitespaces) == "indirect"
            }
            requires.append(
                Dependency(
                    ecosystem: .go, name: words[0], version: words[1], file: file, line: line,
                    isDirect: !indirect, path: indirect ? [] : [words[0]],
                    notes: indirect ? ["indirect": "true"] : [:]))
        case "replace":
            guard let arrow = words.firstIndex(of: "=>"), arrow >= 1, arrow <= 2, words.count - arrow - 1 >= 1,
                words.count - arrow - 1 <= 2
            else {
                throw malformed(file, line, "replace needs 'old [version] => new [version]'")
            }
            let target = Array(words[(arrow + 1)...])
            replacements[words[0], default: []].append(
                Replacement(
                    oldVersion: arrow == 2 ? words[1] : nil, newPath: target[0],
                    newVersion: target.count == 2 ? target[1] : nil, line: line))
        case "go":
            guard words.count == 1 else { throw malformed(file, line, "go directive needs one version") }
            result.dependencies.append(
                Dependency(
                    ecosystem: .go, name: "stdlib", version: words[0], file: file, line: line,
                    notes: ["directive": "go"]))
        case "toolchain":
            guard words.count == 1 else { throw malformed(file, line, "toolchain directive needs one name") }
            // `toolchain go1.21.5` names the exact standard library the build uses.
            if let index = result.dependencies.firstIndex(where: { $0.name == "stdlib" }) {
                result.dependencies[index].notes["toolchain"] = words[0]
            }
        case "module", "exclude", "retract", "godebug", "tool", "ignore":
            break
        default:
            throw malformed(file, line, "unknown directive '\(verb)'")
        }
    }

    static func unquoted(_ word: String) -> String {
        if word.count >= 2,
            (word.hasPrefix("\"") && word.hasSuffix("\"")) || (word.hasPrefix("`") && word.hasSuffix("`"))
        {
            return String(word.dropFirst().dropLast())
        }
        return word
    }
}
