import Support

/// A bundler's runtime, which only a bundler writes: webpack's bootstrap (`function
/// __webpack_require__(`, `__webpack_modules__`, its `/******/` banner lines, a chunk's
/// `webpackChunk…push(` or older `webpackJsonp`), Parcel's `parcelRequire`, Browserify's prelude,
/// esbuild's module helpers (`var __commonJS = `, `var __toESM = `), Vite's preload helpers
/// (`__vitePreload`, `__vite__mapDeps`) and `System.register(` of its legacy chunks, and the
/// UMD factory wrapper that Rollup and webpack put around a library build. Each is a definition
/// or a wrapper's shape, not a mere use: application code may name `__webpack_public_path__` or
/// `import.meta.env`, which are not here.
enum BundlerRuntime {
    /// Text only bundlers' output holds.
    static let markers = [
        "function __webpack_require__(", "__webpack_modules__", "\n/******/ ", "webpackChunk", "webpackJsonp",
        "parcelRequire", "\"function\"==typeof require&&require", "var __commonJS = (", "var __toESM = (",
        "__vitePreload", "__vite__mapDeps", "System.register([",
    ].map { Array($0.utf8) }
    /// The UMD wrapper's tests, all of which open a Rollup or webpack library build.
    static let universalModuleDefinition = ["typeof exports", "typeof define", "define.amd", "factory"].map { Array($0.utf8) }
    /// How far into the file the UMD wrapper is looked for.
    static let wrapperWindow = 2_048

    /// Whether `sample` holds a bundler's runtime in its head or tail.
    static func matches(_ sample: SourceSample) -> Bool {
        if sample.head.starts(with: Array("/******/ ".utf8)) { return true }
        for part in sample.parts where markers.contains(where: { !ByteSearch.occurrences(of: $0, in: part[...]).isEmpty }) {
            return true
        }
        let top = sample.head.prefix(wrapperWindow)
        return universalModuleDefinition.allSatisfy { !ByteSearch.occurrences(of: $0, in: top).isEmpty }
    }
}
