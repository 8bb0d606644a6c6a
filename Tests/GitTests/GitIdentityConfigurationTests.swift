import Foundation
import Testing

@testable import Git

/// The identity git itself would commit as: the repository's `user.name`/`user.email`, else the
/// user's global files; `--author` and git's variables first.
@Suite("GitIdentity from git's configuration")
struct GitIdentityConfigurationTests {
    @Test("the [user] section's last name and email, in any case, quoted or not, comments dropped")
    func parsesConfigurationText() {
        let text = """
            [core]
            \tname = not-a-user
            [User]
            \tName = Grace  Hopper   # the admiral
            \temail = "grace@example.org" ; work
            [user "sub"]
            \tname = Not Me
            [user] email = "g\\"h@example.org"
            """
        let values = GitIdentity.userValues(inConfig: text)
        #expect(values.name == "Grace  Hopper")
        #expect(values.email == "g\"h@example.org")
        #expect(GitIdentity.userValues(inConfig: "[core]\nbare = false\n") == (nil, nil))
    }

    @Test("global files in git's order: GIT_CONFIG_GLOBAL alone, else XDG's then ~/.gitconfig")
    func globalFiles() {
        #expect(GitIdentity.globalFiles(["GIT_CONFIG_GLOBAL": "/g", "HOME": "/h"]) == ["/g"])
        #expect(GitIdentity.globalFiles(["HOME": "/h"]) == ["/h/.config/git/config", "/h/.gitconfig"])
        #expect(GitIdentity.globalFiles(["HOME": "/h", "XDG_CONFIG_HOME": "/x"]) == ["/x/git/config", "/h/.gitconfig"])
        #expect(GitIdentity.globalFiles([:]).isEmpty)
    }

    @Test(
        "the repository's own value first, the global file's for what it lacks; --author and git's variables first",
        .enabled(if: geteuid() == 0, "git runs in the sandbox"))
    func resolves() throws {
        let root = NSTemporaryDirectory() + "git-identity-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let repository = root + "/repo"
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        for arguments in [["init", "-q"], ["config", "user.name", "Grace Hopper"]] {
            let process = try Process.run(URL(fileURLWithPath: "/usr/bin/git"), arguments: ["-C", repository] + arguments)
            process.waitUntilExit()
        }
        let global = root + "/gitconfig"
        try "[user]\n\tname = Someone Else\n\temail = grace@example.org\n".write(toFile: global, atomically: false, encoding: .utf8)
        let environment = ["GIT_CONFIG_GLOBAL": global]
        let grace = try GitIdentity(name: "Grace Hopper", email: "grace@example.org")
        #expect(GitIdentity.configured(repository: repository, environment: environment) == grace)
        #expect(try GitIdentity.resolve(option: nil, environment: environment, repository: repository) == grace)
        #expect(
            try GitIdentity.resolve(option: "Ada <ada@example.org>", environment: environment, repository: repository)
                == GitIdentity(name: "Ada", email: "ada@example.org"))
        var variables = environment
        variables["GIT_AUTHOR_NAME"] = "Lin"
        variables["GIT_AUTHOR_EMAIL"] = "lin@example.org"
        #expect(
            try GitIdentity.resolve(option: nil, environment: variables, repository: repository)
                == GitIdentity(name: "Lin", email: "lin@example.org"))
        // No address anywhere: nobody (Sentinel's identity).
        #expect(GitIdentity.configured(repository: repository, environment: ["GIT_CONFIG_GLOBAL": "/nonexistent"]) == nil)
        // An identity git would refuse is passed over.
        try "[user]\n\temail = <bad>\n".write(toFile: global, atomically: false, encoding: .utf8)
        #expect(GitIdentity.configured(repository: repository, environment: environment) == nil)
    }
}
