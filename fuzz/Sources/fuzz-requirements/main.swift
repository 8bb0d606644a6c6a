import FuzzSupport
import Support

@testable import SCA

/// pip requirements files with includes: the input is split on NUL into files `0`, `1`, ...;
/// `-r N`/`-c N` in any of them reads file N (a name that is not a number is missing), so
/// cycles, depth and constraints are reached. The first byte also picks a file name style.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequirements(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(data, count)
    let files = input.bytes.split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
    let parser = RequirementsParser(loader: { path in
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let index = Int(name), files.indices.contains(index) else {
            throw SentinelError(.io, "\(path): no such file")
        }
        return files[index]
    })
    let names = ["0", "requirements/0", "a/b/0", "./0"]
    let main = files.first ?? []
    survive("requirements") { try parser.parse(main, file: names[Int(input.selector) % names.count]) }
    // pip's own reading of the text, alone: decoding and line splitting.
    if case .text(let text) = PipText.decode(input.bytes) { _ = PipText.lines(text) }
    return 0
}
