#if canImport(Glibc)
import Glibc
#endif
import SentinelCLI

exit(await SentinelMain.run(Array(CommandLine.arguments.dropFirst())))
