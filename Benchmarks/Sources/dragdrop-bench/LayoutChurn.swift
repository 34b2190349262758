enum LayoutChurnScenario { static func run(_ suite: Suite) throws {} }
