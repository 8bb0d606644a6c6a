import FuzzSupport
import Support

@testable import SCA

/// pip requirements files with includes: the input is split on NUL into files `0`, `1`, ...
/// in the main file's directory; `-r N`/`-c N` reads file N there (any other path is missing),
/// so cycles, depth and constraints are reached over a finite tree, as in a repository. The
/// first byte picks the directory.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequirements(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(data, count)
    let files = input.bytes.split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
    let directory = ["", "requirements/", "a/b/"][Int(input.selector) % 3]
    let parser = RequirementsParser(loader: { path in
        // A path maps to one file only: the tree stays finite, so `visited` bounds the reads.
        guard path.hasPrefix(directory), let index = Int(path.dropFirst(directory.count)), files.indices.contains(index)
        else { throw SentinelError(.io, "\(path): no such file") }
        return files[index]
    })
    survive("requirements") { try parser.parse(files.first ?? [], file: directory + "0") }
    // pip's own reading of the text, alone: decoding and line splitting.
    if case .text(let text) = PipText.decode(input.bytes) { _ = PipText.lines(text) }
    return 0
}
