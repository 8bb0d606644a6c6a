import DocumentsYAML
import Sandbox
import Support

extension ProfileSyntax {
    /// YAML, which includes JSON: every scalar stays text (profiles read their own types from
    /// text, and resolving tags costs more than the rest of a launch). Documents go to the run
    /// cache as this executable's, where the lean launcher finds them.
    public static let yaml = ProfileSyntax(isPartial: false, cacheIdentity: ExecutableIdentity.current) { bytes, source in
        try YAML.parse(bytes, file: source, scalars: .strings)
    }
}
