import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TallyCore
import TallyRepositories
@testable import TallyServer
import TallyServices
import Testing

/// A2 through the API and the settings page: Apple Health's export uploaded, its water as drinks,
/// its sleep as the reminders' waking hours (H11).
@Suite("Apple Health import API (A2)")
struct HealthImportAPITests {
    /// The export of TallyImportTests' fixtures (scripts/apple-health-fixtures).
    static func export(_ name: String = "export.zip") throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TallyImportTests/Fixtures/apple-health/\(name)"))
    }

    /// After the fixture's last record: Sunday 7 April 2024, 14:00 in Berlin.
    static let now = "2024-04-07T12:00:00Z"

    func upload(_ client: TestClientProtocol, _ body: Data, token: String?) async throws -> Answer {
        var headers: HTTPFields = [.contentType: "application/zip"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: "/api/v1/import/apple-health", method: .post, headers: headers, body: ByteBuffer(bytes: body)) {
            Answer(status: $0.status, headers: $0.headers, body: Data(buffer: $0.body))
        }
    }

    @Test("A2: the export uploaded twice: drinks and sleep records once; the days show the water")
    func importTwice() async throws {
        let f = try await ServerFixture(now: Self.now)
        try await f.test { client in
            let first = try await upload(client, try Self.export(), token: f.adaToken)
            #expect(first.status == .created, "\(first)")
            #expect(try first.json() as NSDictionary == ["drinksAdded": 5, "drinksAlreadyThere": 0, "sleepRecordsAdded": 21, "skipped": 1])
            let again = try await upload(client, try Self.export("export.xml"), token: f.adaToken)
            #expect(again.status == .ok)
            #expect(try again.json() as NSDictionary == ["drinksAdded": 0, "drinksAlreadyThere": 5, "sleepRecordsAdded": 0, "skipped": 1])
            // 19:30 in New York on the 2nd: on the 2nd, though it was already the 3rd in Berlin.
            let day = try await client.send(.get, "/api/v1/days/2024-04-02", token: f.adaToken).json()
            #expect(day["totalMl"] as? Double == 500)
            // bob has none of it
            #expect(try await client.send(.get, "/api/v1/days/2024-04-02", token: f.bobToken).json()["totalMl"] as? Double == 0)
        }
    }

    @Test("A2: a deleted imported drink comes back with the next import once its import is forgotten, and only it")
    func forgetDeleted() async throws {
        let f = try await ServerFixture(now: Self.now)
        try await f.test { client in
            _ = try await upload(client, try Self.export(), token: f.adaToken)
            let day = try await client.send(.get, "/api/v1/days/2024-04-02", token: f.adaToken).json()
            let entries = try #require(day["entries"] as? [[String: Any]])
            let first = try #require(entries.first?["id"] as? String)
            let deletedMl = try #require(entries.first?["volumeMl"] as? Double)
            #expect(try await client.send(.delete, "/api/v1/entries/\(first)", token: f.adaToken).status == .ok)
            let again = try await upload(client, try Self.export(), token: f.adaToken)
            #expect(try again.json()["drinksAdded"] as? Int == 0, "deleted stays deleted: \(again)")

            // Someone else's forgetting, and no token: nothing of hers.
            let bobs = try await client.send(.delete, "/api/v1/import/apple-health/deleted", token: f.bobToken)
            #expect(bobs.status == .ok, "\(bobs)")
            #expect(try bobs.json() as NSDictionary == ["forgotten": 0])
            #expect(try await client.send(.delete, "/api/v1/import/apple-health/deleted", token: nil).status == .unauthorized)

            let forgotten = try await client.send(.delete, "/api/v1/import/apple-health/deleted", token: f.adaToken)
            #expect(forgotten.status == .ok, "\(forgotten)")
            #expect(try forgotten.json() as NSDictionary == ["forgotten": 1])
            let back = try await upload(client, try Self.export(), token: f.adaToken)
            #expect(try back.json() as NSDictionary == ["drinksAdded": 1, "drinksAlreadyThere": 4, "sleepRecordsAdded": 0, "skipped": 1],
                    "\(back)")
            let after = try await client.send(.get, "/api/v1/days/2024-04-02", token: f.adaToken).json()
            #expect(after["totalMl"] as? Double == day["totalMl"] as? Double, "\(deletedMl) ml back, once")
            let none = try await client.send(.delete, "/api/v1/import/apple-health/deleted", token: f.adaToken)
            #expect(try none.json() as NSDictionary == ["forgotten": 0])
        }
    }

    @Test("A2: what is not an export, an empty body or no token: a 4xx that says why, and nothing imported")
    func refused() async throws {
        let f = try await ServerFixture(now: Self.now)
        try await f.test { client in
            let html = try await upload(client, Data("<html><body>Not health</body></html>".utf8), token: f.adaToken)
            #expect(try html.problem(.badRequest).contains("not an Apple Health export"))
            #expect(try await upload(client, Data(), token: f.adaToken).problem(.badRequest).contains("The upload is empty"))
            #expect(try await upload(client, try Self.export("no-export.zip"), token: f.adaToken).problem(.badRequest).contains("no export.xml"))
            let cut = try Self.export("export.xml").prefix(6000)
            #expect(try await upload(client, Data(cut), token: f.adaToken).problem(.badRequest).contains("cut off"))
            #expect(try await upload(client, try Self.export(), token: nil).status == .unauthorized)
            #expect(try await f.store.dailyTotals(of: f.ada.id, from: nil, through: nil).isEmpty)
            #expect(try await f.store.asleepIntervals(of: f.ada.id, endingAfter: .distantPast).isEmpty)
        }
    }

    @Test("A2: one import at a time per person and two on the server; beyond that, 429 with Retry-After")
    func oneAtATime() async throws {
        let f = try await ServerFixture(now: Self.now)
        let imports = Uploads(serverWide: 2)
        let services = APIServices(store: f.store, clock: f.clock, accounts: f.accounts,
                                   push: PushCenter(store: f.store, contact: "mailto:tally@localhost"), uploads: imports)
        try await Application(router: buildRouter(services: services)).test(.router) { client in
            // ada's first import is under way: her second is refused, bob's goes ahead
            try imports.reserve(for: f.ada.id)
            let again = try await upload(client, try Self.export(), token: f.adaToken)
            #expect(try again.problem(.tooManyRequests).contains("already sending"))
            #expect(again.headers[.retryAfter] == "60")
            #expect(try await upload(client, try Self.export(), token: f.bobToken).status == .created)

            // two imports under way on the server: bob waits too
            let someoneElse = UUID()
            try imports.reserve(for: someoneElse)
            let busy = try await upload(client, try Self.export(), token: f.bobToken)
            #expect(try busy.problem(.tooManyRequests).contains("busy importing"))
            #expect(busy.headers[.retryAfter] == "60")

            // once they finish, ada imports (and a refused or finished import frees its place)
            imports.release(f.ada.id)
            imports.release(someoneElse)
            #expect(try await upload(client, try Self.export(), token: f.adaToken).status == .created)
            #expect(try await upload(client, Data("not an export".utf8), token: f.adaToken).status == .badRequest)
            #expect(try await upload(client, try Self.export(), token: f.adaToken).status == .ok)
        }
    }

    @Test("H11: the reminders show the sleep records' window, and follow it once chosen, in the calendar too")
    func remindersFollowSleep() async throws {
        let f = try await ServerFixture(now: Self.now)
        try await f.test { client in
            let before = try await client.send(.get, "/api/v1/reminders", token: f.adaToken).json()
            #expect(before["sleepRecordWindow"] is NSNull && before["useSleepRecords"] as? Bool == false)
            _ = try await upload(client, try Self.export(), token: f.adaToken)

            let chosen = try await client.send(.put, "/api/v1/reminders", token: f.adaToken, json: """
                {"enabled": true, "window": {"wake": "08:00", "sleep": "22:00"}, "frequency": 3, "useSleepRecords": true}
                """)
            #expect(chosen.status == .ok, "\(chosen)")
            let settings = try chosen.json()
            #expect(settings["useSleepRecords"] as? Bool == true)
            #expect(settings["window"] as? [String: String] == ["wake": "08:00", "sleep": "22:00"])
            #expect(settings["sleepRecordWindow"] as? [String: String] == ["wake": "06:50", "sleep": "23:20"])
            // Imported today: today keeps the window it started with; tomorrow follows the records.
            #expect(settings["followedWindow"] as? [String: String] == ["wake": "08:00", "sleep": "22:00"])

            // Today 08:00–22:00 with 3 reminders: 11:30, 15:00, 18:30; it is 14:00. Tomorrow
            // 06:50–23:20: 10:57:30, 15:05, 19:12:30 (to the minute), in summer time (UTC+2).
            let path = try #require(try await client.send(.post, "/api/v1/reminders/calendar", token: f.adaToken).json()["path"] as? String)
            let feed = try await client.send(.get, path, token: nil).text
            let starts = feed.components(separatedBy: "\r\n").filter { $0.hasPrefix("DTSTART:") }
            #expect(Array(starts.prefix(3)) == ["DTSTART:20240407T130000Z", "DTSTART:20240407T163000Z", "DTSTART:20240408T085800Z"],
                    "\(starts.prefix(3))")

            // Not chosen: the manual times, 08:00–22:00 → 11:30, 15:00, 18:30.
            let manual = try await client.send(.put, "/api/v1/reminders", token: f.adaToken, json: """
                {"enabled": true, "window": {"wake": "08:00", "sleep": "22:00"}, "frequency": 3}
                """).json()
            #expect(manual["followedWindow"] as? [String: String] == ["wake": "08:00", "sleep": "22:00"])
            // What is left of today at 14:00 (CEST): 15:00 and 18:30; none for smart reminders.
            #expect(manual["upcoming"] as? [String] == ["2024-04-07T13:00:00Z", "2024-04-07T16:30:00Z"], "\(manual)")
            let smart = try await client.send(.put, "/api/v1/reminders", token: f.adaToken, json: """
                {"enabled": true, "window": {"wake": "08:00", "sleep": "22:00"}, "frequency": 3, "smartThresholdHours": 2}
                """).json()
            #expect(smart["upcoming"] as? [String] == [], "\(smart)")
            let manualFeed = try await client.send(.get, path, token: nil).text
            #expect(manualFeed.components(separatedBy: "\r\n").first { $0.hasPrefix("DTSTART:") } == "DTSTART:20240407T130000Z")
        }
    }

    @Test("A2: the settings page's file form imports the export and says what it did; a forged form imports nothing")
    func webUpload() async throws {
        let f = try await ServerFixture(now: Self.now)
        try await f.test { client in
            let browser = WebTests.Browser(client)
            _ = try await browser.get("/signup")
            _ = try await browser.post("/signup", ["name": "carol", "password": "long enough", "timeZone": "Europe/Berlin"])
            let page = try await browser.get("/settings/apple-health")
            #expect(page.text.contains("enctype=\"multipart/form-data\""))
            #expect(try await browser.get("/settings/reminders").text.contains("No sleep records from Apple Health for the last 7 days"))
            let carol = try #require(try await f.store.user(named: "carol")).id

            let forged = try await browser.post("/settings/apple-health", [:], file: "export", try Self.export(), csrf: "forged")
            #expect(forged.status == .forbidden)
            #expect(try await f.store.dailyTotals(of: carol, from: nil, through: nil).isEmpty)

            let imported = try await browser.post("/settings/apple-health", [:], file: "export", try Self.export())
            #expect(imported.status == .seeOther, "\(imported)")
            let location = try #require(imported.headers[.location])
            #expect(location == "/settings/apple-health?imported=5&already=0&sleep=21&skipped=1")
            let after = try await browser.get(location)
            #expect(after.text.contains("Imported 5 drinks and 21 sleep records from Apple Health."))
            #expect(try await browser.get("/settings/reminders").text.contains("awake from 6:50\u{00A0}AM to 11:20\u{00A0}PM"))

            let chosen = try await browser.post("/settings/reminders", [
                "enabled": "yes", "wake": "08:00", "sleep": "22:00", "frequency": "3", "smart": "", "sleepRecords": "yes",
            ])
            #expect(chosen.status == .seeOther)
            #expect(try await f.store.reminderSettings(of: carol).useSleepRecords)
            // Imported today: today keeps its manual times (08:00–22:00: 11:30, 15:00, 18:30), as the reader's locale writes them.
            #expect(try await browser.get("/settings/reminders").text.contains("Next: 3:00\u{00A0}PM, 6:30\u{00A0}PM."))

            // A deleted imported drink stays deleted on import, until the page's button forgets it.
            let firstDay = try #require(try await f.store.dailyTotals(of: carol, from: nil, through: nil).keys.min())
            let drink = try #require(try await f.store.entries(on: firstDay, of: carol).first)
            _ = try await HydrationService(store: f.store, clock: f.clock, user: carol).deleteEntry(id: drink.id)
            #expect(try await browser.post("/settings/apple-health", [:], file: "export", try Self.export()).headers[.location]
                    == "/settings/apple-health?imported=0&already=5&sleep=0&skipped=1")
            let forgetForged = try await browser.post("/settings/apple-health/forget-deleted", [:], csrf: "forged")
            #expect(forgetForged.status == .forbidden)
            let forget = try await browser.post("/settings/apple-health/forget-deleted", [:])
            #expect(forget.headers[.location] == "/settings/apple-health?saved=apple-health&forgotten=1", "\(forget)")
            #expect(try await browser.get("/settings/apple-health?saved=apple-health&forgotten=1").text
                    .contains("1 deleted drink from an import is forgotten: importing the export again brings it back."))
            #expect(try await browser.post("/settings/apple-health", [:], file: "export", try Self.export()).headers[.location]
                    == "/settings/apple-health?imported=1&already=4&sleep=0&skipped=1")

            let wrong = try await browser.post("/settings/apple-health", [:], file: "export", Data("just text".utf8))
            #expect(wrong.status == .badRequest && wrong.text.contains("This is not an Apple Health export"))
            let empty = try await browser.post("/settings/apple-health", [:], file: "export", Data())
            #expect(empty.status == .badRequest && empty.text.contains("Choose the export.zip"))

            // A file part cut off before its end, and a form of fields without end.
            let boundary = "cut"
            let cut = "--cut\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n\(browser.csrf)\r\n"
                + "--cut\r\nContent-Disposition: form-data; name=\"export\"; filename=\"export.zip\"\r\n\r\n<HealthData>"
            let ended = try await browser.request(.post, "/settings/apple-health", body: ByteBuffer(string: cut),
                                                  type: "multipart/form-data; boundary=\(boundary)")
            #expect(ended.status == .badRequest && ended.text.contains("ended before the whole file arrived"), "\(ended)")
            let padding = String(repeating: "x", count: 70_000)
            let fields = "--cut\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\n\(padding)\r\n--cut--\r\n"
            let big = try await browser.request(.post, "/settings/apple-health", body: ByteBuffer(string: fields),
                                                type: "multipart/form-data; boundary=\(boundary)")
            #expect(big.status == .contentTooLarge, "\(big)")
            #expect(try await f.store.dailyTotals(of: carol, from: nil, through: nil).count == 5)
        }
    }
}
