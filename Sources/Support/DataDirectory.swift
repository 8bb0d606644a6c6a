import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Data shipped with the binary (profiles/, rules/): where an installation or a checkout keeps it.
/// The one lookup every caller uses, so an installed, a relocated and a freshly built binary agree.
public enum DataDirectory {
    /// The installed locations, for a binary found nowhere else.
    public static let installedPrefixes = ["/usr/local/share/sentinel", "/usr/share/sentinel"]

    /// Every existing `name` directory holding `marker`, most specific first:
    /// 1. `<prefix>/share/sentinel/name` — the prefix the binary was installed into (as
    ///    `<prefix>/bin/sentinel` or `<prefix>/libexec/sentinel/sentinel-cli`), wherever that
    ///    tree was moved since (`make install DESTDIR=...` then copied elsewhere);
    /// 2. the nearest ancestor of the executable with `name/marker` — the checkout a
    ///    `.build/debug/sentinel` was built in;
    /// 3. the absolute installed locations.
    /// `executable` defaults to the running binary (`/proc/self/exe`, symlinks resolved).
    ///
    /// A candidate is used only when it and every directory above it pass ``TrustedPath`` for the
    /// effective user (owned by root or that user, writable by no one else): the profiles decide
    /// a sandbox's seccomp filter and the rules whether a scan passes, so a copy of the binary in
    /// a tree another user owns must not take hers. A nearest checkout that fails is skipped, not
    /// replaced by a checkout further up.
    public static func candidates(named name: String, containing marker: String, executable: String? = nil) -> [String] {
        var found: [String] = []
        func consider(_ directory: String) {
            let standardized = PathText.lexicallyNormalized(directory)
            guard !found.contains(standardized), let opened = try? TrustedPath.directory(standardized),
                (try? opened.contains(marker)) == true
            else { return }
            found.append(standardized)
        }
        if let executable = executable ?? runningExecutable() {
            let binDirectory = PathText.directory(of: executable)
            consider(installPrefix(of: binDirectory) + "/share/sentinel/" + name)
            var directory = binDirectory
            for _ in 0..<6 where directory != "/" && !directory.isEmpty {
                // Only where the checkout is: whether it may be used is `consider`'s question.
                if access(directory + "/" + name + "/" + marker, F_OK) == 0 {
                    consider(directory + "/" + name)
                    break
                }
                directory = PathText.directory(of: directory)
            }
        }
        for prefix in installedPrefixes { consider(prefix + "/" + name) }
        return found
    }

    /// The prefix of a binary in `directory`: `<prefix>/bin` or `<prefix>/libexec/sentinel`.
    static func installPrefix(of directory: String) -> String {
        let parent = PathText.directory(of: directory)
        return directory.hasSuffix("/libexec/sentinel") ? PathText.directory(of: parent) : parent
    }

    /// The first of ``candidates(named:containing:executable:)``.
    public static func directory(named name: String, containing marker: String, executable: String? = nil) -> String? {
        candidates(named: name, containing: marker, executable: executable).first
    }

    /// The running binary's real path: `/proc/self/exe` (the kernel's answer, not argv[0]).
    public static func runningExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 {
            return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return nil
    }
}
