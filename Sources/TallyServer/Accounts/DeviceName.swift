/// A signed-in browser as a person recognises it in the list of sessions: "Safari on iPhone".
/// Only the browser and the system are kept of the User-Agent, never the rest of it.
enum DeviceName {
    static func from(userAgent: String?) -> String {
        guard let agent = userAgent, !agent.isEmpty else { return "an unknown device" }
        let browsers = [("Edg/", "Edge"), ("Firefox/", "Firefox"), ("FxiOS", "Firefox"), ("CriOS", "Chrome"), ("Chrome/", "Chrome"),
                        ("Safari/", "Safari"), ("curl/", "curl")]
        let systems = [("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Mac OS X", "a Mac"), ("Windows", "Windows"),
                       ("CrOS", "ChromeOS"), ("Linux", "Linux")]
        let browser = browsers.first { agent.contains($0.0) }?.1
        let system = systems.first { agent.contains($0.0) }?.1
        switch (browser, system) {
        case let (browser?, system?): return "\(browser) on \(system)"
        case let (browser?, nil): return browser
        case let (nil, system?): return "a browser on \(system)"
        case (nil, nil): return "an unknown device"
        }
    }
}
