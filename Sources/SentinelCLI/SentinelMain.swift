import ArgumentParser
import Sandbox
import Support

/// Parses arguments, runs the command, and maps every outcome to an exit status:
/// usage and input errors are 2 (DESIGN §3), a command's own status passes through.
public enum SentinelMain {
    public static func run(_ arguments: [String]) async -> Int32 {
        var command: ParsableCommand
        do {
            command = try Sentinel.parseAsRoot(arguments)
        } catch {
            let code = Sentinel.exitCode(for: error)
            if code == .success {
                Console.out(Sentinel.fullMessage(for: error))
                return 0
            }
            Console.error(Sentinel.fullMessage(for: error))
            return 2
        }
        do {
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch let exit as ExitCode {
            return exit.rawValue
        } catch let error as SentinelError {
            Console.error("sentinel: \(error.message)")
            switch error.code {
            case .invalidInput: return 2
            case .sandboxSetup: return 125
            case .toolFailed: return 3
            default: return 1
            }
        } catch let error as SandboxError {
            Console.error("sentinel: \(error)")
            return error.exitStatus
        } catch let error as ValidationError {
            Console.error("sentinel: \(error.message)")
            return 2
        } catch {
            // ArgumentParser's own outcomes thrown from run(): help, version, usage.
            let code = Sentinel.exitCode(for: error)
            if code == .success {
                Console.out(Sentinel.fullMessage(for: error))
                return 0
            }
            Console.error(Sentinel.fullMessage(for: error))
            return code == .validationFailure ? 2 : code.rawValue
        }
    }
}
