enum LiftScenario { static func run(_ suite: Suite) throws {} }
