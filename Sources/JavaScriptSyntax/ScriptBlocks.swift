/// The `<script>` blocks of a Vue single-file component or a Svelte component, as one JavaScript or
/// TypeScript source with the positions of the original file.
///
/// Every byte outside the blocks becomes a space (line breaks stay), so offsets, lines and columns
/// of the parsed tree are the component's own; the `<` of each `</script>` becomes `;`, so that two
/// blocks never run into one statement.
public struct ScriptBlocks: Sendable {
    /// The file's bytes with everything but the scripts' contents blanked.
    public var maskedSource: [UInt8]
    /// A block declared `lang="ts"` (or `lang="typescript"`): the scripts are read as TypeScript.
    public var typeScript: Bool
    /// A block declared `lang="tsx"`: TypeScript with JSX.
    public var tsx: Bool

    /// The dialect the blocks are read with.
    public var dialect: JavaScriptDialect { tsx ? .tsx : typeScript ? .typeScript : .javaScript }
    /// Byte ranges of the blocks' contents in the file.
    public var contentRanges: [Range<Int>]

    /// The blocks of a `.vue` or `.svelte` file; nil for any other file name.
    public init?(fileName: String, bytes: [UInt8]) {
        let lower = fileName.lowercased()
        guard lower.hasSuffix(".vue") || lower.hasSuffix(".svelte") else { return nil }
        self.init(componentBytes: bytes)
    }

    /// The blocks of a component's bytes.
    public init(componentBytes bytes: [UInt8]) {
        var masked = [UInt8](repeating: 0x20, count: bytes.count)
        for (i, b) in bytes.enumerated() where b == 0x0A || b == 0x0D { masked[i] = b }
        var ranges: [Range<Int>] = []
        var typeScript = false
        var tsx = false
        var i = 0
        let open = Array("<script".utf8)
        let close = Array("</script".utf8)
        while let tagStart = ScriptBlocks.find(open, in: bytes, from: i) {
            let afterName = tagStart + open.count
            guard afterName < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x3E, 0x2F].contains(bytes[afterName]) else {
                i = afterName
                continue
            }
            guard let tagEnd = ScriptBlocks.tagEnd(bytes, from: afterName) else { break }
            let attributes = String(decoding: bytes[afterName..<tagEnd], as: UTF8.self).lowercased()
            if bytes[tagEnd - 1] == 0x2F {
                i = tagEnd + 1
                continue
            }
            let contentStart = tagEnd + 1
            let contentEnd = ScriptBlocks.find(close, in: bytes, from: contentStart) ?? bytes.count
            if ScriptBlocks.isScript(attributes) {
                if attributes.contains("lang=\"ts\"") || attributes.contains("lang='ts'") || attributes.contains("lang=ts")
                    || attributes.contains("lang=\"typescript\"")
                {
                    typeScript = true
                }
                if attributes.contains("lang=\"tsx\"") || attributes.contains("lang='tsx'") { tsx = true }
                masked.replaceSubrange(contentStart..<contentEnd, with: bytes[contentStart..<contentEnd])
                if contentEnd < bytes.count { masked[contentEnd] = 0x3B }
                ranges.append(contentStart..<contentEnd)
            }
            i = contentEnd + close.count
        }
        maskedSource = masked
        self.typeScript = typeScript
        self.tsx = tsx
        contentRanges = ranges
    }

    /// Whether a `<script>` tag's attributes make it code (not JSON, templates or other data).
    static func isScript(_ attributes: String) -> Bool {
        guard let typeRange = attributes.range(of: "type=") else { return true }
        let value = attributes[typeRange.upperBound...].prefix(30)
        return value.contains("javascript") || value.contains("module") || value.contains("typescript")
            || value.contains("text/babel")
    }

    /// The offset of the `>` that ends a tag whose attributes start at `from`, quotes respected.
    static func tagEnd(_ bytes: [UInt8], from: Int) -> Int? {
        var quote: UInt8 = 0
        var i = from
        while i < bytes.count {
            let b = bytes[i]
            if quote != 0 {
                if b == quote { quote = 0 }
            } else if b == 0x22 || b == 0x27 {
                quote = b
            } else if b == 0x3E {
                return i
            }
            i += 1
        }
        return nil
    }

    /// The first offset at or after `from` where `needle` starts, ASCII case-insensitively.
    static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count else { return nil }
        var i = max(0, from)
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0] {
                var k = 1
                while k < needle.count && (bytes[i + k] | 0x20) == (needle[k] | 0x20) { k += 1 }
                if k == needle.count { return i }
            }
            i += 1
        }
        return nil
    }
}
