import Foundation
import Support

/// The worker's whole job inside the sandbox: read the options the parent wrote, scan, and
/// return the result as the JSON the parent decodes.
public enum WebScanWorker {
    /// Reads options from `path` (at most 16 MiB), runs the scan, returns the encoded result.
    /// Throws `SentinelError(.invalidInput)` for unreadable or malformed options.
    public static func run(optionsPath path: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: path), data.count < 16 << 20 else {
            throw SentinelError(.invalidInput, "\(path): cannot read the scan options")
        }
        let options: WebScanOptions
        do {
            options = try JSONDecoder().decode(WebScanOptions.self, from: data)
        } catch {
            throw SentinelError(.invalidInput, "\(path): the scan options are not valid: \(error)")
        }
        let result = try WebScan(options: options).run()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(result)
    }
}
