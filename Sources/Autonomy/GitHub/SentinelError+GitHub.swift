import Support

extension SentinelError.Code {
    /// GitHub refused or failed a step of publishing a pull request (credentials, rate limit,
    /// an existing branch, a server error); the message names the step and the repository.
    public static let github = SentinelError.Code("github", exitStatus: 1)
}
