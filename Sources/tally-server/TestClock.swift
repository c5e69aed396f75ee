import Foundation
import TallyCore

/// For tests only, never on a server: `tally serve` with TALLY_TEST_CLOCK_FILE takes "now" from
/// that file, read each time: an ISO 8601 instant (2026-12-01T00:00:30+01:00), or the real time
/// while the file is missing or holds none. A browser test moves the server's day forward by
/// writing the file, to see what the server does when a day comes (a recurring expense's).
struct TestClock: WallClock {
    let path: String

    static func fromEnvironment(_ environment: [String: String]) -> TestClock? {
        environment["TALLY_TEST_CLOCK_FILE"].map(TestClock.init(path:))
    }

    var now: Date {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
              let instant = InternetTime.instant(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return Date() }
        return instant
    }
}
