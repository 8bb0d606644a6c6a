import JavaScriptLowering
import Support

/// The frameworks and constructs of a scanned tree whose inputs the engine does not follow as
/// sources (issue 75): a scan that reads such code says so rather than counting it as analysed.
/// Each kind is found by evidence (what a file imports, calls or declares), never by a file name
/// alone; the server templates by their extension, a format no front end reads.
public enum UnmodelledConstructs {
    /// One kind of unmodelled code, in the order a notice lists them.
    public enum Kind: Int, Sendable, CaseIterable, Comparable {
        /// tRPC procedures: their `input` is the client's request.
        case trpcProcedures
        /// Angular components' templates (`templateUrl` files, inline `template:`).
        case angularTemplates
        /// Imports through TypeScript's `paths` aliases (`@/lib/db`), not followed across files.
        case pathAliases
        /// EJS templates (`.ejs`).
        case ejsTemplates
        /// Pug (formerly Jade) templates (`.pug`, `.jade`).
        case pugTemplates
        /// Handlebars templates (`.hbs`, `.handlebars`).
        case handlebarsTemplates
        /// Nunjucks templates (`.njk`).
        case nunjucksTemplates

        /// How a notice names the kind, before its count of files.
        public var label: String {
            switch self {
            case .trpcProcedures: "tRPC procedures"
            case .angularTemplates: "Angular templates"
            case .pathAliases: "TypeScript path aliases not resolved"
            case .ejsTemplates: "EJS templates"
            case .pugTemplates: "Pug templates"
            case .handlebarsTemplates: "Handlebars templates"
            case .nunjucksTemplates: "Nunjucks templates"
            }
        }

        /// Orders kinds as a notice lists them.
        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    /// The server-side template formats no front end reads, by extension (without the dot). Jinja2
    /// and Django templates are read (``TemplateFiles/extensions``) and are not listed.
    public static let serverTemplateExtensions: [String: Kind] = [
        "ejs": .ejsTemplates, "pug": .pugTemplates, "jade": .pugTemplates, "hbs": .handlebarsTemplates,
        "handlebars": .handlebarsTemplates, "njk": .nunjucksTemplates,
    ]

    /// The package whose importers define tRPC procedures.
    static let trpcServer = "@trpc/server"
    /// The package whose importers declare Angular components.
    static let angularCore = "@angular/core"

    /// What `files` (every file the scan selected, relative to its root) hold of each kind, each
    /// kind's files sorted; kinds without files are left out. `evidence`: the JavaScript and
    /// TypeScript files' (those that parsed); `aliases`: the tree's configs that declare `paths`.
    public static func survey(
        files: [String], evidence: [String: FrameworkEvidence], aliases: [PathAliases]
    ) -> [(kind: Kind, files: [String])] {
        var found: [Kind: Set<String>] = [:]
        for file in files {
            let suffix = PathText.pathExtension(of: file).lowercased()
            if let kind = serverTemplateExtensions[suffix] { found[kind, default: []].insert(file) }
        }
        let modules = ModuleIndex(files: files, modules: evidence.keys)
        // tRPC's server package, imported by the file itself or by a project module it imports
        // (the `t.procedure` of a `trpc.ts` most routers import): one step is enough.
        let importsTRPC = Set(evidence.filter { $0.value.imports.contains(where: isTRPCServer) }.keys)
        let applicable = aliases.filter { !$0.isEmpty }
        for (file, facts) in evidence {
            let fileAliases = applicable.filter { $0.covers(file) }
            if facts.definesProcedures,
                importsTRPC.contains(file)
                    || facts.imports.contains(where: { module in
                        modules.files(imported: module, by: file, aliases: fileAliases).contains(where: importsTRPC.contains)
                    })
            {
                found[.trpcProcedures, default: []].insert(file)
            }
            if facts.imports.contains(angularCore) {
                let directory = PathText.directory(of: file)
                for url in facts.templateURLs {
                    // Angular resolves a template beside its component, `./` or not.
                    if let template = PathAliases.treePath(url, from: directory), modules.isFile(template) {
                        found[.angularTemplates, default: []].insert(template)
                    }
                }
                if facts.hasInlineTemplate { found[.angularTemplates, default: []].insert(file) }
            }
            if !fileAliases.isEmpty,
                facts.imports.contains(where: { module in fileAliases.contains { $0.resolves(module, exists: modules.isModule) } })
            {
                found[.pathAliases, default: []].insert(file)
            }
        }
        return found.keys.sorted().compactMap { kind in found[kind].map { (kind, $0.sorted()) } }
    }

    /// Whether `module` is tRPC's server package or one of its entry points (`@trpc/server/adapters/next`).
    static func isTRPCServer(_ module: String) -> Bool {
        module == trpcServer || module.hasPrefix(trpcServer + "/")
    }

    /// The tree's files and its JavaScript modules by the lowering's names, to find what an import
    /// names.
    struct ModuleIndex {
        /// Module name (`src.server.trpc`, `src.lib` for `src/lib/index.ts`) → its files.
        private var byName: [String: [String]] = [:]
        /// Every file of the tree (a component's template is looked up here).
        private let known: Set<String>

        /// Indexes `files`, the tree's; `modules`, those of its JavaScript and TypeScript files that parsed.
        init(files: [String], modules: some Sequence<String>) {
            known = Set(files)
            for file in modules {
                if let module = JavaScriptLowering.module(ofFile: file) { byName[module.name, default: []].append(file) }
            }
        }

        /// Whether `path` (from the scan root, without extension or as written) is one of the
        /// tree's JavaScript or TypeScript modules.
        func isModule(_ path: String) -> Bool { !files(ofPath: path).isEmpty }

        /// Whether `path` is a file this index was made with.
        func isFile(_ path: String) -> Bool { known.contains(path) }

        /// The files of the module `module` names when `file` imports it: a relative module by
        /// the lowering's naming, an alias through `aliases`; none for a package.
        func files(imported module: String, by file: String, aliases: [PathAliases]) -> [String] {
            if module.hasPrefix(".") {
                guard let own = JavaScriptLowering.module(ofFile: file) else { return [] }
                // The lowering's relative module (`..lib.util`) against the file's own name, as
                // Python's `from ..lib import util` is read.
                let dots = module.prefix { $0 == "." }.count
                var parts = own.name.split(separator: ".").map(String.init)
                if !own.isPackage { parts.removeLast(min(1, parts.count)) }
                guard dots - 1 <= parts.count else { return [] }
                parts.removeLast(dots - 1)
                let rest = module.dropFirst(dots)
                if !rest.isEmpty { parts.append(String(rest)) }
                return byName[parts.joined(separator: ".")] ?? []
            }
            return aliases.flatMap { $0.paths(of: module) }.flatMap(files(ofPath:))
        }

        /// The files a path names as an import would (`src/lib/db` → `src/lib/db.ts`, `src/lib`
        /// → `src/lib/index.ts`; `src/lib/db.js` → the `db` module).
        private func files(ofPath path: String) -> [String] {
            // Named as the file `path.js` would be: the same module name as `path.ts`, `path/index.ts`.
            let name = JavaScriptLowering.module(ofFile: path)?.name ?? JavaScriptLowering.module(ofFile: path + ".js")?.name
            return name.flatMap { byName[$0] } ?? []
        }
    }
}
