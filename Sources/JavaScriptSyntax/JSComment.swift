import Support
import Synchronization

/// Where the comments of a JavaScript or TypeScript file start, as the parser reads the file: a
/// `//` or `/*` inside a string, a template literal, a regular expression or JSX text starts
/// none. Suppressions (`// nosec`, `// sentinel: ignore[...]`) count only there, as Python's do
/// through its tokenizer (`PyComment.offsets`).
public enum JSComment {
    /// The byte offsets of the comments' `/` in `bytes` (a `.vue` or `.svelte` file's `<script>`
    /// blocks, in place). Nil when the file name is no JavaScript, TypeScript or component, or
    /// when the parser refuses the file: then nothing is known.
    public static func offsets(in bytes: [UInt8], fileName: String) -> Set<Int>? {
        guard JavaScriptDialect(fileName: fileName) != nil || ScriptBlocks(fileName: fileName, bytes: []) != nil else {
            return nil
        }
        let log = JSCommentLog()
        guard
            (try? LargeStack.run {
                try JavaScriptParser.parseOnCurrentThread(bytes: bytes, fileName: fileName, dialect: nil, comments: log)
            }) != nil
        else { return nil }
        return log.offsets.withLock { $0 }
    }
}

/// The comment starts one parse met, shared by the copies of its lexer: the parser saves and
/// restores the lexer to read ahead, and notes kept in the lexer's value would be copied whole
/// by each note after a save (quadratic). A read-ahead the parser abandons reads its bytes in the
/// mode the grammar gives them, as the parse that follows does, so it notes no other comment.
final class JSCommentLog: Sendable {
    let offsets = Mutex<Set<Int>>([])

    func record(_ offset: Int) {
        offsets.withLock { _ = $0.insert(offset) }
    }
}
