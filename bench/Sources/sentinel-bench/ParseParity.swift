// `sentinel-bench parse`: the parser's verdict and a structural fingerprint per file, for
// bench/parse-parity.py to compare with CPython's ast.parse. Reads paths (one per line) on stdin and
// writes `path<TAB>ok<TAB>fingerprint` or `path<TAB>error<TAB>message` for each.
import Foundation
import PythonSyntax

enum ParseParity {
    /// Node counts CPython's `ast` has a one-to-one counterpart for (see `fingerprint` in parse-parity.py),
    /// in the order printed.
    static let counted: [(label: String, kinds: Set<SyntaxKind>)] = [
        (
            "stmt",
            [
                .functionDef, .asyncFunctionDef, .classDef, .return, .delete, .assign, .augAssign, .annAssign,
                .typeAlias, .exprStmt, .pass, .break, .continue, .raise, .assert, .import, .importFrom, .global,
                .nonlocal, .if, .while, .for, .asyncFor, .with, .asyncWith, .try, .tryStar, .match,
            ]
        ),
        ("call", [.call]), ("attr", [.attribute]), ("sub", [.subscript]), ("lambda", [.lambda]),
        ("binop", [.binOp]), ("boolop", [.boolOp]), ("cmp", [.compare]), ("comp", [.listComp, .setComp, .dictComp, .generatorExp]),
        ("yield", [.yield, .yieldFrom]), ("await", [.await]), ("ifexp", [.ifExp]), ("fstr", [.formattedValue]),
        ("name", [.name]), ("const", [.string, .bytes, .integer, .float, .imaginary, .true, .false, .none, .ellipsis]),
        ("unary", [.unaryOp]), ("tuple", [.tuple]), ("list", [.list]), ("dict", [.dict]), ("set", [.set]),
        ("starred", [.starred]), ("slice", [.slice]), ("walrus", [.namedExpr]),
        ("arg", [.parameter, .varArgs, .kwArgs]), ("for", [.comprehension]), ("handler", [.exceptHandler]),
        ("withitem", [.withItem]), ("alias", [.alias]),
    ]

    static func fingerprint(_ root: SyntaxNode) -> String {
        var index: [SyntaxKind: Int] = [:]
        for (i, entry) in counted.enumerated() { for kind in entry.kinds { index[kind] = i } }
        var counts = [Int](repeating: 0, count: counted.count)
        var stack = [root]
        while let node = stack.popLast() {
            if let i = index[node.kind] { counts[i] += 1 }
            // `import a as b` and `global a` hold plain names where CPython's tree has strings.
            if node.kind == .alias || node.kind == .global || node.kind == .nonlocal { continue }
            stack.append(contentsOf: node.children)
        }
        return zip(counted, counts).map { "\($0.label)=\($1)" }.joined(separator: " ")
    }

    static func run() {
        var out = ""
        while let line = readLine(strippingNewline: true) {
            guard !line.isEmpty else { continue }
            guard let data = FileManager.default.contents(atPath: line) else {
                out += "\(line)\terror\tunreadable\n"
                continue
            }
            do {
                let module = try PythonParser.parseModule(bytes: [UInt8](data), fileName: line)
                out += "\(line)\tok\t\(fingerprint(module.root))\n"
            } catch {
                out += "\(line)\terror\t\(error)\n"
            }
            if out.utf8.count > 1 << 16 {
                FileHandle.standardOutput.write(Data(out.utf8))
                out = ""
            }
        }
        FileHandle.standardOutput.write(Data(out.utf8))
    }
}
