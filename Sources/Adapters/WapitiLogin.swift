import DAST
import Documents
import Foundation
import Web

/// The login a `dast.login` gives, as Wapiti does it: its own form login (`async_try_form_login`:
/// it finds the login form, fills the user and password fields, keeps the others), run from a
/// `--form-script` that reads the values from the environment, where only the sandboxed process
/// and root can read them (`--form-user`/`--form-password` would put them on a command line any
/// local user can read). The logout links Sentinel's crawler skips are excluded (`-x`) too.
enum WapitiLogin {
    /// The variable holding the login for the script, as JSON.
    static let variable = "SENTINEL_WAPITI_LOGIN"
    /// The script's name in the (read-only) workspace.
    static let scriptName = "sentinel_login.py"

    /// The plug-in Wapiti loads: `run(crawler_configuration, form_credential, headless)`.
    static let script = """
        import json, logging, os
        from wapitiCore.net.auth import async_try_form_login
        from wapitiCore.net.classes import FormCredential

        async def run(crawler_configuration, form_credential, headless="no"):
            spec = json.loads(os.environ.pop("\(variable)"))
            credential = FormCredential(spec["username"], spec["password"], spec["url"])
            logged_in, _, _ = await async_try_form_login(crawler_configuration, credential, headless)
            if not logged_in:
                logging.warning("sentinel: the login at %s did not succeed", spec["url"])

        """

    /// The script's environment value for `login` on `target`: the password is the field whose
    /// name says so (else the last), the user name the first other one.
    static func environmentValue(_ login: WebLogin, target: String) -> String? {
        guard let base = WebURL(target), let page = base.resolving(login.url) else { return nil }
        let names = login.fields.keys.sorted()
        let password = names.first { $0.lowercased().contains("pass") || $0.lowercased().contains("pwd") } ?? names.last
        guard let password, let user = names.first(where: { $0 != password }) else { return nil }
        let object = DocumentNode.object([
            ("url", .string(page.string)), ("username", .string(login.fields[user] ?? "")),
            ("password", .string(login.fields[password] ?? "")),
        ])
        return String(decoding: JSONWriter.bytes(object, sortKeys: true), as: UTF8.self)
    }

    /// `-x` patterns for the logout links of `target`'s origin.
    static func exclusions(target: String) -> [String] {
        guard let base = WebURL(target) else { return [] }
        let origin = base.origin.description
        return ["logout", "log-out", "signout", "sign-out", "logoff"].flatMap { ["-x", "\(origin)/*\($0)*"] }
    }

    /// `-x` wildcards for the path globs `paths` (`/admin/**` is `ORIGIN/admin/*`; a glob without
    /// `/` names a last segment anywhere: `ORIGIN/*NAME`).
    static func exclusions(target: String, paths: [String]) -> [String] {
        guard let base = WebURL(target) else { return [] }
        let origin = base.origin.description
        return paths.flatMap { path -> [String] in
            let wildcard = path.replacingOccurrences(of: "**", with: "*")
            return ["-x", wildcard.contains("/") ? origin + "/" + wildcard.drop { $0 == "/" } : origin + "/*" + wildcard]
        }
    }
}
