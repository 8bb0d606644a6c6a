import Foundation
import Support

/// The ZAP API key, read from the file the user names (`--zap-key-file`): never from the
/// command line, where other users could read it in the process list.
enum ZAPAPIKey {
    /// The largest key file read.
    static let maxBytes = 4096

    /// The key in `path`: a regular file of at most 4 KB, its content trimmed, one line.
    /// - Throws: `SentinelError(.invalidInput)` naming the file (never its content) when it is
    ///   missing, unreadable, not a regular file, too large, empty or not one line of text.
    static func read(_ path: String) throws -> String {
        let data: Data
        do {
            data = try BoundedFile.read(path, limit: maxBytes)
        } catch let error as SentinelError {
            let reason = error.message.hasPrefix("\(path): ") ? String(error.message.dropFirst(path.count + 2)) : error.message
            throw SentinelError(.invalidInput, "\(path): cannot read the ZAP API key file: \(reason)", errno: error.errno)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw SentinelError(.invalidInput, "\(path): the ZAP API key file is not UTF-8 text")
        }
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty else { throw SentinelError(.invalidInput, "\(path): the ZAP API key file is empty") }
        guard !key.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw SentinelError(.invalidInput, "\(path): the ZAP API key file must hold the key alone, on one line")
        }
        return key
    }
}
