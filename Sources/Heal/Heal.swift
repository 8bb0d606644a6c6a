/// `sentinel heal`: an error signal in, a verified candidate fix (or an account of what was
/// tried) out. Signals → actors → overlay workspace → verifier → reflector → memory.
public enum Heal {
    /// The version of the evidence format `heal` writes.
    public static let evidenceVersion = 1
}
