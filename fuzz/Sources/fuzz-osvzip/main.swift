import Documents
import FuzzSupport
import Support

@testable import SCA

/// What the importer accepts from one entry: a damaged or unsupported entry is reported and
/// skipped; any other error would end the whole import.
let skippable: (any Error) -> Bool = { error in
    guard let error = error as? SentinelError else { return false }
    return error.code == .invalidInput || error.code == .unsupported
}

/// The OSV database's zip reader as `db import`/`db update` drive it: the end record (plain
/// and zip64), the central directory, each entry inflated and CRC-checked, then decoded as an
/// OSV record (JSON, or YAML when the first byte is odd, as for entries named `.yaml`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOSVZip(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(data, count)
    var archive: ZipArchive?
    survive("ZipArchive") { archive = try ZipArchive(path: "fuzz.zip", bytes: input.bytes) }
    for entry in archive?.entries.prefix(64) ?? [] {
        var contents: [UInt8]?
        survive("contents", typed: skippable) { contents = try archive?.contents(of: entry) }
        guard let bytes = contents else { continue }
        survive("OSV record") {
            let tree =
                input.selector % 2 == 0
                ? try OSVDecoder.parseJSON(bytes, source: entry.name) : try OSVDecoder.parseYAML(bytes, source: entry.name)
            return try OSVDecoder.record(from: tree, source: entry.name)
        }
    }
    return 0
}
