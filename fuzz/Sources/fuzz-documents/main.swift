import Documents
import DocumentsYAML
import FuzzSupport

/// JSON, TOML and YAML (each scalar mode, single document and stream); every tree read is
/// written back with the JSON writer and that output read again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDocuments(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(data, count)
    let bytes = input.bytes
    func roundTrip(_ node: DocumentNode) throws -> DocumentNode {
        try JSON.parse(JSONWriter.bytes(node, style: .pretty), file: "fuzz-written")
    }
    switch input.selector % 6 {
    case 0: survive("JSON") { try roundTrip(JSON.parse(bytes, file: "fuzz")) }
    case 1: survive("TOML") { try roundTrip(TOML.parse(bytes, file: "fuzz")) }
    case 2: survive("YAML text") { try roundTrip(YAML.parse(bytes, file: "fuzz")) }
    case 3: survive("YAML typed") { try YAML.documents(bytes, file: "fuzz", scalars: .typed).map(roundTrip) }
    case 4: survive("YAML strings") { try YAML.parse(bytes, file: "fuzz", scalars: .strings) }
    default: survive("YAML preferring") { try YAML.parse(bytes, file: "fuzz", preferring: { $0.members.isEmpty }) }
    }
    return 0
}
