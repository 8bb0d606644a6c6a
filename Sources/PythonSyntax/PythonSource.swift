/// A Python file's text as CPython reads it: decoded as its PEP 263 `coding:` cookie declares.
public struct PythonSource: Sendable, Hashable {
    /// The decoded text; bytes that are not UTF-8 in a file without a cookie are replaced (CPython
    /// refuses them outside comments, and the parser then reports that).
    public var text: String
    /// The declared encoding as written in the cookie; nil when there is none.
    public var declaredEncoding: String?
    /// Whether the declared encoding reads plain ASCII differently (`unicode_escape`,
    /// `raw_unicode_escape`, `utf-7`): the code Python runs is not the code a reader sees.
    public var rewritesASCII: Bool

    /// Decodes a file's bytes as CPython would before tokenising them.
    /// - Throws: ``PythonSyntaxError`` with code ``PythonSyntaxError/Code/unsupportedEncoding`` when the
    ///   declared encoding cannot be decoded faithfully here (the file may hide code), or another code
    ///   when CPython would refuse the bytes too.
    public init(bytes: [UInt8], fileName: String) throws {
        let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        declaredEncoding = PySourceEncoding.cookie(bytes, from: bom)
        rewritesASCII = declaredEncoding.map { PyEscapeCodecs.decoder(named: PySourceEncoding.normalized($0)) != nil } ?? false
        switch try PySourceEncoding.decode(bytes, start: bom, fileName: fileName) {
        case .transcoded(let utf8): text = String(decoding: utf8, as: UTF8.self)
        case .asIs, .invalidUTF8: text = String(decoding: bytes, as: UTF8.self)
        }
    }
}
