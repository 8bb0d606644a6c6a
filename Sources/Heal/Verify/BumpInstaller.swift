import Foundation
import SCA

/// A package at one version, installed for a verification run.
public struct PackagePin: Sendable, Hashable, Codable {
    /// The package name.
    public var package: String
    /// The exact version.
    public var version: String

    /// `package==version`.
    public init(package: String, version: String) {
        self.package = package
        self.version = version
    }
}

/// The sandbox side of a dependency bump's verification (and of its baseline, with the pinned
/// version). Before the verify command, the wrapper
/// builds a virtual environment in the sandbox's `/tmp` that sees the system's packages (pytest,
/// the project's other dependencies) and installs the bumped pin into it with the host's pip
/// from the package index (`PackageIndex`), adds the `ImportRecorder` hook, then puts it first on
/// `PATH`. After the command it prints what the tests' processes imported (the hook's lines) and
/// asks that environment's Python which version of the package it has
/// (`importlib.metadata.version`). These facts come back as marked lines on stderr, which
/// `record` removes. Package and version reach the shell as arguments, never as script text.
enum BumpInstaller {
    static let installMarker = "@@sentinel-install"
    static let importedMarker = "@@sentinel-imported"
    static let testsImportedMarker = "@@sentinel-tests-imported"

    /// `$1` command, `$2` package, `$3` version, `$4` `dir|url|none`, `$5` the index, `$6` the
    /// recorder's source.
    static let wrapper = """
        c=$1; p=$2; v=$3; m=$4; x=$5; V=/tmp/.sentinel-venv; L=/tmp/.sentinel-pip.log; e=
        i0=$(date +%s%N)
        if [ "$m" = dir ] || [ "$m" = url ]; then
          if [ "$m" = dir ]; then a="--no-index --find-links"; else a="--index-url"; fi
          if python3 -m venv --system-site-packages --without-pip "$V" >"$L" 2>&1 && \
            PIP_CONFIG_FILE=/dev/null python3 -m pip --python "$V/bin/python" install --disable-pip-version-check \
              --no-cache-dir --no-input --retries 0 --timeout 20 $a "$x" "$p==$v" >>"$L" 2>&1 && \
            S=$("$V/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') && \
            printf '%s\\n' "$p" >"$V/sentinel-bump-package" && printf '%s' "$6" >"$S/\(ImportRecorder.module).py" && \
            printf 'import \(ImportRecorder.module)\\n' >"$S/\(ImportRecorder.module).pth"; then
            PATH="$V/bin:$PATH"; VIRTUAL_ENV="$V"; export PATH VIRTUAL_ENV
          else
            e=$(grep -m 1 '^ERROR' "$L" || tail -n 1 "$L"); e=${e:-pip failed}
          fi
        fi
        i1=$(date +%s%N)
        printf '\\n%s %s %s\\n' '\(installMarker)' "$((i1 - i0))" "$e" >&2
        t0=$(date +%s%N); /bin/sh -c "$c"; status=$?; t1=$(date +%s%N)
        if [ -f "$V/sentinel-imported" ]; then
          sort -u "$V/sentinel-imported" | while IFS= read -r r; do printf '\\n%s %s\\n' '\(testsImportedMarker)' "$r" >&2; done
        fi
        w=$(python3 -I -c 'import importlib.metadata as m, sys
        try: print(m.version(sys.argv[1]))
        except Exception: pass' "$p" 2>/dev/null)
        printf '\\n%s %s\\n' '\(importedMarker)' "$w" >&2
        printf '\\n%s %s\\n' '\(Verifier.timingMarker)' "$((t1 - t0))" >&2; exit $status
        """

    /// The wrapper's arguments after the command. A name or version that is not a plain PEP 508
    /// name or PEP 440 version is never handed to pip (`none`).
    static func arguments(_ pin: PackagePin, index: PackageIndex?) -> [String] {
        guard let index, isPlainName(pin.package), isPlainVersion(pin.version) else {
            return [pin.package, pin.version, "none", "", ""]
        }
        return [pin.package, pin.version] + index.wrapperArguments + [ImportRecorder.source]
    }

    static func isPlainName(_ name: String) -> Bool {
        guard let first = name.first, let last = name.last, first.isASCII, first.isLetter || first.isNumber,
            last.isASCII, last.isLetter || last.isNumber
        else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") }
    }

    static func isPlainVersion(_ version: String) -> Bool {
        PEP440Version(version) != nil
            && version.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || ".!+-_".contains($0)) }
    }

    /// What the wrapper reported, its marked lines removed from `stderr`. The install line is the
    /// first of its kind (printed before the command ran), the imported line the last.
    static func record(for pin: PackagePin, index: PackageIndex?, stderr: inout String) -> InstalledDependency {
        let install = take(installMarker, from: &stderr, last: false)
        var byTests: [String] = []
        while let line = take(testsImportedMarker, from: &stderr, last: true) { byTests.insert(line, at: 0) }
        let imported = take(importedMarker, from: &stderr, last: true)
        var milliseconds = 0
        var error: String? = "the install step did not report (the run was cut short)"
        if let install {
            let parts = install.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            milliseconds = (Int(parts.first ?? "") ?? 0) / 1_000_000
            error = parts.count > 1 ? String(parts[1]) : ""
        }
        var effective = index
        if arguments(pin, index: index)[2] == "none" {
            effective = nil
            if index != nil { error = "\(pin.package) \(pin.version) is not a plain package name and version" }
        }
        let version = imported.flatMap { $0.isEmpty ? nil : $0 }
        var record = InstalledDependency(
            package: pin.package, target: pin.version, index: effective, installError: error, imported: version,
            importedByTests: byTests, milliseconds: milliseconds)
        if effective == nil, index != nil, let error { record.notExercised = "not exercised: \(error)" }
        return record
    }

    /// The rest of the line after `marker`, the line removed; nil when absent.
    static func take(_ marker: String, from text: inout String, last: Bool) -> String? {
        guard let range = text.range(of: "\n" + marker + " ", options: last ? .backwards : []) else { return nil }
        let end = text[range.upperBound...].firstIndex(of: "\n") ?? text.endIndex
        let value = String(text[range.upperBound..<end])
        text.removeSubrange(range.lowerBound..<end)
        return value
    }
}
