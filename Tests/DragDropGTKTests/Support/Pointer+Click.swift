import Foundation

extension Pointer {
    /// Clicks button 1 at `at`, holding `key` ("ctrl", "shift") if given.
    func click(at: (x: Double, y: Double), holding key: String? = nil) throws {
        guard let xdotool = Tools.xdotool else {
            throw GtkTestError("xdotool is not installed (apt-get install xdotool).")
        }
        var args = ["mousemove", String(Int(at.x.rounded())), String(Int(at.y.rounded())), "sleep", "0.1"]
        if let key { args += ["keydown", key, "sleep", "0.05"] }
        args += ["click", "1"]
        if let key { args += ["sleep", "0.05", "keyup", key] }
        try Tools.run(xdotool, args, environment: ["DISPLAY": display.name])
    }
}
