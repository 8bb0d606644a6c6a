extension Ecosystem {
    /// The form of a package name used as the database key, per the ecosystem's own identity rules:
    /// PyPI per PEP 503 (lowercase, runs of `-`, `_`, `.` become one `-`); npm, crates.io, NuGet,
    /// Packagist and Hex case-insensitively (lowercase); everything else, including Go module paths,
    /// exactly as written.
    public func normalisedPackageName(_ name: String) -> String {
        let base = self.name.split(separator: ":", maxSplits: 1).first.map(String.init) ?? self.name
        switch base {
        case "PyPI":
            var out = [UInt8]()
            out.reserveCapacity(name.utf8.count)
            var inRun = false
            for byte in name.utf8 {
                if byte == 0x2D || byte == 0x5F || byte == 0x2E {
                    if !inRun { out.append(0x2D) }
                    inRun = true
                } else {
                    out.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
                    inRun = false
                }
            }
            return String(decoding: out, as: UTF8.self)
        case "npm", "crates.io", "NuGet", "Packagist", "Hex":
            return name.lowercased()
        default:
            return name
        }
    }
}
