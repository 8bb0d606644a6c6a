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
        self.init(componentBytes: bytes, svelte: lower.hasSuffix(".svelte"))
    }

    /// The blocks of a component's bytes, found by ``ComponentBlocks`` as the components' compilers
    /// find them; `svelte` reads the markup between them as Svelte's.
    public init(componentBytes bytes: [UInt8], svelte: Bool = false) {
        var masked = [UInt8](repeating: 0x20, count: bytes.count)
        for (i, b) in bytes.enumerated() where b == 0x0A || b == 0x0D { masked[i] = b }
        var ranges: [Range<Int>] = []
        var typeScript = false
        var tsx = false
        for script in ComponentBlocks(bytes, svelte: svelte).scripts where script.isCode {
            // `lang="ts"`, `lang = 'ts'`, `lang=tsx`: the attribute's value, whatever its quoting.
            switch script.attribute("lang")?.lowercased() {
            case "ts", "typescript": typeScript = true
            case "tsx": tsx = true
            default: break
            }
            masked.replaceSubrange(script.content, with: bytes[script.content])
            if let end = script.endTag { masked[end] = 0x3B }
            ranges.append(script.content)
        }
        maskedSource = masked
        self.typeScript = typeScript
        self.tsx = tsx
        contentRanges = ranges
    }
}
