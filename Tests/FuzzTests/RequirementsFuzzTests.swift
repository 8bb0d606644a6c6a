import SCA
import Support
import Testing

/// pip requirements with includes on mutants: the input split on NUL is a set of files `0`,
/// `1`, ... that `-r N`/`-c N` name, so cycles, nesting and constraints are reached.
@Suite struct RequirementsFuzzTests {
    static func parse(_ bytes: [UInt8]) -> String? {
        let files = bytes.split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
        let parser = RequirementsParser(loader: { path in
            // A path maps to one file only: the tree stays finite, as a repository's is.
            guard let index = Int(path), files.indices.contains(index) else {
                throw SentinelError(.io, "\(path): no such file")
            }
            return files[index]
        })
        return contractBroken(typed: { $0 is SentinelError }) { _ = try parser.parse(files.first ?? [], file: "0") }
    }

    @Test func mutatedRequirements() {
        let seeds =
            FuzzSeeds.files("SCATests/Fixtures/lockfiles/requirements")
            + [
                Array("-r 1\n-c 2\na==1.0 \\\n  --hash=sha256:00\n\0b[x]==2; python_version<'4'\n-r 0\0a==1.1\n".utf8),
                Array("# c\u{0C}requests==2.19.1\u{0B}x==1\u{85}y==2\u{2028}z==3\r\n-e git+https://h/r#egg=p\n".utf8),
                [0xFF, 0xFE, 0x61, 0, 0x3D, 0, 0x3D, 0, 0x31, 0, 0x0A, 0],
                Array("# -*- coding: latin-1 -*-\nna\u{EF}ve==1.0\n-r ../../etc/shadow\n--index-url http://x\n".utf8),
            ]
        let dictionary = [
            "-r ", "-c ", "1", "2", "0", "==", "\\\n", "\n", "#", " ", ";", "[", "]", "--hash=", "-e ", "\0", "\"", "'", "\\ ",
            "--requirement=",
        ]
        let problems = fuzz(seeds: seeds, dictionary: dictionary, seed: 2026, iterations: 500, Self.parse)
        #expect(problems.isEmpty, "\(problems)")
    }
}
