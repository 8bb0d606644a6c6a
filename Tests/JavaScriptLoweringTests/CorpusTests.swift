import Foundation
import JavaScriptLowering
import JavaScriptSyntax
import PythonSyntax
import SyntaxTree
import Testing

/// Opt-in: `SENTINEL_JS_CORPUS=/dir1:/dir2` lowers every JavaScript/TypeScript file under the
/// directories (`node_modules` skipped) that the parser accepts, prints each lowered tree, and
/// checks that every function and class was hoisted into a statement.
@Suite struct CorpusTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SENTINEL_JS_CORPUS"] != nil))
    func corpusLowers() throws {
        let roots = (ProcessInfo.processInfo.environment["SENTINEL_JS_CORPUS"] ?? "").split(separator: ":").map(String.init)
        let extensions: Set<String> = ["js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "vue", "svelte"]
        var parsed = 0
        var rejected = 0
        for root in roots {
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            while let relative = walker.nextObject() as? String {
                if relative.hasSuffix("node_modules") || relative.contains("/node_modules/") {
                    walker.skipDescendants()
                    continue
                }
                let url = URL(fileURLWithPath: root).appendingPathComponent(relative)
                guard extensions.contains(url.pathExtension.lowercased()),
                    let data = FileManager.default.contents(atPath: url.path), data.count <= 1 << 20
                else { continue }
                guard let program = try? JavaScriptParser.parse(bytes: Array(data), fileName: relative) else {
                    rejected += 1
                    continue
                }
                let module = JavaScriptLowering.lower(program.root)
                #expect(module.kind == .module)
                #expect(definitionsOutsideStatements(module).isEmpty, "a definition left in an expression in \(relative)")
                _ = module.normalizedSource
                parsed += 1
            }
        }
        print("lowered \(parsed) files (\(rejected) rejected by the parser)")
        #expect(parsed > 0)
    }
}
