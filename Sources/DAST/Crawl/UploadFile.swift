/// A file a `multipart/form-data` form sends: its field, file name, type and bytes. The scan's
/// file is a small document of the type the input accepts (YAML, XML, JSON), else text: what a
/// server that parses uploads reads first.
public struct UploadFile: Sendable, Hashable {
    /// The file input's name.
    public var field: String
    /// The file name sent (`sentinel.yaml`).
    public var filename: String
    /// The part's `Content-Type`.
    public var contentType: String
    /// The content.
    public var content: [UInt8]

    /// A file.
    public init(field: String, filename: String, contentType: String, content: [UInt8]) {
        self.field = field
        self.filename = filename
        self.contentType = contentType
        self.content = content
    }

    /// The scan's file for an input named `field` whose `accept` attribute is `accept`.
    public static func probe(field: String, accept: String?) -> UploadFile {
        let accepted = (accept ?? "").lowercased()
        let (filename, type, text): (String, String, String)
        if accepted.contains("yaml") || accepted.contains("yml") {
            (filename, type, text) = ("sentinel.yaml", "application/x-yaml", "sentinel: probe\n")
        } else if accepted.contains("xml") || accepted.contains("svg") {
            (filename, type, text) = ("sentinel.xml", "application/xml", "<?xml version=\"1.0\"?>\n<sentinel>probe</sentinel>\n")
        } else if accepted.contains("json") {
            (filename, type, text) = ("sentinel.json", "application/json", "{\"sentinel\": \"probe\"}\n")
        } else {
            (filename, type, text) = ("sentinel.txt", "text/plain", "sentinel probe\n")
        }
        return UploadFile(field: field, filename: filename, contentType: type, content: Array(text.utf8))
    }

    /// The boundary between parts: no probe or default value holds it.
    static let boundary = "----sentinel-form-7d41f2b98c"

    /// `fields` then `files` as one `multipart/form-data` body (RFC 7578). Names and file names
    /// have `"`, CR and LF percent-encoded, as browsers send them.
    static func body(fields: [NameValue], files: [UploadFile]) -> [UInt8] {
        func quoted(_ text: String) -> String {
            text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
                .replacingOccurrences(of: "\n", with: "%0A")
        }
        var out: [UInt8] = []
        for field in fields {
            out += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(quoted(field.name))\"\r\n\r\n".utf8)
            out += Array(field.value.utf8) + Array("\r\n".utf8)
        }
        for file in files {
            out += Array(
                ("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(quoted(file.field))\"; "
                    + "filename=\"\(quoted(file.filename))\"\r\nContent-Type: \(file.contentType)\r\n\r\n").utf8)
            out += file.content + Array("\r\n".utf8)
        }
        out += Array("--\(boundary)--\r\n".utf8)
        return out
    }
}
