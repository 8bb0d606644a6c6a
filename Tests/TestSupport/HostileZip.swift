import Foundation

/// Zip files a hostile OSV mirror could serve, written byte by byte (Python's `zipfile` refuses
/// to write most of them): declared sizes past 4 GiB, saturated fields without their zip64
/// values, offsets past the file, overlapping entries and zip bombs. Shared by the library and
/// the CLI tests of the one zip reader.
public enum HostileZip {
    /// The shapes `write` knows.
    public enum Kind: String, CaseIterable, Sendable {
        /// A zip64 extra field declares 5 GiB for an entry of 5.5 MB of deflated random bytes.
        case zip64Huge = "zip64-huge"
        /// The central directory's size is 0xFFFFFFFF with no zip64 extra field to replace it.
        case saturatedWithoutZip64 = "saturated-without-zip64"
        /// The zip64 extra field puts the local header at 2^63 - 16.
        case offsetOverflow = "offset-overflow"
        /// The zip64 extra field declares compressed and uncompressed sizes of 2^63 - 1.
        case sizeOverflow = "size-overflow"
        /// The end record puts the central directory past the end of the file.
        case directoryOutside = "directory-outside"
        /// Two central directory entries share one local header and its data.
        case overlapping = "overlapping"
        /// An entry's data runs into the central directory.
        case dataIntoDirectory = "data-into-directory"
        /// Deflated zeros, 1,000:1, declared truthfully: 200 MiB from 200 KB unless `write` says more.
        case bomb = "bomb"
        /// 10 MiB of zeros (under any per-entry size bound, but 1,000:1).
        case ratio = "ratio"
        /// An entry named with a newline and a terminal escape, declaring 100 MiB.
        case controlName = "control-name"
    }

    static let script = #"""
        import json, random, struct, sys, zlib
        kind, path, bomb = sys.argv[1], sys.argv[2], int(sys.argv[3])
        def record(i):
            return json.dumps({"id": f"R-{i}", "modified": "2024-01-01T00:00:00Z", "affected": [{"package":
                {"ecosystem": "PyPI", "name": "z"}, "ranges": [{"type": "ECOSYSTEM", "events": [{"introduced": "0"},
                {"fixed": "2.0"}]}]}]}).encode()
        def deflate(chunks):
            c = zlib.compressobj(9, zlib.DEFLATED, -15)
            out, crc, size = [], 0, 0
            for chunk in chunks:
                out.append(c.compress(chunk)); crc = zlib.crc32(chunk, crc); size += len(chunk)
            out.append(c.flush())
            return b"".join(out), crc, size
        def zeros(total):
            block = bytes(1 << 20)
            for _ in range(total >> 20): yield block
        # Each entry: name, data, crc, size (declared), and optional central-directory overrides.
        entries = []
        if kind == "zip64-huge":
            data, crc, _ = deflate([random.Random(7).randbytes(5_500_000)])
            entries.append(dict(name="big.json", data=data, crc=crc, size=0xFFFFFFFF, zip64=[5 << 30]))
        elif kind == "saturated-without-zip64":
            data, crc, size = deflate([record(0)])
            entries.append(dict(name="R-0.json", data=data, crc=crc, size=0xFFFFFFFF))
        elif kind == "offset-overflow":
            data, crc, size = deflate([record(0)])
            entries.append(dict(name="R-0.json", data=data, crc=crc, size=size, offset=0xFFFFFFFF, zip64=[(1 << 63) - 16]))
        elif kind == "size-overflow":
            data, crc, size = deflate([record(0)])
            entries.append(dict(name="R-0.json", data=data, crc=crc, size=0xFFFFFFFF, csize=0xFFFFFFFF,
                zip64=[(1 << 63) - 1, (1 << 63) - 1]))
        elif kind in ("directory-outside", "overlapping", "data-into-directory"):
            for i in range(2):
                data, crc, size = deflate([record(i)])
                entries.append(dict(name=f"R-{i}.json", data=data, crc=crc, size=size))
        elif kind == "bomb":
            data, crc, size = deflate(zeros(bomb << 20))
            entries.append(dict(name="bomb.json", data=data, crc=crc, size=size))
        elif kind == "control-name":
            data, crc, size = deflate([record(0)])
            entries.append(dict(name="R-0.json\n\x1b[2Jforged.json", data=data, crc=crc, size=100 << 20))
        elif kind == "ratio":
            data, crc, size = deflate(zeros(10 << 20))
            entries.append(dict(name="ratio.json", data=data, crc=crc, size=size))
        out = bytearray()
        for e in entries:
            e["at"] = len(out)
            name = e["name"].encode()
            out += struct.pack("<IHHHHHIIIHH", 0x04034b50, 45, 0, 8, 0, 0, e["crc"], 0, 0, len(name), 0) + name + e["data"]
        central = len(out)
        for i, e in enumerate(entries):
            name = e["name"].encode()
            offset = e.get("offset", e["at"])
            if kind == "overlapping" and i == 1: offset = entries[0]["at"]
            csize = e.get("csize", len(e["data"]))
            if kind == "data-into-directory" and i == 1: csize += 40
            extra = b""
            if "zip64" in e:
                values = e["zip64"]
                extra = struct.pack("<HH", 1, 8 * len(values)) + b"".join(struct.pack("<Q", v) for v in values)
            out += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014b50, 45, 45, 0, 8, 0, 0, e["crc"], csize, e["size"],
                len(name), len(extra), 0, 0, 0, 0, offset) + name + extra
        size = len(out) - central
        if kind == "directory-outside": central = 0xFFFFFF00
        out += struct.pack("<IHHHHIIH", 0x06054b50, 0, 0, len(entries), len(entries), size, central, 0)
        open(path, "wb").write(out)
        """#

    /// Writes `kind` to `path` with python3 (`bombMiB`: what `.bomb` expands to); throws when
    /// python3 fails.
    public static func write(_ kind: Kind, to path: String, bombMiB: Int = 200) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, kind.rawValue, path, String(bombMiB)]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }

    /// An OSV record of package `z` (PyPI), affected below 2.0, with the dates given.
    public static func record(id: String, modified: String, withdrawn: String? = nil) -> [UInt8] {
        var fields = [
            "\"id\": \"\(id)\"", "\"modified\": \"\(modified)\"",
            "\"affected\": [{\"package\": {\"ecosystem\": \"PyPI\", \"name\": \"z\"}, \"ranges\": [{\"type\": \"ECOSYSTEM\", \"events\": [{\"introduced\": \"0\"}, {\"fixed\": \"2.0\"}]}]}]",
        ]
        if let withdrawn { fields.append("\"withdrawn\": \"\(withdrawn)\"") }
        return Array("{\(fields.joined(separator: ", "))}".utf8)
    }

    /// A zip export of `records` (file name → JSON), written with /usr/bin/zip from a scratch
    /// directory.
    public static func export(_ records: [String: [UInt8]], to path: String) throws {
        let scratch = NSTemporaryDirectory() + "hostile-export-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        for (name, bytes) in records { try Data(bytes).write(to: URL(fileURLWithPath: scratch + "/" + name)) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zip")
        process.currentDirectoryURL = URL(fileURLWithPath: scratch)
        process.arguments = ["-q", "-X", path] + records.keys.sorted()
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}
