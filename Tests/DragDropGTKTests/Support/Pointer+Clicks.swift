import Foundation

extension Pointer {
    /// Clicks button 1 three times at `at` (selects a text field's whole line).
    func tripleClick(at: (x: Double, y: Double)) throws {
        guard let xdotool = Tools.xdotool else { throw GtkTestError("xdotool is not installed.") }
        try Tools.run(
            xdotool,
            [
                "mousemove", String(Int(at.x.rounded())), String(Int(at.y.rounded())), "sleep", "0.1", "click",
                "--repeat", "3",
                "--delay", "60", "1",
            ],
            environment: ["DISPLAY": display.name])
    }
}
