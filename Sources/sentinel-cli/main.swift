#if canImport(Glibc)
    import Glibc
#endif
import SentinelCLI

exit(SentinelMain.run(Array(CommandLine.arguments.dropFirst())))
