import Testing

@testable import JavaScriptSyntax

/// The tree of `source` read as the file `name` (the name picks the dialect).
func program(_ source: String, _ name: String = "test.js") throws -> JSNode {
    try JavaScriptParser.parse(source: source, fileName: name).root
}

/// The S-expression of the one statement of `source`.
func statement(_ source: String, _ name: String = "test.js") throws -> String {
    let root = try program(source, name)
    #expect(root.children.count == 1, "expected one statement in \(source)")
    return root.children.first?.sexpr ?? ""
}

/// The S-expression of the expression of `source`'s one expression statement.
func expression(_ source: String, _ name: String = "test.js") throws -> String {
    let root = try program(source, name)
    guard root.children.count == 1, let only = root.children.first, only.kind == .expressionStatement else {
        Issue.record("expected one expression statement in \(source), got \(root.sexpr)")
        return ""
    }
    return only.children[0].sexpr
}

/// The error `source` is rejected with, or nil when it parses.
func rejection(_ source: String, _ name: String = "test.js") -> JavaScriptSyntaxError? {
    do {
        _ = try JavaScriptParser.parse(source: source, fileName: name)
        return nil
    } catch let error as JavaScriptSyntaxError {
        return error
    } catch {
        Issue.record("unexpected error type \(error)")
        return nil
    }
}

/// Every node of `root` of `kind`.
func nodes(_ root: JSNode, _ kind: JSNodeKind) -> [JSNode] {
    var found: [JSNode] = []
    root.forEachNode { if $0.kind == kind { found.append($0) } }
    return found
}
