enum DragPathScenario { static func run(_ suite: Suite) throws {} }
