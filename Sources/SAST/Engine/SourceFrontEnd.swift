import JavaScriptLowering
import JavaScriptSyntax
import PythonSyntax

/// A file read by its language's front end into the engine's one tree (DESIGN §1b).
struct ParsedSource {
    /// The module: Python's own tree, or JavaScript/TypeScript lowered into it.
    var root: PyNode
    /// The language the file was read as.
    var language: SourceLanguage
    /// Python only: why the file is not Python 3 when it was read with the Python 2 dialect.
    var python3Failure: PythonSyntaxError?
}

/// Reads a file with the front end of its language, on the calling (large-stack) thread.
enum SourceFrontEnd {
    /// What did not parse, said once for every language.
    enum Failure: Error {
        case python(PythonSyntaxError)
        case javaScript(JavaScriptSyntaxError)

        /// `file:line:col: message (file skipped)`, one line.
        var notice: String {
            switch self {
            case .python(let error): "\(error.description) (file skipped)"
            case .javaScript(let error): "\(error.description) (file skipped)"
            }
        }
    }

    /// The tree of `bytes`, the text of `file`, read as `language`.
    /// - Throws: ``Failure``.
    static func parse(bytes: [UInt8], file: String, language: SourceLanguage) throws(Failure) -> ParsedSource {
        switch language {
        case .python:
            do {
                let module = try PythonParser.parseAnyDialectOnCurrentThread(bytes: bytes, fileName: file)
                return ParsedSource(root: module.root, language: language, python3Failure: module.python3Failure)
            } catch let error as PythonSyntaxError {
                throw .python(error)
            } catch {
                throw .python(PythonSyntaxError(.unexpectedToken, file: file, line: 1, column: 1, message: "cannot parse: \(error)"))
            }
        case .javascript, .typescript:
            do {
                let program = try JavaScriptParser.parseOnCurrentThread(bytes: bytes, fileName: file)
                return ParsedSource(root: JavaScriptLowering.lowerOnCurrentThread(program.root), language: language)
            } catch let error as JavaScriptSyntaxError {
                throw .javaScript(error)
            } catch {
                throw .javaScript(
                    JavaScriptSyntaxError(.unexpectedToken, file: file, line: 1, column: 1, message: "cannot parse: \(error)"))
            }
        }
    }
}
