enum TransferScenario { static func run(_ suite: Suite) async throws {} }
