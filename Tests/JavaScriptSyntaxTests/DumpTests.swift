import Foundation
import Testing

@testable import JavaScriptSyntax

/// Prints the tree of $JS_DUMP (a file) read as $JS_DUMP_NAME: a development aid, silent otherwise.
@Test func dumpWhenAsked() throws {
    guard let path = ProcessInfo.processInfo.environment["JS_DUMP"], let data = FileManager.default.contents(atPath: path)
    else { return }
    let name = ProcessInfo.processInfo.environment["JS_DUMP_NAME"] ?? path
    do {
        let root = try JavaScriptParser.parse(bytes: [UInt8](data), fileName: name).root
        for child in root.children { print(child.sexpr) }
    } catch {
        print("ERROR \(error)")
    }
}
