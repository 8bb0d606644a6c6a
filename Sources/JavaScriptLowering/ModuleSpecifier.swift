/// A JavaScript module specifier (`'child_process'`, `'node:fs'`, `'./db'`, `'../lib/util.js'`) as
/// the engine names modules: Python's dotted names, a relative one with its leading dots, so that
/// the engine's models (`child_process.exec`) and its relative-import resolution apply unchanged.
/// A project's own files are named the same way (``fileModule(_:)``), so that what a relative
/// specifier names is the module of the file it names.
enum ModuleSpecifier {
    /// The extensions a relative specifier may name its file with; dropped, as Python names a
    /// module without `.py`.
    static let extensions: Set<String> = ["js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "vue", "svelte"]
    /// The extensions whose `.d.` files (`types.d.ts`) declare types only: no module.
    static let declarationExtensions: Set<String> = ["ts", "mts", "cts"]
    /// What a dot inside one file or directory name becomes (`users.service` of NestJS's
    /// `users.service.ts`): a dot separates directories in a dotted name, and reading it so would
    /// put the file in a directory `users`, from which its own relative imports would be resolved.
    /// No file name has a `:` on Windows or macOS, so no two names meet through it.
    static let innerDot: Character = ":"

    /// The module `specifier` names: `node:fs` is `fs` (Node's built-ins by either name); a
    /// relative specifier is ``relative(_:)``'s dotted form; any other (a package, `@scope/pkg/sub`)
    /// as written.
    static func module(_ specifier: String) -> String {
        if let relative = relative(specifier) { return relative }
        if specifier.hasPrefix("node:") { return String(specifier.dropFirst(5)) }
        return specifier
    }

    /// `./db` → `.db`, `../lib/util.js` → `..lib.util`, `./routes/index` → `.routes`, `.` → `.`:
    /// one dot for the importing file's directory and one more per `..` above it, the path's
    /// components joined by dots, a known extension and a last `index` (a directory's module, as a
    /// package's `__init__`) dropped. Nil when `specifier` is not relative.
    static func relative(_ specifier: String) -> String? {
        guard specifier == "." || specifier == ".." || specifier.hasPrefix("./") || specifier.hasPrefix("../") else {
            return nil
        }
        var level = 1
        var parts: [Substring] = []
        for part in specifier.split(separator: "/") {
            switch part {
            case ".": continue
            case "..":
                // Above the path's own directories, a `..` climbs past the importing file's.
                if parts.isEmpty { level += 1 } else { parts.removeLast() }
            default: parts.append(part)
            }
        }
        if let last = parts.last, let dot = last.lastIndex(of: "."), dot != last.startIndex,
            extensions.contains(String(last[last.index(after: dot)...]))
        {
            parts[parts.count - 1] = last[..<dot]
        }
        if parts.last == "index" { parts.removeLast() }
        return String(repeating: ".", count: level) + parts.map(component).joined(separator: ".")
    }

    /// The module a project's file is, as ``relative(_:)`` names it from a file of the project's
    /// root directory (without the leading dot): `routes/users.js` → `routes.users`,
    /// `src/users/users.service.ts` → `src.users.users:service`, `db/index.ts` → `db` (a package,
    /// as Python's `__init__`; `index.js` at the root is the empty name). Nil for a file no relative
    /// specifier names: one without a known extension, a type declaration (`.d.ts`), a path with
    /// an empty, `.` or `..` component.
    static func fileModule(_ path: String) -> (name: String, isPackage: Bool)? {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let last = parts.last, let dot = last.lastIndex(of: "."), dot != last.startIndex else { return nil }
        let suffix = String(last[last.index(after: dot)...])
        guard extensions.contains(suffix) else { return nil }
        let stem = last[..<dot]
        if declarationExtensions.contains(suffix), stem.hasSuffix(".d") { return nil }
        parts[parts.count - 1] = stem
        let isPackage = stem == "index"
        if isPackage { parts.removeLast() }
        guard parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { return nil }
        return (parts.map(component).joined(separator: "."), isPackage)
    }

    /// One file or directory name as a part of a dotted name: its own dots are ``innerDot``.
    static func component(_ name: Substring) -> String {
        String(name.map { $0 == "." ? innerDot : $0 })
    }

    /// `base` followed by `members` (`m`, [`a`, `b`] → `m.a.b`; `.`, [`a`] → `.a`).
    static func dotted(_ base: String, _ members: [String]) -> String {
        guard !members.isEmpty else { return base }
        let joined = members.joined(separator: ".")
        return base.allSatisfy({ $0 == "." }) ? base + joined : base + "." + joined
    }

    /// A relative module split into the package it is in and its own name (`..lib.util` →
    /// (`..lib`, `util`); `.db` → (`.`, `db`)), as Python's `from ..lib import util` names it; nil
    /// for a module that is not relative or is a bare directory (`.`, `..`).
    static func parentAndName(_ module: String) -> (parent: String, name: String)? {
        let dots = module.prefix { $0 == "." }
        let rest = module.dropFirst(dots.count)
        guard !dots.isEmpty, !rest.isEmpty else { return nil }
        guard let dot = rest.lastIndex(of: ".") else { return (String(dots), String(rest)) }
        return (String(dots) + rest[..<dot], String(rest[rest.index(after: dot)...]))
    }
}

extension JavaScriptLowering {
    /// The module a JavaScript or TypeScript file of a project is (`path` relative to the project's
    /// root), named as the lowering names the relative modules that import it (`./users` seen from
    /// `routes/` is `routes.users` → `routes/users.js`): `index.*` is its directory's package; nil
    /// for a type declaration (`.d.ts`) or a file that is no module. See ``ModuleSpecifier``.
    public static func module(ofFile path: String) -> (name: String, isPackage: Bool)? {
        ModuleSpecifier.fileModule(path)
    }
}
