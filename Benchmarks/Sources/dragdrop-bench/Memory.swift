enum MemoryScenario { static func run(_ suite: Suite) throws {} }
