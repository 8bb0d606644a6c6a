import Documents

/// `pyproject.toml` as a source of PyPI dependencies: PEP 621 `[project]` `dependencies` and
/// `optional-dependencies`, PEP 735 `[dependency-groups]`, and Poetry's `[tool.poetry]`
/// `dependencies`, `dev-dependencies` and `group.*.dependencies` (`python` aside). Every entry is
/// read as a requirements file's line is (`RequirementsParser.read`): an exact pin is matched
/// against advisories, a range is "not pinned", extras and markers go to the notes, a direct
/// reference is an `info` notice. Each is reported at the line of its own entry.
///
/// A poetry.lock, uv.lock or pdm.lock read beside it wins (`LockfileDeferringManifestParser`):
/// it records what is installed, this file only what is asked for.
public struct PyprojectParser: LockfileDeferringManifestParser {
    /// The format name results carry.
    public static let format = "pyproject.toml"
    /// File names this parser reads.
    public static let fileNames = ["pyproject.toml"]
    /// The lockfiles, beside it, of the tools whose projects it declares.
    public static let deferredToLockfiles = ["poetry.lock", "uv.lock", "pdm.lock"]

    /// A parser; it needs no configuration.
    public init() {}

    /// Parses one file; throws `SentinelError(.invalidInput, "FILE:LINE: ...")` when it is not
    /// TOML, or when a section it reads has the wrong shape (`dependencies = "requests"`).
    public func parse(_ bytes: [UInt8], file: String) throws -> LockfileResult {
        let root = try TOML.parse(bytes, file: file)
        var reading = Reading(file: file)
        if let project = try reading.table(root, "project", path: "project") {
            for entry in try reading.array(project, "dependencies", path: "project.dependencies") {
                reading.add(entry, section: "project.dependencies")
            }
            let optional = try reading.table(project, "optional-dependencies", path: "project.optional-dependencies")
            for extra in optional?.members ?? [] {
                let section = "project.optional-dependencies.\(extra.key)"
                for entry in try reading.array(extra, path: section) { reading.add(entry, section: section) }
            }
        }
        if let groups = try reading.table(root, "dependency-groups", path: "dependency-groups") {
            try reading.dependencyGroups(groups)
        }
        if let tool = try reading.table(root, "tool", path: "tool"),
            let poetry = try reading.table(tool, "poetry", path: "tool.poetry")
        {
            try reading.poetry(poetry)
        }
        return reading.result()
    }
}

extension PyprojectParser {
    /// What one file yields, gathered section by section.
    private struct Reading {
        let file: String
        var dependencies: [Dependency] = []
        var problems: [LockfileProblem] = []

        init(file: String) {
            self.file = file
        }

        /// Dependencies in file order, one per (name, version); a "not pinned" notice for each
        /// that has no exact version, as a requirements file gives.
        func result() -> LockfileResult {
            // Sections are read in a fixed order, not the file's: sort back, keeping the first
            // of a name written twice on one line (Poetry's alternatives) first.
            let ordered = deduplicated(byLine(dependencies, \.line))
            let notices = byLine(problems + ordered.filter { $0.version == nil }.map(RequirementsParser.notPinned), \.line)
            return LockfileResult(
                file: file, format: PyprojectParser.format, dependencies: ordered, problems: notices)
        }

        // MARK: Shapes

        /// The table at `key`, nil when absent; throws when it is something else.
        func table(_ node: DocumentNode, _ key: String, path: String) throws -> DocumentNode? {
            guard let member = node.member(key) else { return nil }
            guard member.value.isObject else { throw malformed(file, member.line, "'\(path)' must be a table") }
            return member.value
        }

        /// The elements of the array at `key`, empty when absent; throws when it is something else.
        func array(_ node: DocumentNode, _ key: String, path: String) throws -> [DocumentNode] {
            guard let member = node.member(key) else { return [] }
            return try array(member, path: path)
        }

        /// The elements of `member`'s array; throws when it holds something else.
        func array(_ member: DocumentMember, path: String) throws -> [DocumentNode] {
            guard member.value.isArray else { throw malformed(file, member.line, "'\(path)' must be an array") }
            return member.value.elements
        }

        // MARK: Requirements

        /// A PEP 508 requirement string of `section`, at its own line.
        mutating func add(_ entry: DocumentNode, section: String) {
            guard let text = entry.string else {
                problems.append(.init(.warning, file: file, line: entry.line, "\(section): an entry is not a requirement string"))
                return
            }
            switch RequirementsParser.read(ArraySlice(text.utf8), file: file, line: entry.line, unit: "requirement") {
            case .requirement(let requirement): append(requirement, line: entry.line, section: section)
            case .notMatchable(let problem): problems.append(problem)
            }
        }

        private mutating func append(_ requirement: Requirement, line: Int, section: String, python: String? = nil) {
            var dependency = RequirementsParser.dependency(requirement, file: file, line: line)
            dependency.notes["section"] = section
            if let python { dependency.notes["python"] = python }
            dependencies.append(dependency)
        }

        // MARK: PEP 735

        /// Every group's requirement strings are read (a scan covers all of them, so an included
        /// group adds nothing new); `{include-group = NAME}` entries are followed to check them as
        /// PEP 735 asks: an undefined group or a cycle is an `error` (the group's own strings are
        /// still read), and each group is followed once, so the walk is linear in the file.
        mutating func dependencyGroups(_ groups: DocumentNode) throws {
            var defined: [String: String] = [:]
            var includes: [String: [(target: String, line: Int)]] = [:]
            for group in groups.members {
                let section = "dependency-groups.\(group.key)"
                let name = RequirementsParser.normalized(group.key)
                if defined[name] == nil { defined[name] = group.key }
                for entry in try array(group, path: section) {
                    if entry.isObject {
                        guard entry.members.count == 1, let target = entry["include-group"]?.string else {
                            problems.append(
                                .init(
                                    .warning, file: file, line: entry.line,
                                    "\(section): a table entry must be {include-group = \"NAME\"}"))
                            continue
                        }
                        includes[name, default: []].append((target, entry.line))
                    } else {
                        add(entry, section: section)
                    }
                }
            }
            var finished = Set<String>()
            for group in groups.members {
                follow(RequirementsParser.normalized(group.key), defined: defined, includes: includes, finished: &finished)
            }
        }

        /// Walks the includes reachable from `group` depth first, with a stack of its own rather
        /// than recursion (a chain of thousands of groups is only a long file), skipping groups
        /// already `finished`: each group and each include is looked at once.
        private mutating func follow(
            _ group: String, defined: [String: String], includes: [String: [(target: String, line: Int)]],
            finished: inout Set<String>
        ) {
            guard !finished.contains(group) else { return }
            // The groups being followed, outermost first, each with its next include; including
            // one of them again is a cycle.
            var stack: [(group: String, next: Int)] = [(group, 0)]
            var onStack: [String: Int] = [group: 0]
            while let top = stack.last {
                let (current, next) = top
                let list = includes[current] ?? []
                guard next < list.count else {
                    stack.removeLast()
                    onStack[current] = nil
                    finished.insert(current)
                    continue
                }
                stack[stack.count - 1].next += 1
                let include = list[next]
                let target = RequirementsParser.normalized(include.target)
                if defined[target] == nil {
                    problems.append(
                        .init(
                            .error, file: file, line: include.line,
                            "dependency group '\(include.target)' is included but not defined"))
                } else if let start = onStack[target] {
                    let cycle = (stack[start...].map(\.group) + [target]).map { defined[$0] ?? $0 }
                    problems.append(
                        .init(.error, file: file, line: include.line, "dependency group include cycle: \(Self.shown(cycle))"))
                } else if !finished.contains(target) {
                    onStack[target] = stack.count
                    stack.append((target, 0))
                }
            }
        }

        /// A cycle's groups joined by arrows; a long one by its ends, so the notice stays one line.
        private static func shown(_ cycle: [String]) -> String {
            guard cycle.count > 9 else { return cycle.joined(separator: " -> ") }
            return (cycle.prefix(4) + ["... (\(cycle.count - 8) more)"] + cycle.suffix(4)).joined(separator: " -> ")
        }

        // MARK: Poetry

        /// `[tool.poetry.dependencies]`, the older `dev-dependencies` and every
        /// `[tool.poetry.group.NAME.dependencies]`: a key per package, `python` being the
        /// interpreter's own constraint.
        mutating func poetry(_ poetry: DocumentNode) throws {
            var sections: [(node: DocumentNode?, path: String)] = [
                (try table(poetry, "dependencies", path: "tool.poetry.dependencies"), "tool.poetry.dependencies"),
                (try table(poetry, "dev-dependencies", path: "tool.poetry.dev-dependencies"), "tool.poetry.dev-dependencies"),
            ]
            for group in try table(poetry, "group", path: "tool.poetry.group")?.members ?? [] {
                let path = "tool.poetry.group.\(group.key)"
                guard group.value.isObject else { throw malformed(file, group.line, "'\(path)' must be a table") }
                sections.append((try table(group.value, "dependencies", path: path + ".dependencies"), path + ".dependencies"))
            }
            for (node, path) in sections {
                for entry in node?.members ?? [] where entry.key.lowercased() != "python" {
                    poetryEntry(entry.key, entry.value, line: entry.line, section: path, alternatives: true)
                }
            }
        }

        /// One package: a constraint string, a table (`version`, `extras`, `markers`, `python`, or
        /// a `git`/`path`/`url` source), or, once, an array of those for different environments.
        private mutating func poetryEntry(
            _ name: String, _ value: DocumentNode, line: Int, section: String, alternatives: Bool
        ) {
            switch value.value {
            case .string(let constraint):
                poetryRequirement(name, constraint: constraint, extras: [], markers: "", line: line, section: section)
            case .object:
                if let source = ["git", "path", "url"].first(where: { value[$0] != nil }) {
                    let location = value[source]?.string ?? source
                    problems.append(
                        .init(
                            .info, file: file, line: line,
                            "\(name) comes from a direct reference (\(location)), not matched against advisories"))
                    return
                }
                guard value["version"] == nil || value["version"]?.string != nil else {
                    problems.append(.init(.warning, file: file, line: line, "\(section): \(name)'s version is not a string"))
                    return
                }
                poetryRequirement(
                    name, constraint: value.string("version") ?? "*", extras: value.array("extras").compactMap(\.string),
                    markers: value.string("markers") ?? "", python: value.string("python"), line: line, section: section)
            case .array(let choices) where alternatives:
                // `[{version = "1.0", python = "<3.8"}, {version = "2.0", python = ">=3.8"}]`: each
                // at its own line.
                for choice in choices {
                    poetryEntry(name, choice, line: choice.line, section: section, alternatives: false)
                }
            default:
                problems.append(.init(.warning, file: file, line: line, "\(section): \(name) is not understood"))
            }
        }

        /// Reads Poetry's constraint as a PEP 508 requirement, with the requirements reader. Its own
        /// operators (`^1.2`, `~1.2`, `1.0 || 2.0`) are not PEP 440 and never exact: the package is
        /// then read without them and reported "not pinned" with the constraint as written.
        private mutating func poetryRequirement(
            _ name: String, constraint: String, extras: [String], markers: String, python: String? = nil,
            line: Int, section: String
        ) {
            let written = constraint.trimmingSpaces()
            let head = name + (extras.isEmpty ? "" : "[" + extras.joined(separator: ",") + "]")
            let tail = markers.isEmpty ? "" : " ; " + markers
            let first = RequirementsParser.read(
                ArraySlice((head + Self.pep440(poetry: written) + tail).utf8), file: file, line: line, unit: "requirement")
            if case .requirement(let requirement) = first {
                append(requirement, line: line, section: section, python: python)
                return
            }
            if case .requirement(var requirement) = RequirementsParser.read(
                ArraySlice((head + tail).utf8), file: file, line: line, unit: "requirement")
            {
                requirement.specifier = written
                append(requirement, line: line, section: section, python: python)
                return
            }
            if case .notMatchable(let problem) = first { problems.append(problem) }
        }

        /// Poetry's constraint as a PEP 440 specifier: a bare version is exact (`"1.2.3"` is
        /// `==1.2.3`, as is `=1.2.3`), `*` and an empty constraint allow any version.
        static func pep440(poetry constraint: String) -> String {
            guard let first = constraint.utf8.first, constraint != "*" else { return "" }
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) { return "==" + constraint }
            if constraint.hasPrefix("="), !constraint.hasPrefix("==") { return "=" + constraint }
            return constraint
        }
    }
}

/// Orders items by their line, keeping the order of those on one line.
private func byLine<Item>(_ items: [Item], _ line: (Item) -> Int) -> [Item] {
    items.enumerated().sorted { (line($0.element), $0.offset) < (line($1.element), $1.offset) }.map(\.element)
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> String {
        let bytes = Array(utf8)
        guard let start = bytes.firstIndex(where: { !Requirement.isSpace($0) }),
            let end = bytes.lastIndex(where: { !Requirement.isSpace($0) })
        else { return "" }
        return String(decoding: bytes[start...end], as: UTF8.self)
    }
}
