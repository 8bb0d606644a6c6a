import Foundation
import HTTP
import Support
import Web

/// Checks on what the user names: the target URL and the extra headers.
public enum WebTarget {
    /// The target as a `WebURL`: http or https, a host, no credentials (use `--header`), no fragment.
    public static func parse(_ text: String) throws -> WebURL {
        guard text.lowercased().hasPrefix("http://") || text.lowercased().hasPrefix("https://") else {
            throw SentinelError(.invalidInput, "--dast: '\(text)' is not an http:// or https:// URL")
        }
        guard let url = WebURL(text) else { throw SentinelError(.invalidInput, "--dast: '\(text)' is not a valid URL") }
        if url.userInfo != nil {
            throw SentinelError(
                .invalidInput,
                "--dast: the URL holds credentials; pass them with --header 'Authorization: ...' so they stay out of reports")
        }
        if url.fragment != nil {
            throw SentinelError(.invalidInput, "--dast: '\(text)' has a fragment (#...), which never reaches the server; remove it")
        }
        return url
    }

    /// `Name: value` lines as headers; throws for a line without a name or with CR/LF.
    public static func headers(_ lines: [String]) throws -> [HTTPHeader] {
        try lines.map { line in
            guard let colon = line.firstIndex(of: ":"), colon > line.startIndex,
                !line.contains("\r"), !line.contains("\n")
            else { throw SentinelError(.invalidInput, "--header: an entry is not 'Name: value'") }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard !name.contains(" "), !name.contains("\t") else {
                throw SentinelError(.invalidInput, "--header: an entry's name holds a space")
            }
            return HTTPHeader(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
    }
}
