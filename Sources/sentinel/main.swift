import SentinelCLI

await Sentinel.main()
