import Foundation
import Support

/// pip requirements files: `==`/`===` pins with extras, markers and `--hash` options, `-r`
/// includes (relative to the including file, cycles reported), `-c` constraints that pin
/// otherwise unpinned names, and notices for unpinned, URL, VCS and editable lines.
public struct RequirementsParser: LockfileParser {
    /// The format name results carry.
    public static let format = "requirements.txt"
    /// File names this parser reads.
    public static let fileNames: [String] = []
    /// Name patterns this parser reads.
    public static let patterns = ["requirements*.txt", "*-requirements.txt", "*_requirements.txt", "requirements*.in"]

    /// Reads an included file given its path as the parser names it (`dir/base.txt`).
    public typealias Loader = @Sendable (String) throws -> [UInt8]

    private let loader: Loader

    /// `root` is the directory file names are relative to (the scan root); nil means the
    /// current directory. Includes are read through a `TreeReader` of it.
    public init(root: String? = nil) {
        self.loader = { path in try Self.read(path, from: TreeReader(path: root ?? ".")) }
    }

    /// Reads includes from `tree`, never outside it nor through a link (`TreeReader`).
    public init(tree: TreeReader) {
        self.loader = { path in try Self.read(path, from: tree) }
    }

    private static func read(_ path: String, from tree: TreeReader) throws -> [UInt8] {
        [UInt8](try tree.read(path, limit: Int(LockfileDetector.maxFileSize)))
    }

    /// A parser that reads includes through `loader`, for tests and in-memory use.
    public init(loader: @escaping Loader) {
        self.loader = loader
    }

    /// Parses one file; throws `SentinelError(.invalidInput, "FILE:LINE: ...")` when it is malformed.
    public func parse(_ bytes: [UInt8], file: String) throws -> LockfileResult {
        var state = State()
        state.active = [file]
        state.visited = [file]
        let lines: [(number: Int, text: String)]
        switch PipText.decode(bytes) {
        case .text(let text): lines = PipText.lines(text)
        case .refused(let why): throw malformed(file, 0, "not read: \(why)")
        }
        parseFile(lines, file: file, asConstraints: false, into: &state)
        applyConstraints(&state)
        return LockfileResult(
            file: file, format: Self.format, dependencies: deduplicated(state.dependencies),
            problems: state.problems)
    }

    private struct Pin {
        let version: String
        let file: String
        let line: Int
    }

    private struct State {
        var dependencies: [Dependency] = []
        var problems: [LockfileProblem] = []
        var constraints: [String: Pin] = [:]
        /// Files being read, outermost first: an include of one of these is a cycle.
        var active: [String] = []
        var visited: Set<String> = []
    }

    private static let maxIncludeDepth = 32

    /// Reads one file's physical lines (`PipText`), as pip split them.
    private func parseFile(
        _ physical: [(number: Int, text: String)], file: String, asConstraints: Bool, into state: inout State
    ) {
        defer {
            if !asConstraints {
                PipCompileAnnotations.apply(PipCompileAnnotations.vias(in: physical), to: &state.dependencies, file: file)
            }
        }
        let reportsUnpinned = !file.hasSuffix(".in")
        for logical in Self.logicalLines(physical) {
            let text = logical.bytes
            if text.isEmpty { continue }
            if text.first == UInt8(ascii: "-") {
                option(text, line: logical.number, file: file, asConstraints: asConstraints, into: &state)
                continue
            }
            let requirement: Requirement
            switch Self.read(text, file: file, line: logical.number, unit: "line") {
            case .requirement(let read): requirement = read
            case .notMatchable(let problem):
                state.problems.append(problem)
                continue
            }
            if asConstraints {
                if let pin = requirement.pin {
                    let key = Self.normalized(requirement.name)
                    if state.constraints[key] == nil {
                        state.constraints[key] = Pin(version: pin, file: file, line: logical.number)
                    }
                }
                continue
            }
            if requirement.pin == nil, !reportsUnpinned { continue }
            state.dependencies.append(Self.dependency(requirement, file: file, line: logical.number))
        }
    }

    private func option(
        _ text: ArraySlice<UInt8>, line: Int, file: String, asConstraints: Bool, into state: inout State
    ) {
        let words = String(decoding: text, as: UTF8.self)
        let (flag, argument) = Self.splitOption(words)
        switch flag {
        case "-r", "--requirement", "-c", "--constraint":
            guard let argument, !argument.isEmpty else {
                state.problems.append(.init(.warning, file: file, line: line, "\(flag) needs a file name"))
                return
            }
            include(
                argument, constraints: asConstraints || flag == "-c" || flag == "--constraint",
                line: line, file: file, into: &state)
        case "-e", "--editable":
            state.problems.append(
                .init(
                    .info, file: file, line: line,
                    "editable requirement not matched against advisories: \(argument ?? "")"))
        case "-i", "--index-url", "--extra-index-url", "-f", "--find-links", "--trusted-host", "--no-index",
            "--pre", "--prefer-binary", "--require-hashes", "--only-binary", "--no-binary", "--use-feature":
            break
        default:
            state.problems.append(.init(.warning, file: file, line: line, "unknown option ignored: \(flag)"))
        }
    }

    private func include(_ target: String, constraints: Bool, line: Int, file: String, into state: inout State) {
        if target.contains("://") {
            state.problems.append(.init(.info, file: file, line: line, "remote include not followed: \(target)"))
            return
        }
        let path = Self.resolve(target, relativeTo: file)
        // The scanned tree is untrusted: never read outside it on its say-so.
        if path.hasPrefix("/") || path.hasPrefix("../") || path == ".." {
            state.problems.append(
                .init(.warning, file: file, line: line, "include outside the scanned tree not followed: \(target)"))
            return
        }
        if state.active.contains(path) {
            let cycle = (state.active.drop { $0 != path } + [path]).joined(separator: " -> ")
            state.problems.append(.init(.warning, file: file, line: line, "include cycle: \(cycle)"))
            return
        }
        guard state.active.count < Self.maxIncludeDepth else {
            state.problems.append(.init(.warning, file: file, line: line, "includes nested too deeply at \(path)"))
            return
        }
        // A file reached twice by different routes is read once.
        guard state.visited.insert(path).inserted else { return }
        let bytes: [UInt8]
        do {
            bytes = try loader(path)
        } catch {
            // pip reads it (or fails): a pin it holds is unknown here, so the result is not clean.
            state.problems.append(.init(.error, file: file, line: line, "cannot read included file \(path)"))
            return
        }
        let lines: [(number: Int, text: String)]
        switch PipText.decode(bytes) {
        case .text(let text): lines = PipText.lines(text)
        case .refused(let why):
            // pip reads this file; Sentinel cannot read it the same way, so it is not clean.
            state.problems.append(.init(.error, file: path, line: 0, "not read: \(why)"))
            return
        }
        state.active.append(path)
        parseFile(lines, file: path, asConstraints: constraints, into: &state)
        state.active.removeLast()
    }

    /// Pins unpinned requirements from the constraint files, as pip would install them.
    private func applyConstraints(_ state: inout State) {
        for index in state.dependencies.indices where state.dependencies[index].version == nil {
            guard let pin = state.constraints[Self.normalized(state.dependencies[index].name)] else { continue }
            state.dependencies[index].version = pin.version
            state.dependencies[index].notes["constraint"] = "\(pin.file):\(pin.line)"
        }
        for dependency in state.dependencies where dependency.version == nil {
            state.problems.append(Self.notPinned(dependency))
        }
        state.problems.sort { ($0.file, $0.line) < ($1.file, $1.line) }
    }
}

/// What one PEP 508 requirement means for the scan, whichever file it is written in: a
/// requirements line and a pyproject.toml entry are read by the same code, so a pin, a range,
/// extras, markers and direct references are treated alike in both.
extension RequirementsParser {
    /// A requirement text read: a requirement with a name, or the notice saying why it cannot be
    /// matched against advisories.
    enum Reading {
        case requirement(Requirement)
        case notMatchable(LockfileProblem)
    }

    /// Reads `text` written at `line` of `file`. A direct reference (`name @ url`, a path, a VCS
    /// URL) is an `info` notice; anything else that is not a requirement is a `warning` naming the
    /// `unit` it was read as ("line" in a requirements file).
    static func read(_ text: ArraySlice<UInt8>, file: String, line: Int, unit: String) -> Reading {
        guard let requirement = Requirement(text) else {
            let shown = String(decoding: text, as: UTF8.self)
            if Requirement.isDirectReference(text) {
                return .notMatchable(
                    .init(.info, file: file, line: line, "direct reference not matched against advisories: \(shown)"))
            }
            return .notMatchable(.init(.warning, file: file, line: line, "\(unit) not understood: \(shown)"))
        }
        if let url = requirement.url {
            return .notMatchable(
                .init(
                    .info, file: file, line: line,
                    "\(requirement.name) comes from a direct reference (\(url)), not matched against advisories"))
        }
        return .requirement(requirement)
    }

    /// The dependency a requirement names: its exact pin as the version, nil when it pins none
    /// (its specifier kept in the notes for the "not pinned" notice), extras, markers and hashes
    /// in the notes.
    static func dependency(_ requirement: Requirement, file: String, line: Int) -> Dependency {
        var notes: [String: String] = [:]
        if !requirement.extras.isEmpty { notes["extras"] = requirement.extras }
        if !requirement.markers.isEmpty { notes["markers"] = requirement.markers }
        if !requirement.hashes.isEmpty { notes["hashes"] = requirement.hashes.joined(separator: ",") }
        if requirement.pin == nil { notes["specifier"] = requirement.specifier }
        return Dependency(
            ecosystem: .pypi, name: requirement.name, version: requirement.pin, file: file, line: line, notes: notes)
    }

    /// The `info` notice for a dependency without an exact version: the scan reports it as
    /// `sca.not-pinned`, since the version installed (and so its advisories) is unknown.
    static func notPinned(_ dependency: Dependency) -> LockfileProblem {
        let specifier = dependency.notes["specifier"].map { $0.isEmpty ? "" : " (\($0))" } ?? ""
        return LockfileProblem(
            .info, file: dependency.file, line: dependency.line, "not pinned: \(dependency.name)\(specifier)")
    }
}
