import FuzzSupport
import SCA

/// Every lockfile and manifest format the SCA reads, in `LockfileDetector` order; the first
/// input byte picks the parser. Includes are not followed here (fuzz-requirements does that).
let parsers: [any LockfileParser] = [
    RequirementsParser(loader: { _ in [] }), PipfileLockParser(), PoetryLockParser(), UVLockParser(),
    PDMLockParser(), CargoLockParser(), GoModParser(), GoSumParser(), PackageLockParser(), YarnLockParser(),
    PnpmLockParser(), GemfileLockParser(), ComposerLockParser(), PackageResolvedParser(),
]

/// libFuzzer's entry point: one input, always 0 (a broken contract traps).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLockfiles(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(data, count)
    let parser = parsers[Int(input.selector) % parsers.count]
    survive(type(of: parser).format) {
        let result = try parser.parse(input.bytes, file: "fuzz")
        // What matching does next: each version read by its ecosystem's scheme and compared.
        var previous = "0"
        for dependency in result.dependencies {
            guard let version = dependency.version else { continue }
            let scheme = dependency.ecosystem.versionScheme
            _ = scheme.compare(version, previous)
            _ = scheme.equalityKey(of: version)
            previous = version
        }
        return result.problems.map(\.description)
    }
    return 0
}
