import JavaScriptLowering
import Support

/// The frameworks and constructs of a scanned tree whose inputs the engine does not follow as
/// sources (issue 75): a scan that reads such code says so rather than counting it as analysed.
/// Each kind is found by evidence (what a file imports, calls or declares), never by a file name
/// alone; the server templates by their extension, a format no front end reads.
public enum UnmodelledConstructs {
    /// One kind of unmodelled code, in the order a notice lists them.
    public enum Kind: Int, Sendable, CaseIterable, Comparable {
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
        let applicable = aliases.filter { !$0.isEmpty }
        for (file, facts) in evidence {
            let fileAliases = applicable.filter { $0.covers(file) }
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

    /// The tree's files and its JavaScript modules by the lowering's names, to find what an alias
    /// or a template URL names.
    struct ModuleIndex {
        /// The modules' names (`src.lib.db`, `src.lib` for `src/lib/index.ts`).
        private let names: Set<String>
        /// Every file of the tree (a component's template is looked up here).
        private let known: Set<String>

        /// Indexes `files`, the tree's; `modules`, those of its JavaScript and TypeScript files that parsed.
        init(files: [String], modules: some Sequence<String>) {
            known = Set(files)
            names = Set(modules.compactMap { JavaScriptLowering.module(ofFile: $0)?.name })
        }

        /// Whether `path` (from the scan root, without extension or as written) is one of the
        /// tree's JavaScript or TypeScript modules.
        func isModule(_ path: String) -> Bool {
            // Named as the file `path.js` would be: the same module name as `path.ts`, `path/index.ts`.
            let name = JavaScriptLowering.module(ofFile: path)?.name ?? JavaScriptLowering.module(ofFile: path + ".js")?.name
            return name.map(names.contains) ?? false
        }

        /// Whether `path` is a file this index was made with.
        func isFile(_ path: String) -> Bool { known.contains(path) }
    }
}
