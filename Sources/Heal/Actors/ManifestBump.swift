import Foundation
import SCA

/// Rewrites the pin of one package in a Python manifest or lockfile to another version,
/// changing only the version text: comments, extras, markers, spacing and the operator (`==`,
/// `~=`, `>=`, Poetry's `^`) stay as they were. What it cannot redo — `--hash` lines, a
/// lockfile's hashes — is kept as written and reported, never silently broken.
public enum ManifestBump {
    /// The new text and what the evidence must say, or nil when `text` pins no `package` at `from`.
    public struct Result: Sendable, Hashable {
        /// The rewritten file.
        public var text: String
        /// Warnings for the evidence.
        public var notes: [String]
    }

    /// Rewrites `package` from `from` to `to` in `text`, a file named `path`.
    public static func bump(_ text: String, path: String, package: String, from: String, to: String) -> Result? {
        let name = (path as NSString).lastPathComponent.lowercased()
        if name == "poetry.lock" || name == "pdm.lock" || name == "uv.lock" {
            return lockBlock(text, path: path, package: package, from: from, to: to)
        }
        if name == "pipfile.lock" { return pipfileLock(text, path: path, package: package, from: from, to: to) }
        return lines(text, path: path, package: package, from: from, to: to)
    }

    /// PEP 503, as the OSV index keys PyPI names.
    static func normalised(_ name: String) -> String { Ecosystem.pypi.normalisedPackageName(name) }

    /// requirements files, pyproject.toml, Pipfile, setup.cfg: every line naming the package
    /// whose version specifier holds `from`.
    private static func lines(_ text: String, path: String, package: String, from: String, to: String) -> Result? {
        var lines = text.components(separatedBy: "\n")
        let wanted = normalised(package)
        var changed = false
        var notes: [String] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let code = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            if let range = requirementVersion(in: code, package: wanted, version: from)
                ?? rangeRequirement(in: code, package: wanted)
            {
                lines[index] = line.replacingCharacters(in: range, with: to)
                changed = true
                // The hashes of this requirement (on its line or continuation lines) pin the old files.
                var end = index
                var hasHash = line.contains("--hash")
                while lines[end].hasSuffix("\\"), end + 1 < lines.count {
                    end += 1
                    hasHash = hasHash || lines[end].contains("--hash")
                }
                if hasHash {
                    notes.append(
                        "\(path):\(index + 1): the --hash values of \(package) pin \(from) and were not recomputed; "
                            + "regenerate them (pip-compile --generate-hashes) before installing with --require-hashes")
                }
                index = end
            }
            index += 1
        }
        return changed ? Result(text: lines.joined(separator: "\n"), notes: notes) : nil
    }

    /// The range of `version` in a specifier that follows `package` in `code` (the part of a line
    /// before any comment): `name[extras] OP version`, `"name OP version"`, `name = "OP version"`.
    static func requirementVersion(in code: String, package: String, version: String) -> Range<String.Index>? {
        var search = code.startIndex
        while let hit = code.range(of: version, range: search..<code.endIndex) {
            search = hit.upperBound
            // Whole version only: not 1.0.10 for 1.0.1, not 21.0 for 1.0.
            if hit.upperBound < code.endIndex {
                let next = code[hit.upperBound]
                if next.isNumber || next.isLetter || next == "." || next == "-" || next == "_" { continue }
            }
            if hit.lowerBound > code.startIndex {
                let previous = code[code.index(before: hit.lowerBound)]
                if previous.isNumber || previous.isLetter || previous == "." { continue }
            }
            // The name this specifier belongs to: the last identifier before the operator.
            let head = code[..<hit.lowerBound]
            guard let name = lastName(in: head), normalised(name) == package else { continue }
            return hit
        }
        return nil
    }

    /// For a range the installed version is not written in (`pkg~=0.9.0` installed as 0.9.1,
    /// `pkg>=0.9`): the version of a single `~=` or `>=` specifier of `package`, so the bump keeps
    /// the operator (`~=1.0.0`). An exact pin of another version is not the one installed: left alone.
    static func rangeRequirement(in line: String, package: String) -> Range<String.Index>? {
        // Environment markers (`; python_version >= "3.8"`) are not the package's specifier.
        let code = line[..<(line.firstIndex(of: ";") ?? line.endIndex)]
        for op in ["~=", ">="] {
            guard let opRange = code.range(of: op) else { continue }
            guard let name = lastName(in: code[..<opRange.lowerBound]), normalised(name) == package else { continue }
            let rest = code[opRange.upperBound...]
            let start = rest.firstIndex { !$0.isWhitespace } ?? rest.endIndex
            let end = rest[start...].firstIndex { !($0.isNumber || $0.isLetter || $0 == "." || $0 == "*" || $0 == "+") } ?? rest.endIndex
            guard start < end, !rest[end...].contains(",") else { return nil }
            return start..<end
        }
        return nil
    }

    /// The package name a specifier at the end of `head` belongs to.
    private static func lastName(in head: Substring) -> String? {
        // Drop the operator, quotes, spaces, `=` and a `version =` key of an inline table.
        var text = String(head)
        for noise in ["version", "{", "}"] { text = text.replacingOccurrences(of: noise, with: " ") }
        let cut = text.split(whereSeparator: {
            !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." || $0 == "[" || $0 == "]" || $0 == ",")
        })
        guard var last = cut.last.map(String.init) else { return nil }
        // An operator glued to the name (`pkg==`) was split off above; extras follow the name.
        if let bracket = last.firstIndex(of: "[") { last = String(last[..<bracket]) }
        last = last.trimmingCharacters(in: CharacterSet(charactersIn: ",."))
        return last.isEmpty ? nil : last
    }

    /// poetry.lock, pdm.lock, uv.lock: `[[package]]` blocks with `name = "…"` and `version = "…"`.
    private static func lockBlock(_ text: String, path: String, package: String, from: String, to: String) -> Result? {
        var lines = text.components(separatedBy: "\n")
        let wanted = normalised(package)
        var inPackage = false
        for index in lines.indices {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") { inPackage = false }
            if line.hasPrefix("name = "), normalised(quoted(line) ?? "") == wanted { inPackage = true }
            if inPackage, line.hasPrefix("version = "), quoted(line) == from {
                lines[index] = lines[index].replacingOccurrences(of: "\"\(from)\"", with: "\"\(to)\"")
                return Result(
                    text: lines.joined(separator: "\n"),
                    notes: [
                        "\(path):\(index + 1): the lockfile's hashes and dependency metadata for \(package) describe \(from) "
                            + "and were not recomputed; re-lock (e.g. poetry lock --no-update) before relying on them"
                    ])
            }
        }
        return nil
    }

    /// Pipfile.lock: `"name": {"hashes": [...], "version": "==1.0.0"}`.
    private static func pipfileLock(_ text: String, path: String, package: String, from: String, to: String) -> Result? {
        var lines = text.components(separatedBy: "\n")
        let wanted = normalised(package)
        var inPackage = false
        for index in lines.indices {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            if line.hasSuffix("{"), let key = quoted(line) { inPackage = normalised(key) == wanted }
            if inPackage, line.hasPrefix("\"version\""), line.contains("\"==\(from)\"") {
                lines[index] = lines[index].replacingOccurrences(of: "\"==\(from)\"", with: "\"==\(to)\"")
                return Result(
                    text: lines.joined(separator: "\n"),
                    notes: [
                        "\(path):\(index + 1): the hashes of \(package) pin \(from) and were not recomputed; run pipenv lock"
                    ])
            }
        }
        return nil
    }

    private static func quoted(_ line: String) -> String? {
        guard let open = line.firstIndex(of: "\"") else { return nil }
        let rest = line[line.index(after: open)...]
        guard let close = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<close])
    }
}
