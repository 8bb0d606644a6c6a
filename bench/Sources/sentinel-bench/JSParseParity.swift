// `sentinel-bench parse-js FILE...` (or paths on stdin): the JavaScript/TypeScript parser's verdict, a
// structural fingerprint and the parse time per file, one JSON line each, for bench/js-parse-parity.py
// to compare with tree-sitter and `node --check`.
import Foundation
import JavaScriptSyntax

enum JSParseParity {
    /// Counted node kinds with a counterpart in tree-sitter's grammars (see `fingerprint` in
    /// js-parse-parity.py), in the order printed.
    static let counted: [(label: String, kinds: Set<JSNodeKind>)] = [
        ("class", [.classDeclaration, .classExpression]),
        ("call", [.call, .importCall, .taggedTemplate]),
        ("new", [.new]),
        ("member", [.member]),
        ("import", [.importDeclaration, .importEquals]),
        ("export", [.exportNamed, .exportAll, .exportDeclaration, .exportDefault, .exportAssignment, .exportNamespace]),
        ("jsx", [.jsxElement]),
        ("string", [.string]),
        ("template", [.templateLiteral]),
    ]

    static let functionKinds: Set<JSNodeKind> = [.functionDeclaration, .functionExpression, .arrowFunction, .method]

    static func fingerprint(_ root: JSNode) -> [String: Int] {
        var index: [JSNodeKind: Int] = [:]
        for (i, entry) in counted.enumerated() { for kind in entry.kinds { index[kind] = i } }
        var counts = [Int](repeating: 0, count: counted.count)
        var functions = 0
        root.forEachNode { node in
            if let i = index[node.kind] { counts[i] += 1 }
            // Functions with a body: overloads and abstract members are signatures in tree-sitter.
            if functionKinds.contains(node.kind), let body = node.children.last, !body.isEmpty { functions += 1 }
        }
        var result = ["function": functions, "top": root.children.count]
        for (entry, count) in zip(counted, counts) { result[entry.label] = count }
        return result
    }

    static func json(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func run(_ arguments: [String]) {
        var paths = arguments
        if paths.isEmpty {
            while let line = readLine(strippingNewline: true) { if !line.isEmpty { paths.append(line) } }
        }
        var out = ""
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                out += "{\"file\":\(json(path)),\"ok\":false,\"code\":\"unreadable\",\"error\":\"unreadable\"}\n"
                continue
            }
            let bytes = [UInt8](data)
            let start = DispatchTime.now().uptimeNanoseconds
            do {
                let program = try JavaScriptParser.parse(bytes: bytes, fileName: path)
                let micros = (DispatchTime.now().uptimeNanoseconds - start) / 1000
                let fields = fingerprint(program.root).sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }
                out +=
                    "{\"file\":\(json(path)),\"ok\":true,\"bytes\":\(bytes.count),\"us\":\(micros),"
                    + "\"dialect\":\"\(program.dialect)\",\"fp\":{\(fields.joined(separator: ","))}}\n"
            } catch let error as JavaScriptSyntaxError {
                let micros = (DispatchTime.now().uptimeNanoseconds - start) / 1000
                out +=
                    "{\"file\":\(json(path)),\"ok\":false,\"bytes\":\(bytes.count),\"us\":\(micros),"
                    + "\"code\":\"\(error.code)\",\"line\":\(error.line),\"column\":\(error.column),\"error\":\(json(error.message))}\n"
            } catch {
                out += "{\"file\":\(json(path)),\"ok\":false,\"code\":\"other\",\"error\":\(json("\(error)"))}\n"
            }
            if out.utf8.count > 1 << 16 {
                FileHandle.standardOutput.write(Data(out.utf8))
                out = ""
            }
        }
        FileHandle.standardOutput.write(Data(out.utf8))
    }
}
