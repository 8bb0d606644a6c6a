import Languages
import Foundation
import SyntaxTree
import PythonSyntax
import Support
import Synchronization

/// Function summaries of every module of the scanned project, per taint rule, so that a flow
/// through `from helpers.utils import clean` (or JavaScript's `require('./helpers/utils')`) is
/// followed into the other file. Files publish their summaries after their analysis; a second
/// round re-analyses the files that call a published helper (see
/// ``SASTEngine/scanProject(files:read:)``). Shared by the scanning threads.
///
/// JavaScript and TypeScript files are modules of their own namespace (``JavaScriptModules``):
/// they import one another through relative specifiers only, never a Python module, nor Python one of theirs.
public final class ProjectSummaries: Sendable {
    /// A summary found for a dotted name.
    struct Found: Sendable {
        var summary: FunctionSummary
        var file: String
        /// Set for a class: calling it constructs an instance.
        var constructs: String?
    }

    /// What the files publish and note, shared by the scanning threads: inside the mutex.
    private struct State: Sendable {
        /// Names other modules import from each module (`*`: the whole module, `import a.b`); a module
        /// a file binds to a name of its own gives the names read through it (`Job` of `models.Job`).
        var exported: [String: Set<String>] = [:]
        /// Names a package's `__init__` imports from one of its modules (`from .base import f` in
        /// `pkg/__init__.py`): `pkg.f` → `pkg.base`, so `from pkg import f` finds the summary.
        var reexports: [String: String] = [:]
        /// The modules a package's `__init__` imports everything from (`from .security import *` in
        /// `pkg/__init__.py`): any name read through `pkg` may be defined in one of them.
        var starReexports: [String: Set<String>] = [:]
        /// The attributes files read of each name they import from the project (`run` of
        /// `Job.run(...)` after `from jobs import Job`), by that name.
        var attributesRead: [String: Set<String>] = [:]
        /// The names files read of each module they take whole under one name of their own
        /// (`models` of `from pkg import models`, `m` of `import pkg.models as m`): `Job` of
        /// `models.Job.run(...)`, whose methods may then all be called.
        var readThroughModule: [String: Set<String>] = [:]
        /// The names of classes imported from the project that files subclass: every method of theirs
        /// may be called (through `self` of the subclass).
        var subclassed: Set<String> = []
        /// The scanned modules each file imports, with the names it imports from each, from its text.
        var importsOf: [String: [String: Set<String>]] = [:]
        /// Each noted file's size in bytes (an estimate of its scanning time).
        var sizes: [String: Int] = [:]
        var topLevelModules: Set<String> = []
        var table: [String: [String: [String: Found]]] = [:]
        /// Per rule, the modules with a function that returns a source.
        var sourceModules: [String: Set<String>] = [:]

        /// The modules `package` passes on whole (`from .base import *` in its `__init__`), and
        /// those they pass on in turn.
        func wholeReexports(of package: String) -> Set<String> {
            var out: Set<String> = []
            var queue = Array(starReexports[package] ?? [])
            while let next = queue.popLast() {
                guard out.insert(next).inserted else { continue }
                queue += starReexports[next] ?? []
            }
            return out
        }
    }

    private let state = Mutex(State())
    /// The trees the import pre-scan read, for the scan to take (one parse per file per scan).
    let loweredTrees = LoweredTrees()
    /// The rule id under which rule-free summaries are published: any rule falls back to them.
    static let anyRule = "*"
    /// Module dotted name → file path, from the scanned files.
    let modules: [String: String]
    /// File path → module dotted name (the inverse of `modules`, for the files that have one).
    private let moduleOfFile: [String: String]
    /// Every dotted suffix of a Python module's name → the full names it may stand for (a `src/` layout).
    private let suffixes: [String: [String]]

    /// The package the scan root itself is (`django` when `django/` with its `__init__.py` is
    /// scanned), prefixed to every module name so that what a file imports resolves the same
    /// whether the scan starts at the package or at the repository around it.
    let rootPackage: String?

    /// Maps the scanned files (paths relative to the scan root) to module names; `rootName` is the
    /// last component of the scan root, the package name when the root holds an `__init__.py`.
    public init(files: [String], rootName: String? = nil) {
        // A root holding a package file (`__init__.py`) is that package.
        let packageFiles = Set(Languages.registry.all.compactMap(\.modules.packageFileName))
        let rootPackage = rootName.flatMap { Self.isIdentifier($0) && files.contains(where: packageFiles.contains) ? $0 : nil }
        self.rootPackage = rootPackage
        var modules: [String: String] = [:]
        var moduleOfFile: [String: String] = [:]
        var suffixes: [String: [String]] = [:]
        for file in files {
            if !LanguageModules.language(of: file).modules.namespace.isEmpty {
                // `foo.ts` and the `foo.js` compiled from it are one module: one file is it, whatever the order.
                guard let name = LanguageModules.name(of: file, rootPackage: nil) else { continue }
                moduleOfFile[file] = name
                if let other = modules[name], !LanguageModules.preferred(file, over: other) { continue }
                modules[name] = file
                continue
            }
            guard let name = LanguageModules.name(of: file, rootPackage: rootPackage) else { continue }
            modules[name] = file
            moduleOfFile[file] = name
            let parts = name.split(separator: ".")
            for start in parts.indices.dropFirst() {
                suffixes[parts[start...].joined(separator: "."), default: []].append(name)
            }
        }
        self.modules = modules
        self.moduleOfFile = moduleOfFile
        self.suffixes = suffixes
    }

    /// Maps the files to modules and notes what each imports, reading them (in parallel) with
    /// `read` (nil: unreadable, left out). On large stacks: a JavaScript file is parsed for its imports.
    public convenience init(files: [String], rootName: String? = nil, read: @escaping @Sendable (String) -> String?) {
        self.init(files: files, rootName: rootName)
        LargeStack.concurrentPerform(iterations: files.count) { i in
            if let text = read(files[i]) { noteImports(of: files[i], text: text) }
        }
    }

    /// ``moduleName(_:)`` of a scanned file, looked up (this is asked for every file several times).
    func module(of file: String) -> String? {
        if let known = moduleOfFile[file] { return known }
        return LanguageModules.name(of: file, rootPackage: rootPackage)
    }

    /// Whether `file` is a package's own module: Python's `__init__.py`, JavaScript's `index.*`.
    static func isPackage(_ file: String) -> Bool {
        LanguageModules.isPackage(file)
    }

    /// `pkg/sub/mod.py` → `pkg.sub.mod`; `pkg/__init__.py` → `pkg`; under `rootPackage` `root`,
    /// `mod.py` → `root.mod` and `__init__.py` → `root`.
    static func moduleName(_ file: String, rootPackage: String? = nil) -> String? {
        LanguageModules.name(of: file, in: LanguageModules.rootLanguage, rootPackage: rootPackage)
    }

    /// Whether `name` can be a Python package name (ASCII letters, digits, `_`, not starting with a digit).
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    }

    /// Records what `file` imports from the project's modules: a Python file's from its text,
    /// before parsing; a JavaScript file's from its lowered tree (a file that does not parse
    /// imports nothing).
    public func noteImports(of file: String, text: String) {
        let language = LanguageModules.language(of: file)
        let conventions = language.modules
        guard conventions.importsReadFromTree else {
            note(file: file, size: text.utf8.count, uses: PythonImportUses(text: text), conventions: conventions)
            return
        }
        // Only a relative specifier names a project module: a file without one (half of a large
        // project's) imports none, and is not parsed twice.
        guard JavaScriptImportUses.mayImportRelative(text) else {
            note(file: file, size: text.utf8.count, uses: JavaScriptImportUses(), conventions: conventions)
            return
        }
        let source = SourceLanguage(language)
        // Read, walked and freed on a large stack: each recurses once per level of the tree.
        let uses = try? LargeStack.run {
            let parsed = try SourceFrontEnd.parse(bytes: Array(text.utf8), file: file, language: source)
            // The scan takes this tree rather than reading the file again.
            self.loweredTrees.keep(parsed, text: text, for: file)
            return JavaScriptImportUses(root: parsed.root)
        }
        note(file: file, size: text.utf8.count, uses: uses ?? JavaScriptImportUses(), conventions: conventions)
    }

    /// ``noteImports(of:text:)`` from what the file's front end read; a JavaScript file's top-level
    /// modules are not noted (``ProjectFacts/modules`` are what Python code imports).
    private func note(file: String, size: Int, uses: some ImportUses, conventions: ModuleConventions) {
        let module = self.module(of: file) ?? ""
        let isPackage = Self.isPackage(file)
        var found: [String: Set<String>] = [:]
        var passedOn: [String: String] = [:]
        var passedOnWhole: Set<String> = []
        var topLevel: Set<String> = []
        // The names bound here to what a project module defines (`as` names included), and what each stands for.
        var bound: [String: String] = [:]
        // The names bound here to a whole project module, and the module: what the file reads of
        // it is what it reads through the name (`models.Job`), not everything it defines.
        var wholeModules: [String: String] = [:]
        for (from, name, alias) in uses.imports {
            if conventions.namespace.isEmpty, let top = TemplateFiles.topLevelModule(from, name) { topLevel.insert(top) }
            let absolute = ProjectView.absolute(from, module: module, isPackage: isPackage)
            if name != "*", let target = resolveModule(absolute + "." + name, in: conventions) {
                // `from pkg import models [as m]`
                wholeModules[alias ?? name] = target
            } else if name == "*", let alias, let target = resolveModule(absolute, in: conventions) {
                // `import pkg.models as m` (`from pkg import *` has no `as`)
                wholeModules[alias] = target
            } else if let target = resolveModule(absolute, in: conventions) {
                found[target, default: []].insert(name)
                if isPackage, name != "*", target != module, !module.isEmpty { passedOn[module + "." + name] = target }
                if isPackage, name == "*", target != module, !module.isEmpty { passedOnWhole.insert(target) }
                if name != "*" { bound[alias ?? name] = name }
            }
        }
        let read = uses.attributes(of: Set(bound.keys).union(wholeModules.keys))
        let bases = uses.subclassed(Set(bound.keys)).map { bound[$0] ?? $0 }
        var throughModules: [String: Set<String>] = [:]
        // Each such module is imported (a key of `found`) even when nothing is read through it.
        for (local, target) in wholeModules {
            let names = read[local] ?? []
            found[target, default: []].formUnion(names)
            throughModules[target, default: []].formUnion(names)
        }
        state.withLock { state in
            for (target, names) in throughModules { state.readThroughModule[target, default: []].formUnion(names) }
            state.subclassed.formUnion(bases)
            state.sizes[file] = size
            state.topLevelModules.formUnion(topLevel)
            for (local, attributes) in read where wholeModules[local] == nil {
                state.attributesRead[bound[local] ?? local, default: []].formUnion(attributes)
            }
            if !found.isEmpty {
                for (target, names) in found { state.exported[target, default: []].formUnion(names) }
                state.reexports.merge(passedOn) { first, _ in first }
                if !passedOnWhole.isEmpty { state.starReexports[module, default: []].formUnion(passedOnWhole) }
                state.importsOf[file] = found
            }
        }
    }

    /// The scanned modules a file imports, from its text (``noteImports(of:text:)``), and for a
    /// name a package passes on (`from pkg import f`), the module that defines it: the modules
    /// whose summaries the file's analysis may read. Complete once every file was noted.
    func imports(of file: String) -> Set<String> {
        state.withLock { state in
            var out: Set<String> = []
            for (module, names) in state.importsOf[file] ?? [:] {
                out.insert(module)
                out.formUnion(state.wholeReexports(of: module))
                for name in names where name != "*" {
                    if let defining = state.reexports[module + "." + name] { out.insert(defining) }
                }
            }
            return out
        }
    }

    /// The top-level modules the noted files import (`flask` of `from flask.views import View`;
    /// of the scanned project's own modules too), for ``ProjectFacts/modules``.
    public var importedTopLevelModules: Set<String> {
        state.withLock { state in state.topLevelModules }
    }

    /// The size in bytes of a file noted by ``noteImports(of:text:)`` (0: not noted).
    func size(of file: String) -> Int {
        state.withLock { state in state.sizes[file] ?? 0 }
    }

    /// The modules that may define what a package passes on under `dotted` (`pkg.f` → `pkg.base`):
    /// the one its `__init__` imports the name from, else every module it imports `*` from.
    func reexporters(of dotted: String) -> [String] {
        state.withLock { state in
            if let named = state.reexports[dotted] { return [named] }
            guard let dot = dotted.lastIndex(of: ".") else { return [] }
            return state.wholeReexports(of: String(dotted[..<dot])).sorted()
        }
    }

    /// The modules `package` passes on whole, transitively (``reexporters(of:)``).
    func wholeReexports(of package: String) -> Set<String> {
        state.withLock { state in state.wholeReexports(of: package) }
    }

    /// Whether another module imports `name` (a function or class) from `module`.
    func isImported(_ name: String, from module: String) -> Bool {
        state.withLock { state in
            guard let names = state.exported[module] else { return false }
            return names.contains("*") || names.contains(name)
        }
    }

    /// Whether another module may call the method `method` of the class `className` of
    /// `module`: through the class (`Job.run(...)`, `models.Job.run(...)`), through `self` of a
    /// subclass in another module, or anything of a module
    /// taken whole with `import a.b` or `from a.b import *`. An
    /// object of a class from another module has no known class where it is used, so its
    /// methods are never looked up there.
    func mayCall(_ method: String, of className: String, in module: String) -> Bool {
        state.withLock { state in
            if state.exported[module]?.contains("*") == true || state.readThroughModule[module]?.contains(className) == true
                || state.subclassed.contains(className)
            {
                return true
            }
            return state.attributesRead[className]?.contains(method) ?? false
        }
    }

    /// The module a dotted import name refers to: itself, or the one scanned module it ends.
    /// A Python import names Python modules, a JavaScript one (`javaScript`) JavaScript's only,
    /// and those by their whole name (a relative specifier made absolute): a package's name
    /// (`express`) is no file of the project.
    func resolveModule(_ dotted: String, in conventions: ModuleConventions? = nil) -> String? {
        if let conventions, !conventions.namespace.isEmpty {
            return LanguageModules.contains(dotted, namespace: conventions.namespace) && modules[dotted] != nil ? dotted : nil
        }
        if modules[dotted] != nil { return LanguageModules.isNamespaced(dotted) ? nil : dotted }
        if conventions?.resolvesBySuffix ?? true, let candidates = suffixes[dotted], candidates.count == 1 { return candidates[0] }
        return nil
    }

    func publish(ruleId: String, module: String, file: String, summaries: [String: FunctionSummary], classes: Set<String>) {
        guard !summaries.isEmpty else { return }
        state.withLock { state in
            var published: [String: Found] = [:]
            for (key, summary) in summaries {
                let name = key.hasSuffix(".__init__") ? String(key.dropLast(".__init__".count)) : key
                let constructs = key.hasSuffix(".__init__") && classes.contains(name) ? name : nil
                published[name] = Found(summary: summary, file: file, constructs: constructs)
            }
            state.table[ruleId, default: [:]][module, default: [:]].merge(published) { _, new in new }
            if summaries.values.contains(where: \.returnsSource.isTainted) { state.sourceModules[ruleId, default: []].insert(module) }
        }
    }

    func lookup(ruleId: String, module: String, function name: String) -> Found? {
        state.withLock { state in state.table[ruleId]?[module]?[name] ?? state.table[Self.anyRule]?[module]?[name] }
    }

    /// Every summary published for `ruleId` itself (not the rule-free ones), by module and name:
    /// a snapshot, so a file's functions are checked against it outside the mutex.
    func ruleSpecific(_ ruleId: String) -> [String: [String: Found]] {
        state.withLock { state in state.table[ruleId] ?? [:] }
    }

    /// Whether one of `modules` has a function that returns a source of `ruleId`.
    func hasSourceSummary(ruleId: String, inAny modules: Set<String>) -> Bool {
        state.withLock { state in
            guard let found = state.sourceModules[ruleId] else { return false }
            return !found.isDisjoint(with: modules)
        }
    }

    /// What `file` imports from `modules`, per module: the names (nil when it takes the module
    /// whole: `import m`, `from m import *`, or a name a package passes on from it), as noted by
    /// ``noteImports(of:text:)``. Only summaries under these names can reach the file's analysis.
    func importedNames(of file: String, from modules: Set<String>) -> [String: Set<String>?] {
        state.withLock { state in
            var out: [String: Set<String>?] = [:]
            for (module, names) in state.importsOf[file] ?? [:] {
                for passed in state.wholeReexports(of: module) where modules.contains(passed) { out[passed] = .some(nil) }
                if modules.contains(module) {
                    let taken: Set<String>? = names.contains("*") ? nil : names
                    if let previous = out[module] {
                        out[module] = previous.flatMap { old in taken.map { old.union($0) } }
                    } else {
                        out[module] = taken
                    }
                }
                for name in names where name != "*" {
                    if let defining = state.reexports[module + "." + name], modules.contains(defining) { out[defining] = .some(nil) }
                }
            }
            return out
        }
    }

    /// Whether `ruleId` published a summary (one returning a source, when `returningSource`)
    /// under a name `imported` holds (``importedNames(of:from:)``): a function, or a class and its
    /// methods.
    func publishes(
        ruleId: String, under imported: [String: Set<String>?], returningSource: Bool = false
    ) -> Bool {
        state.withLock { state in
            guard let byModule = state.table[ruleId] else { return false }
            for (module, names) in imported {
                guard let published = byModule[module] else { continue }
                for (key, found) in published where !returningSource || found.summary.returnsSource.isTainted {
                    guard let names else { return true }
                    let head = key.firstIndex(of: ".").map { String(key[..<$0]) } ?? key
                    if names.contains(head) { return true }
                }
            }
            return false
        }
    }
}

/// What one file's analysis may read and write of the project's summaries (see
/// ``DependencyScheduler``): reading only modules that are done, and writing only when no other
/// file of the same round can read it, keeps the results independent of timing.
struct ProjectAccess: Sendable {
    /// The modules whose summaries it reads (nil: every module).
    var visible: Set<String>?
    /// Whether it publishes its own summaries.
    var publishes: Bool

    /// Everything, both ways (one file scanned alone).
    static let full = ProjectAccess(visible: nil, publishes: true)
}

/// One file's view of the project: its module name, and how its imports resolve.
struct ProjectView: Sendable {
    let summaries: ProjectSummaries
    let module: String
    let isPackage: Bool
    /// How the file's language names modules: its imports name modules of its namespace only.
    let conventions: ModuleConventions
    /// The other names this file's definitions are exported under (a JavaScript module's
    /// `exports.find = function ...`: `#fn0` → `find`; an object's method: `#fn1` →
    /// `mailer.queue`), by the definition's name (``JavaScriptExports``).
    let exportNames: [String: [String]]
    /// The project modules this file imports from.
    let importedModules: Set<String>
    /// What it may read and write.
    var access = ProjectAccess.full
    /// This file's functions that other modules import (set once per file, shared by the rules).
    var exported: [FileModel.Function] = []
    /// ``locations(_:)`` by dotted name: every rule and function asks again for the same names,
    /// and the answer depends only on the project's modules, fixed before the scan.
    private let located = LocationMemo()

    /// `index`: the file's, whose import statements (wherever they are) say what it imports.
    init(summaries: ProjectSummaries, file: String, index: FileIndex) {
        self.summaries = summaries
        let module = summaries.module(of: file) ?? ""
        let isPackage = ProjectSummaries.isPackage(file)
        let language = LanguageModules.language(of: file)
        let conventions = language.modules
        self.module = module
        self.isPackage = isPackage
        self.conventions = conventions
        var names: [String: [String]] = [:]
        if language.exportsUnderOtherNames {
            for (exported, local) in JavaScriptExports.aliases(in: index.root) { names[local, default: []].append(exported) }
        }
        exportNames = names.mapValues { $0.sorted() }
        var imported: Set<String> = []
        for node in index.nodes(of: .import) {
            for alias in node.children {
                // JavaScript's bare directory (`require('..')`) is relative, unlike any Python `import`.
                if let name = alias.text.map({
                    conventions.bareRelativeImportsNamePackages ? Self.absolute($0, module: module, isPackage: isPackage) : $0
                }),
                    let resolved = summaries.resolveModule(name, in: conventions)
                {
                    imported.insert(resolved)
                    imported.formUnion(summaries.wholeReexports(of: resolved))
                }
            }
        }
        for node in index.nodes(of: .importFrom) {
            guard let from = node.text else { continue }
            let absolute = Self.absolute(from, module: module, isPackage: isPackage)
            if let resolved = summaries.resolveModule(absolute, in: conventions) { imported.insert(resolved) }
            for alias in node.children {
                if let name = alias.text, let resolved = summaries.resolveModule(absolute + "." + name, in: conventions) {
                    // `from pkg import security`: a package taken whole, with what it passes on.
                    imported.insert(resolved)
                    imported.formUnion(summaries.wholeReexports(of: resolved))
                } else if let name = alias.text, let package = summaries.resolveModule(absolute, in: conventions) {
                    imported.formUnion(summaries.reexporters(of: package + "." + name))
                }
            }
        }
        importedModules = imported
    }

    /// `..utils` seen from `pkg.sub.mod` is `pkg.utils`.
    static func absolute(_ from: String, module: String, isPackage: Bool) -> String {
        let dots = from.prefix { $0 == "." }.count
        guard dots > 0 else { return from }
        var parts = module.split(separator: ".").map(String.init)
        if !isPackage { parts.removeLast(min(1, parts.count)) }
        parts.removeLast(min(dots - 1, parts.count))
        let rest = from.dropFirst(dots)
        if !rest.isEmpty { parts.append(String(rest)) }
        return parts.joined(separator: ".")
    }

    /// Whether another module imports this function (or its class), by its name or one it is
    /// exported under.
    func isExported(_ function: FileModel.Function) -> Bool {
        guard let local = function.className ?? function.node.text else { return false }
        // Nested helpers are not importable.
        if function.className == nil, function.key != local { return false }
        return ([local] + (exportNames[local] ?? [])).contains { name in
            // `mailer.queue` is imported with `mailer`.
            let head = name.firstIndex(of: ".").map { String(name[..<$0]) } ?? name
            guard summaries.isImported(head, from: module) else { return false }
            // `Job(...)` runs `__init__`; any other method is called through the class, if at all.
            if function.className != nil, let method = function.node.text, method != "__init__" {
                return summaries.mayCall(method, of: name, in: module)
            }
            return true
        }
    }

    /// Publishes this file's `summaries` for `ruleId` under their definitions' names and under the
    /// names they are exported as (``exportNames``: `find` for `#fn0`, `default.find` for a class
    /// `UsersService` exported as the module's default).
    func publish(ruleId: String, file: String, summaries published: [String: FunctionSummary], classes: Set<String>) {
        var all = published
        var allClasses = classes
        for (local, names) in exportNames {
            for (key, summary) in published where key == local || key.hasPrefix(local + ".") {
                for name in names { all[name + key.dropFirst(local.count)] = summary }
            }
            if classes.contains(local) { allClasses.formUnion(names) }
        }
        summaries.publish(ruleId: ruleId, module: module, file: file, summaries: all, classes: allClasses)
    }

    /// Whether a module this file imports published a summary for `ruleId` itself (a sink, a
    /// source or a sanitizer of the rule is in it).
    func importsRuleSpecificSummary(_ ruleId: String) -> Bool {
        guard !importedModules.isEmpty else { return false }
        let specific = summaries.ruleSpecific(ruleId)
        return importedModules.contains { sees($0) && specific[$0] != nil }
    }

    /// Whether this file reads `module`'s summaries.
    func sees(_ module: String) -> Bool { access.visible?.contains(module) ?? true }

    func importsSourceSummary(ruleId: String) -> Bool {
        !importedModules.isEmpty && summaries.hasSourceSummary(ruleId: ruleId, inAny: importedModules.filter(sees))
    }

    /// The summary for a dotted name as the file's imports spell it (`helpers.utils.clean`).
    func summary(ruleId: String, function dotted: String) -> ProjectSummaries.Found? {
        for (module, function) in locations(dotted) where sees(module) {
            if let found = summaries.lookup(ruleId: ruleId, module: module, function: function) { return found }
        }
        return nil
    }

    /// Where a dotted name may be defined: the module it names and, when that is a package's
    /// `__init__` passing the name on from one of its modules, that module.
    func locations(_ dotted: String) -> [(module: String, function: String)] {
        if let known = located.table.withLock({ $0[dotted] }) { return known }
        let found = computeLocations(dotted)
        located.table.withLock { $0[dotted] = found }
        return found
    }

    private func computeLocations(_ dotted: String) -> [(module: String, function: String)] {
        guard let (module, function) = locate(dotted) else { return [] }
        guard let head = function.split(separator: ".").first.map(String.init) else { return [(module, function)] }
        return [(module, function)] + summaries.reexporters(of: module + "." + head).map { ($0, function) }
    }

    /// What a call of a name bound to `dotted` runs: in a JavaScript file, a name bound to a
    /// whole module (`const f = require('./f'); f(x)`) calls its default export (`.f.default`); the
    /// name itself otherwise. (A member of a module, `db.find`, is never a module in JavaScript.)
    func called(_ dotted: String) -> String {
        guard conventions.callingModuleCallsDefaultExport else { return dotted }
        let absolute = dotted.hasPrefix(".") ? Self.absolute(dotted, module: module, isPackage: isPackage) : dotted
        guard summaries.resolveModule(absolute, in: conventions) != nil else { return dotted }
        // A bare directory (`require('.')`, `.`) has no dot to add.
        return dotted + (dotted.allSatisfy { $0 == "." } ? "" : ".") + JavaScriptExports.defaultName
    }

    /// The scanned module a dotted name is in, and the function (or `Class.method`) it names there.
    func locate(_ dotted: String) -> (module: String, function: String)? {
        let absolute = dotted.hasPrefix(".") ? Self.absolute(dotted, module: module, isPackage: isPackage) : dotted
        var parts = absolute.split(separator: ".").map(String.init)
        // The longest prefix that is a scanned module; the rest is the function (or Class.method).
        var rest: [String] = []
        while parts.count > 1 {
            rest.insert(parts.removeLast(), at: 0)
            if let resolved = summaries.resolveModule(parts.joined(separator: "."), in: conventions) {
                return (resolved, rest.joined(separator: "."))
            }
        }
        return nil
    }
}

/// One file's memo of where its dotted names are defined (see ``ProjectView/locations(_:)``).
private final class LocationMemo: Sendable {
    let table = Mutex<[String: [(module: String, function: String)]]>([:])
}
