/// A language the engine reads (issue 77, "the language seam"; DESIGN §1d): everything the scan,
/// the engine and heal ask of a language, so that adding one is implementing this protocol and
/// registering it (``LanguageRegistry``), not editing the engine.
///
/// A language names its files (extensions, shebang interpreters), reads one into ``SyntaxNode``
/// (decode, parse and lower on the calling thread, which the engine has given a large stack),
/// reads a rule's pattern into the same tree, names the module a file is, and answers the
/// questions the analysis asks where languages differ (capabilities with names that explain them).
public protocol Language: Sendable {
    /// The name rules list in `languages:` and reports print (`python`, `javascript`), lowercase.
    var name: String { get }
    /// Other names a rule may use for it (`py`, `js`, `ts`), lowercase.
    var aliases: [String] { get }
    /// The extensions (lowercase, without the dot) of the files it reads by name, in its
    /// preferred order where one module may be written by several (`ts` before `js`).
    var fileExtensions: [String] { get }
    /// Whether a script whose shebang names `interpreter` (`python3.12`, `node`) is in this language.
    func runsScripts(of interpreter: String) -> Bool
    /// The name of the front end that reads this language's rule patterns: languages that share
    /// it (JavaScript and TypeScript) may be named by one rule.
    var patternSyntax: String { get }

    /// `bytes`, the contents of `file`, read into the shared tree, on the calling thread.
    /// - Throws: ``SourceReadError`` when the file cannot be read as this language.
    func read(_ bytes: [UInt8], file: String) throws(SourceReadError) -> LoweredSource
    /// A rule's pattern (metavariables `$X`, `$...X`, and `...`) read into the shared tree.
    /// - Throws: ``SourceReadError`` when the pattern is not this language.
    func lowerPattern(_ text: String) throws(SourceReadError) -> SyntaxNode

    /// How the files of the language name each other's modules.
    var modules: ModuleConventions { get }
    /// The module `file` (a path relative to the scan root) is, and whether it is its directory's
    /// package; nil for a file that is no module (a type declaration, a name no import can spell).
    func module(ofFile file: String) -> SourceModule?

    /// The names a method's receiver has (`self` and `cls`; `this`): a call on one is a call of
    /// the enclosing class's own method.
    var receiverNames: Set<String> { get }
    /// How the lowering made the language's functions written inside expressions into statements
    /// (nil: the language writes functions as statements only).
    var hoisting: FunctionHoisting? { get }
    /// Whether the language binds names to values at run time that its imports name (`const run =
    /// cp.exec`, `globalThis.eval`), so that the engine follows those names like imports.
    var bindsImportedValuesToNames: Bool { get }
    /// Whether a module's exports may be published under other names than its definitions'
    /// (`module.exports = {find: lookup}`), so that the engine reads the export aliases.
    var exportsUnderOtherNames: Bool { get }
}

/// How a language's files name each other as modules.
public struct ModuleConventions: Sendable, Hashable {
    /// The first part of every module name of the language (`-js` for JavaScript), so that no
    /// import of one language resolves to another's file; empty for the language whose names are
    /// the namespace's root (Python: its dotted names are what other languages' prefixes avoid).
    public var namespace: String
    /// Whether an import names a module by the end of its dotted name too (Python's `models`
    /// for `app.models` when the scan starts above the package); false: only by its full name.
    public var resolvesBySuffix: Bool
    /// Whether a bare relative import (`require('..')`) names a directory's package.
    public var bareRelativeImportsNamePackages: Bool
    /// Whether calling a name bound to a whole module calls its default export (JavaScript's
    /// `const f = require('./f'); f(x)`).
    public var callingModuleCallsDefaultExport: Bool
    /// Whether the file's imports are read from its tree (false: from its text, before it is parsed).
    public var importsReadFromTree: Bool
    /// The file that makes a directory a package (`__init__.py`), so that a scan root holding it
    /// is that package and its name leads every module's; nil when the language has none.
    public var packageFileName: String?
    /// Whether a call through a name bound to a relative module (`db.find(x)` after
    /// `const db = require('./db')`) is followed into that module's function.
    public var followsCallsThroughRelativeModules: Bool
    /// Among languages sharing a namespace, whose file is the module when files of several are
    /// named alike: the lower (TypeScript's 0: `foo.ts` is the source of the `foo.js` compiled from it).
    public var preference: Int

    /// Conventions with each part given.
    public init(
        namespace: String, resolvesBySuffix: Bool, bareRelativeImportsNamePackages: Bool,
        callingModuleCallsDefaultExport: Bool, importsReadFromTree: Bool, packageFileName: String? = nil,
        followsCallsThroughRelativeModules: Bool = false, preference: Int = 0
    ) {
        self.packageFileName = packageFileName
        self.followsCallsThroughRelativeModules = followsCallsThroughRelativeModules
        self.preference = preference
        self.namespace = namespace
        self.resolvesBySuffix = resolvesBySuffix
        self.bareRelativeImportsNamePackages = bareRelativeImportsNamePackages
        self.callingModuleCallsDefaultExport = callingModuleCallsDefaultExport
        self.importsReadFromTree = importsReadFromTree
    }
}

/// The module a file is.
public struct SourceModule: Sendable, Hashable {
    /// Its dotted name, without the language's namespace (`routes.users`; empty at the root).
    public var name: String
    /// Whether the file is its directory's package (`__init__.py`, `index.js`).
    public var isPackage: Bool

    /// A module named `name`.
    public init(name: String, isPackage: Bool) {
        self.name = name
        self.isPackage = isPackage
    }
}

/// How a language's lowering hoists functions written in expressions into definitions.
public struct FunctionHoisting: Sendable, Hashable {
    /// The name prefix of a hoisted definition (`#fn0`), one no identifier of the language can start with.
    public var definitionPrefix: String
    /// The name prefix of a hoisted temporary (`#tmp0`: a module an expression imports).
    public var temporaryPrefix: String
    /// The methods that call a callback with their receiver's elements (`forEach`, `then`).
    public var elementCallbackMethods: Set<String>

    /// Hoisting with each part given.
    public init(definitionPrefix: String, temporaryPrefix: String, elementCallbackMethods: Set<String>) {
        self.definitionPrefix = definitionPrefix
        self.temporaryPrefix = temporaryPrefix
        self.elementCallbackMethods = elementCallbackMethods
    }

    /// Whether `name` is a hoisted definition's.
    public func isHoistedDefinition(_ name: String?) -> Bool { name?.hasPrefix(definitionPrefix) == true }
    /// Whether `name` is a hoisted temporary's.
    public func isTemporary(_ name: String?) -> Bool { name?.hasPrefix(temporaryPrefix) == true }
}

/// A file read into the shared tree.
public struct LoweredSource: Sendable {
    /// The module: statements as ``SyntaxKind/module``'s children.
    public var root: SyntaxNode
    /// Why the file was read with an older dialect of the language (Python 2), said once; nil
    /// when it was read as the language is today.
    public var dialectNotice: String?

    /// A tree, with the notice of its dialect when there is one.
    public init(root: SyntaxNode, dialectNotice: String? = nil) {
        self.root = root
        self.dialectNotice = dialectNotice
    }
}

/// Why a file or pattern could not be read as its language: every language's syntax error said
/// one way, and whether it was one of the parser's bounds (which the scan reports as a finding:
/// the language's runtime may still run the file).
public struct SourceReadError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: Hashable, Sendable {
        /// The stable name.
        public let rawValue: String
        /// A code named `rawValue`.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The text is not the language (a syntax error, an undecodable byte).
        public static let syntax = Code("syntax")
        /// The parser stopped at one of its bounds (nesting depth, size, ambiguity): the file may
        /// be valid, and its runtime may run it.
        public static let boundHit = Code("bound-hit")
        /// The file declares an encoding the reader does not decode.
        public static let unsupportedEncoding = Code("unsupported-encoding")
    }

    /// What went wrong.
    public var code: Code
    /// The file (or `<pattern>`).
    public var file: String
    /// 1-based line of the problem.
    public var line: Int
    /// 1-based column of the problem.
    public var column: Int
    /// The problem, without the position.
    public var message: String
    /// `file:line:col: message`, as the language's parser says it.
    public var description: String
    /// What runs files of the language (`Python`, `Node`), named in a bound's finding.
    public var runtime: String
    /// The parser's own error, for a caller that knows the language.
    public var underlying: (any Error & Sendable)?

    /// An error of kind `code`.
    public init(
        _ code: Code, file: String, line: Int, column: Int, message: String, description: String, runtime: String,
        underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.description = description
        self.runtime = runtime
        self.underlying = underlying
    }
}
