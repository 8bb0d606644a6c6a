import Findings
import Languages
import SAST
import Support

/// Source files and lockfiles a scan met but no scanner of it analyses: said in a notice and left
/// out of the files counted as scanned, never passed as clean. A `.ts` handler with a command
/// injection scanned as "No findings (1 file scanned)" told its team the opposite of the truth.
enum LanguageCoverage {
    /// Languages whose code no rule of this build reads, by file extension (Python, JavaScript and
    /// TypeScript, with Vue's and Svelte's scripts, are read by the native engine).
    static let unanalysedLanguages: [(language: String, extensions: Set<String>)] = [
        ("Go", ["go"]), ("Java", ["java"]), ("Kotlin", ["kt", "kts"]), ("Ruby", ["rb"]),
        ("PHP", ["php"]), ("C#", ["cs"]), ("Rust", ["rs"]), ("C/C++", ["c", "h", "cc", "cpp", "cxx", "hpp", "hh"]),
        ("Swift", ["swift"]), ("Scala", ["scala"]),
    ]

    /// Lockfiles of package managers no parser reads, by file name, with what to do instead.
    static let unreadLockfiles: [String: String] = [
        "bun.lockb": "Bun's binary lockfile: `bun install --save-text-lockfile` writes bun.lock, which is read",
        "packages.lock.json": "NuGet's lockfile is not read", "gradle.lockfile": "Gradle's lockfile is not read",
        "mix.lock": "Mix's lockfile is not read", "pubspec.lock": "Dart's lockfile is not read",
        "Podfile.lock": "CocoaPods' lockfile is not read", "conan.lock": "Conan's lockfile is not read",
    ]

    /// What `files` hold that the scan does not analyse: per language, its files (when a code
    /// scanner ran), the `scripts` whose interpreter no front end reads (`#!/bin/bash`: "bash
    /// script"), and the lockfiles no parser reads (when the dependency scanner ran).
    static func unanalysed(
        _ files: [String], codeScanned: Bool, dependenciesScanned: Bool, scripts: [(file: String, interpreter: String)] = []
    ) -> (
        sources: [(language: String, files: [String])], lockfiles: [(file: String, why: String)]
    ) {
        var byLanguage: [String: [String]] = [:]
        var lockfiles: [(file: String, why: String)] = []
        for file in files {
            let name = PathText.lastComponent(of: file)
            if dependenciesScanned, let why = unreadLockfiles[name] { lockfiles.append((file, why)) }
            guard codeScanned, let dot = name.lastIndex(of: "."), dot != name.startIndex else { continue }
            let suffix = name[name.index(after: dot)...].lowercased()
            guard let language = unanalysedLanguages.first(where: { $0.extensions.contains(suffix) })?.language else { continue }
            byLanguage[language, default: []].append(file)
        }
        var sources = unanalysedLanguages.compactMap { entry in byLanguage[entry.language].map { (entry.language, $0) } }
        if codeScanned {
            var byInterpreter: [String: [String]] = [:]
            for script in scripts where SourceLanguage(interpreter: script.interpreter) == nil {
                byInterpreter["\(script.interpreter) script", default: []].append(script.file)
            }
            sources += byInterpreter.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
        return (sources, lockfiles)
    }

    /// The notices that say so: one for the languages (most files first), one per lockfile.
    static func notices(
        sources: [(language: String, files: [String])], lockfiles: [(file: String, why: String)], secretsScanned: Bool
    ) -> [Notice] {
        var notices: [Notice] = []
        if !sources.isEmpty {
            let counts = sources.sorted { $0.files.count > $1.files.count }.map {
                "\($0.files.count) \($0.language) file\($0.files.count == 1 ? "" : "s")"
            }
            notices.append(
                Notice(
                    level: .warning,
                    message: "code not analysed (no rules for its language yet): \(counts.joined(separator: ", "))"
                        + (secretsScanned ? "; only secrets were looked for in it" : "")))
        }
        for lockfile in lockfiles {
            notices.append(Notice(level: .warning, message: "lockfile not read: \(lockfile.why)", file: lockfile.file))
        }
        return notices
    }
}
