import Git
import HTTP
import Store
import Support

extension FailureClass {
    /// THE mapping from an error a job's run threw to the class the retry policy reads: bad input
    /// and refusals (`invalidInput`, an untrusted path, a memory key) are `invalid` and never
    /// retried; git and the network (a clone) are `checkout`; a tool that failed is `tool`; the
    /// database, the file system and the sandbox are `infrastructure`. Anything else is `tool`:
    /// retried, as before classes.
    public static func of(_ error: any Error) -> FailureClass {
        guard let error = error as? SentinelError else { return .tool }
        switch error.code {
        case .invalidInput, .untrustedPath, .patchStale: return .invalid
        case .git, .network: return .checkout
        case .toolFailed: return .tool
        case .database, .io, .sandboxSetup, .unsupported: return .infrastructure
        default: return error.code.exitStatus == 2 ? .invalid : .tool
        }
    }

    /// The class of a `sentinel scan` or `heal` child that exited with `status` (not 0 or 1): 2 is
    /// a usage error or a refusal, deterministic; anything else a crash or an unexpected end.
    public static func ofExitStatus(_ status: Int32) -> FailureClass { status == 2 ? .invalid : .tool }
}
