import Foundation
import Testing

@testable import PythonSyntax
import TestSupport

/// `DefinitionIndex` answers as the tree's own descent (`enclosingDefinitions(containing:)`) does,
/// at the start of every node of real files (Bandit's examples, Semgrep's Python rule tests).
@Suite struct DefinitionIndexTests {
    private static func nodes(of root: SyntaxNode) -> [SyntaxNode] {
        var out: [SyntaxNode] = []
        var stack = [root]
        while let node = stack.popLast() {
            out.append(node)
            stack += node.children
        }
        return out
    }

    @Test func agreesWithTheDescentOnNestedDefinitions() throws {
        let source = """
            import os
            @decorator(lambda: 1)
            class A(Base):
                x = 1
                def f(self, y=lambda z: z):
                    def g():
                        class B:
                            async def h(self):
                                return os.system("x")
                        return B
                    return g
            def top():
                pass
            value = [i for i in range(3)]

            """
        let root = try PythonParser.parseModule(bytes: Array(source.utf8), fileName: "n.py").root
        let index = DefinitionIndex(root)
        for node in Self.nodes(of: root) {
            #expect(index.enclosing(node.range.start) == root.enclosingDefinitions(containing: node.range.start))
        }
        let deepest = try #require(Self.nodes(of: root).first { $0.kind == .call && $0.range.start.line == 9 })
        #expect(index.enclosing(deepest.range.start).compactMap(\.text) == ["A", "f", "g", "B", "h"])
    }

    @Test(.needsCorpus("bandit/examples", "semgrep-rules/python"))
    func agreesWithTheDescentOnCorpusFiles() throws {
        var compared = 0
        for url in PyTest.corpusFiles().prefix(400) {
            guard let data = FileManager.default.contents(atPath: url.path),
                let module = try? PythonParser.parseModule(bytes: [UInt8](data), fileName: url.path)
            else { continue }
            let index = DefinitionIndex(module.root)
            for node in Self.nodes(of: module.root) {
                let expected = module.root.enclosingDefinitions(containing: node.range.start)
                #expect(index.enclosing(node.range.start) == expected, "\(url.path) \(node.range)")
                compared += 1
            }
        }
        #expect(compared > 10_000)
    }
}
