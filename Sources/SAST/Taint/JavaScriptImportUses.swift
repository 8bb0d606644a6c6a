import PythonSyntax

/// A JavaScript or TypeScript file's imports, from its lowered tree: `require` and ES imports are
/// `import`/`importFrom` nodes there (`const db = require('./db')` is `from . import db`), read as
/// ``ImportScan`` reads Python's statements. The tree rather than the text: the lowering alone knows
/// which `require`s are imports and how a specifier names a module, and the scan sees that tree.
struct JavaScriptImportUses: ImportUses {
    let imports: [(module: String, name: String, alias: String?)]
    /// The attributes read of each name (`find` of `db.find(...)`); a name called itself reads
    /// `default` (`f(x)` after `import f from './f'` calls the module's default export).
    private let read: [String: Set<String>]
    /// The names in the classes' base lists (`db` and `Base` of `extends db.Base`).
    private let bases: Set<String>

    /// A file that did not parse: it imports nothing.
    init() {
        imports = []
        read = [:]
        bases = []
    }

    init(root: SyntaxNode) {
        var imports: [(module: String, name: String, alias: String?)] = []
        var read: [String: Set<String>] = [:]
        var bases: Set<String> = []
        root.walk { node in
            switch node.kind {
            case .import:
                for alias in node.children {
                    if let module = alias.text { imports.append((module, "*", alias.children.first?.text)) }
                }
            case .importFrom:
                guard let module = node.text else { break }
                for alias in node.children {
                    if let name = alias.text { imports.append((module, name, alias.children.first?.text)) }
                }
            case .attribute:
                if let attribute = node.text, let base = node.children.first, base.kind == .name, let name = base.text {
                    read[name, default: []].insert(attribute)
                }
            case .call:
                if let callee = node.children.first, callee.kind == .name, let name = callee.text {
                    read[name, default: []].insert(JavaScriptExports.defaultName)
                }
            case .classDef where node.children.count > 2:
                for base in node.children[2].children {
                    for part in base.dottedName?.split(separator: ".") ?? [] { bases.insert(String(part)) }
                }
            default:
                break
            }
            return true
        }
        self.imports = imports
        self.read = read
        self.bases = bases
    }

    /// Whether `text` may hold a relative specifier (`'./db'`, `"../lib"`, `` `.` ``): a quote
    /// followed by a dot. Without one, a file imports no module of the project.
    static func mayImportRelative(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "."), previous == UInt8(ascii: "'") || previous == UInt8(ascii: "\"") || previous == UInt8(ascii: "`") {
                return true
            }
            previous = byte
        }
        return false
    }

    func attributes(of names: Set<String>) -> [String: Set<String>] { read.filter { names.contains($0.key) } }

    func subclassed(_ names: Set<String>) -> Set<String> { bases.intersection(names) }
}
