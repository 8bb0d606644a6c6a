/// A JavaScript module specifier (`'child_process'`, `'node:fs'`, `'./db'`, `'../lib/util.js'`) as
/// the engine names modules: Python's dotted names, a relative one with its leading dots, so that
/// the engine's models (`child_process.exec`) and its relative-import resolution apply unchanged.
enum ModuleSpecifier {
    /// The extensions a relative specifier may name its file with; dropped, as Python names a
    /// module without `.py`.
    static let extensions: Set<String> = ["js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "vue", "svelte"]

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
        return String(repeating: ".", count: level) + parts.joined(separator: ".")
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
