import TallyLanguages

/// A signed-in browser as a person recognises it in the list of sessions: "Safari on iPhone".
/// Only the browser and the system are kept of the User-Agent, never the rest of it. It is kept
/// in English, and shown in the reader's language (`shown`).
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

    /// A kept name in the reader's language: "Safari sur iPhone", "un navigateur sur un Mac".
    static func shown(_ kept: String) -> String {
        func system(_ name: String) -> String { name == "a Mac" ? t("a Mac") : name }
        if kept == "an unknown device" { return t("an unknown device") }
        if kept.hasPrefix("a browser on ") { return t("a browser on \(system(String(kept.dropFirst("a browser on ".count))))") }
        if let on = kept.range(of: " on ") {
            return t("\(String(kept[..<on.lowerBound])) on \(system(String(kept[on.upperBound...])))")
        }
        return kept
    }
}
