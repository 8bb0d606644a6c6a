import Languages
import Synchronization
import SyntaxTree

/// A file read by its language's front end into the engine's one tree (DESIGN §1b, §1d).
struct ParsedSource: Sendable {
    /// The module: the file's tree in the shared kinds.
    var root: SyntaxNode
    /// The language the file was read as.
    var language: SourceLanguage
    /// Why the file was read with an older dialect of its language, when it was (Python 2).
    var dialectNotice: String?
}

/// Reads a file with the front end of its language (``Languages/registry``), on the calling
/// (large-stack) thread.
enum SourceFrontEnd {
    /// What did not parse, said once for every language.
    struct Failure: Error {
        /// The language's error.
        var error: SourceReadError

        /// `file:line:col: message (file skipped)`, one line.
        var notice: String { "\(error.description) (file skipped)" }
    }

    /// Called with the file's name each time a file is read (tests count the reads of their own
    /// files with them: one per file per scan), by key, so that tests running at once each keep
    /// theirs; empty in a scan.
    static let readObservers = Mutex<[String: @Sendable (String) -> Void]>([:])

    /// The tree of `bytes`, the text of `file`, read as `language`.
    /// - Throws: ``Failure``.
    static func parse(bytes: [UInt8], file: String, language: SourceLanguage) throws(Failure) -> ParsedSource {
        for observe in readObservers.withLock({ $0.values }) { observe(file) }
        guard let reader = language.language else {
            throw Failure(
                error: SourceReadError(
                    .syntax, file: file, line: 1, column: 1, message: "no language '\(language.name)' is registered",
                    description: "\(file):1:1: no language '\(language.name)' is registered", runtime: language.name))
        }
        do {
            let lowered = try reader.read(bytes, file: file)
            return ParsedSource(root: lowered.root, language: language, dialectNotice: lowered.dialectNotice)
        } catch {
            throw Failure(error: error)
        }
    }
}
