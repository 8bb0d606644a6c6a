import Foundation
import FuzzSupport
import Signals

/// Heal's signal reader: the format is detected from the content (JUnit XML, SARIF, Sentinel
/// JSON report, pip-audit JSON, JSON log lines, pytest output, Python traceback), as for a
/// signal file taken from a repository or CI. An odd first byte also selects one finding by a
/// rule id or fingerprint prefix, as `--finding` does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSignals(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(data, count)
    let finding: String? = input.selector % 2 == 1 ? ["a", "sentinel.", "0", ""][Int(input.selector >> 1) % 4] : nil
    survive("SignalReader") {
        try SignalReader.read(Data(input.bytes), name: "fuzz", finding: finding).map(\.fingerprint)
    }
    return 0
}
