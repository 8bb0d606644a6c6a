import Foundation
import Support

/// Finds lockfiles and manifests under a directory by name and parses each one. A malformed
/// file becomes an `error` problem and the walk goes on; the caller fails only when nothing
/// could be read (`Scan.nothingReadable`).
public struct LockfileDetector: Sendable {
    /// Directories never entered: VCS data, installed packages, build output.
    public static let skippedDirectories: Set<String> = [
        ".git", "node_modules", ".venv", "venv", "vendor", "target", ".build", "__pycache__", ".hg", ".svn",
        ".tox", ".nox", ".mypy_cache", ".pytest_cache", "bower_components",
    ]

    /// Larger files are refused unread: no real lockfile comes near it.
    public static let maxFileSize: Int64 = 128 << 20

    /// What a scan of a directory found.
    public struct Scan: Sendable {
        /// One result per file that parsed, in path order.
        public var results: [LockfileResult] = []
        /// Files that could not be read or parsed, with the parser's one-line message.
        public var errors: [LockfileProblem] = []
        /// Every recognised file, relative to the root, in path order.
        public var files: [String] = []

        /// All dependencies of all readable files.
        public var dependencies: [Dependency] { results.flatMap(\.dependencies) }

        /// Lockfiles were found but none could be read: the scan has no input (exit status 2).
        public var nothingReadable: Bool { !files.isEmpty && results.isEmpty }
    }

    /// The directory (or single file) scanned; file names in results are relative to it.
    public let root: String

    /// A detector for the tree at `root`.
    public init(root: String) {
        self.root = root
    }

    /// The parsers in the order files are tried; the first whose names match reads the file.
    public func parsers() -> [any LockfileParser] {
        [
            RequirementsParser(root: root), PipfileLockParser(), PoetryLockParser(), UVLockParser(), PDMLockParser(),
            PyprojectParser(),
            CargoLockParser(), GoModParser(), GoSumParser(), PackageLockParser(), YarnLockParser(), PnpmLockParser(), BunLockParser(),
            GemfileLockParser(), ComposerLockParser(), PackageResolvedParser(),
        ]
    }

    /// The parser for a file name, if any.
    public func parser(forFileName name: String) -> (any LockfileParser)? {
        Self.parser(forPath: name, in: parsers())
    }

    /// By name, plus one layout by place: any `.txt` in a directory named `requirements`
    /// (`requirements/base.txt`), as Django-style projects keep them.
    private static func parser(forPath path: String, in parsers: [any LockfileParser]) -> (any LockfileParser)? {
        let name = PathText.lastComponent(of: path)
        if let byName = parsers.first(where: { type(of: $0).matches(fileName: name) }) { return byName }
        // PathText, not NSString: a file named with one character trapped Foundation (issue 26).
        let directory = PathText.lastComponent(of: PathText.directory(of: path))
        if directory == "requirements", name.hasSuffix(".txt") { return parsers.first { $0 is RequirementsParser } }
        return nil
    }

    /// Walks `root` and parses every recognised file. Throws only if `root` cannot be listed.
    public func scan() throws -> Scan {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
            throw SentinelError(.io, "\(root): no such file or directory")
        }
        var scan = Scan()
        if !isDirectory.boolValue {
            // A single file names itself; its directory becomes the base for includes.
            let directory = PathText.directory(of: root)
            let name = PathText.lastComponent(of: root)
            let detector = LockfileDetector(root: directory.isEmpty ? "." : directory)
            if detector.parser(forFileName: name) != nil { scan.files = [name] }
            detector.read(scan.files, into: &scan)
            return scan
        }
        scan.files = walk().sorted()
        read(scan.files, into: &scan)
        return scan
    }

    /// Parses the recognised files among `files` (relative to `root`) and nothing else: what a
    /// scan of named files (`sentinel scan poetry.lock app.py`) reads.
    public func scan(files: [String]) -> Scan {
        var scan = Scan()
        let parsers = parsers()
        scan.files = files.filter { Self.parser(forPath: $0, in: parsers) != nil }.sorted()
        read(scan.files, into: &scan)
        return scan
    }

    /// Identity of a dependency line across results.
    private struct Seen: Hashable {
        let file: String, line: Int, name: String, version: String?
        init(_ d: Dependency) {
            file = d.file
            line = d.line
            name = d.name
            version = d.version
        }
    }

    /// Every file, include and manifest is read through one `TreeReader` of `root`: nothing
    /// outside the tree, no link, no special file, nothing over `maxFileSize`.
    ///
    /// Manifests that defer to a lockfile (`pyproject.toml`) are read last, and only when no
    /// lockfile of theirs beside them parsed: one dependency is reported once, from the file
    /// that says what is installed. Results and errors stay in path order.
    private func read(_ files: [String], into scan: inout Scan) {
        guard let tree = try? TreeReader(path: root) else {
            scan.errors += files.map { LockfileProblem(.error, file: $0, line: 0, "cannot open the scanned directory") }
            return
        }
        let parsers = parsers().map { (parser: any LockfileParser) -> any LockfileParser in
            parser is RequirementsParser ? RequirementsParser(tree: tree) : parser
        }
        var reading = Reading(tree: tree)
        var deferred: [(file: String, parser: any LockfileDeferringManifestParser)] = []
        for relative in files {
            guard let parser = Self.parser(forPath: relative, in: parsers) else { continue }
            if let manifest = parser as? any LockfileDeferringManifestParser {
                deferred.append((relative, manifest))
            } else {
                reading.read(relative, with: parser, into: &scan)
            }
        }
        let parsed = Set(scan.results.map(\.file))
        for (relative, manifest) in deferred {
            let directory = PathText.directory(of: relative)
            let locks = type(of: manifest).deferredToLockfiles.map { (directory as NSString).appendingPathComponent($0) }
            if locks.contains(where: parsed.contains) { continue }
            reading.read(relative, with: manifest, into: &scan)
        }
        let position = Dictionary(files.enumerated().map { ($0.element, $0.offset) }) { first, _ in first }
        func inPathOrder<Item>(_ items: [Item], _ file: (Item) -> String) -> [Item] {
            items.enumerated().sorted {
                (position[file($0.element)] ?? Int.max, $0.offset) < (position[file($1.element)] ?? Int.max, $1.offset)
            }.map(\.element)
        }
        scan.results = inPathOrder(scan.results, \.file)
        scan.errors = inPathOrder(scan.errors, \.file)
    }

    /// One scan's reading of its files: the tree they come from and what was already reported.
    private struct Reading {
        let tree: TreeReader
        var seen = Set<Seen>()
        var seenProblems = Set<LockfileProblem>()

        /// Parses `relative` with `parser` into a result, or an error when it cannot be read or parsed.
        mutating func read(_ relative: String, with parser: any LockfileParser, into scan: inout Scan) {
            let data: Data
            do {
                data = try tree.read(relative, limit: Int(LockfileDetector.maxFileSize))
            } catch let error as SentinelError {
                scan.errors.append(.init(.error, file: relative, line: 0, LockfileDetector.what(error.message, file: relative)))
                return
            } catch {
                scan.errors.append(.init(.error, file: relative, line: 0, "cannot read file"))
                return
            }
            do {
                var result: LockfileResult
                if let aware = parser as? any ManifestAwareLockfileParser {
                    let directory = PathText.directory(of: relative)
                    let manifestPath = (directory as NSString).appendingPathComponent(type(of: aware).manifestName)
                    let manifest = (try? tree.read(manifestPath, limit: Int(LockfileDetector.maxFileSize))).map { [UInt8]($0) }
                    result = try aware.parse([UInt8](data), file: relative, manifest: manifest)
                } else {
                    result = try parser.parse([UInt8](data), file: relative)
                }
                // A requirements file is also read as an include of another: report its lines once.
                result.dependencies = result.dependencies.filter { seen.insert(Seen($0)).inserted }
                result.problems = result.problems.filter { seenProblems.insert($0).inserted }
                scan.results.append(result)
            } catch let error as SentinelError {
                // The problem carries file and line itself; keep only the "what" of the message.
                let line = LockfileDetector.line(in: error.message)
                let prefix = "\(relative):\(line): "
                let what =
                    error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
                scan.errors.append(.init(.error, file: relative, line: line, what))
            } catch {
                scan.errors.append(.init(.error, file: relative, line: 0, "\(relative): \(error)"))
            }
        }
    }

    /// Relative paths of recognised files; symbolic links to directories are not followed.
    private func walk() -> [String] {
        var found: [String] = []
        var pending = [""]
        let parsers = parsers()
        let manager = FileManager.default
        while let relative = pending.popLast() {
            let full = relative.isEmpty ? root : (root as NSString).appendingPathComponent(relative)
            guard let names = try? manager.contentsOfDirectory(atPath: full) else { continue }
            for name in names {
                let child = relative.isEmpty ? name : relative + "/" + name
                let childFull = (full as NSString).appendingPathComponent(name)
                guard let attributes = try? manager.attributesOfItem(atPath: childFull),
                    let type = attributes[.type] as? FileAttributeType
                else { continue }
                if type == .typeDirectory {
                    if !Self.skippedDirectories.contains(name) { pending.append(child) }
                } else if type == .typeRegular, Self.parser(forPath: child, in: parsers) != nil {
                    found.append(child)
                }
            }
        }
        return found
    }

    /// The "what" of a `FILE: what` read error: the problem carries the file itself.
    private static func what(_ message: String, file: String) -> String {
        message.hasPrefix("\(file): ") ? String(message.dropFirst(file.count + 2)) : message
    }

    /// The LINE of a `FILE:LINE: message` error, 0 when absent.
    static func line(in message: String) -> Int {
        let parts = message.split(separator: ":", maxSplits: 2)
        guard parts.count >= 2 else { return 0 }
        return Int(parts[1]) ?? 0
    }
}

extension LockfileDetector {
    /// The ecosystems of advisories a scan of `root` looks up, as export names (`PyPI`, `npm`),
    /// sorted: those of every pinned dependency its lockfiles name. `unreadable` holds one
    /// `FILE: problem` line per lockfile that could not be read.
    public static func ecosystemsInUse(under root: String) throws -> (ecosystems: [String], unreadable: [String]) {
        let scan = try LockfileDetector(root: root).scan()
        let names = Set(scan.dependencies.filter { $0.version != nil }.map { FeedState.exportName($0.ecosystem.name) })
        return (names.sorted(), scan.errors.map(\.description))
    }
}
