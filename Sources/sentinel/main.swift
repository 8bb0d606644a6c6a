#if canImport(Glibc)
    import Glibc
#endif
import CLICore

exit(LeanEntry.main(CommandLine.arguments))
