import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
@testable import TallyServer

/// The API's happy paths, each checked through a second request that reads the change back.
@Suite("Hydration API")
struct HydrationAPITests {
    @Test("H1: a drink is created once per client id; the repeat answers 200 with the same drink")
    func logDrink() async throws {
        let f = try await ServerFixture()
        let token = f.adaToken
        try await f.test { client in
            let id = UUID()
            let body = #"{"id": "\#(id)", "volumeMl": 200, "kind": "coffee", "note": "espresso", "at": "2025-06-15T07:30:00Z"}"#
            let created = try await client.send(.post, "/api/v1/intakes", token: token, json: body)
            #expect(created.status == .created, "\(created)")
            let entry = try #require(try created.json()["entry"] as? [String: Any])
            #expect(entry["effectiveMl"] as? Double == 170)
            #expect(entry["id"] as? String == id.uuidString)
            let again = try await client.send(.post, "/api/v1/intakes", token: token, json: body)
            #expect(again.status == .ok)
            #expect(try again.json()["created"] as? Bool == false)
            let read = try await client.send(.get, "/api/v1/intakes/\(id)", token: token)
            #expect(read.status == .ok)
            #expect(try read.json()["note"] as? String == "espresso")
            let today = try await client.send(.get, "/api/v1/today", token: token).decode(DaySummary.self)
            #expect(today.entries.count == 1 && today.totalMl == 170 && today.goalMl == 2500)
        }
    }

    @Test("H1, H3: edit, remove and delete, each seen in the day's summary")
    func editRemoveDelete() async throws {
        let f = try await ServerFixture()
        let token = f.adaToken
        try await f.test { client in
            let made = try await client.send(.post, "/api/v1/intakes", token: token, json: #"{"volumeMl": 500}"#)
            let id = try #require((try made.json()["entry"] as? [String: Any])?["id"] as? String)
            let edited = try await client.send(.patch, "/api/v1/intakes/\(id)", token: token, json: #"{"volumeMl": 400, "note": "bottle"}"#)
            #expect(edited.status == .ok, "\(edited)")
            let removal = try await client.send(.post, "/api/v1/removals", token: token, json: #"{"volumeMl": 100}"#)
            #expect(removal.status == .created, "\(removal)")
            var day = try await client.send(.get, "/api/v1/days/2025-06-15", token: token).decode(DaySummary.self)
            #expect(day.totalMl == 300)
            let removalID = try #require(day.entries.first { if case .removal = $0 { true } else { false } }?.id)
            // The drink the removal depends on cannot go first (H3).
            try await client.send(.delete, "/api/v1/entries/\(id)", token: token).problem(.conflict)
            #expect(try await client.send(.delete, "/api/v1/entries/\(removalID)", token: token).status == .ok)
            #expect(try await client.send(.delete, "/api/v1/entries/\(id)", token: token).status == .ok)
            day = try await client.send(.get, "/api/v1/today", token: token).decode(DaySummary.self)
            #expect(day.entries.isEmpty && day.totalMl == 0)
        }
    }

    @Test("A4: a day's entries come a page at a time, with a cursor to the next")
    func pagination() async throws {
        let f = try await ServerFixture()
        let token = f.adaToken
        try await f.test { client in
            for minute in 0..<5 {
                _ = try await client.send(.post, "/api/v1/intakes", token: token,
                                          json: #"{"volumeMl": \#(100 + minute), "at": "2025-06-15T08:0\#(minute):00Z"}"#)
            }
            let first = try await client.send(.get, "/api/v1/entries?date=2025-06-15&limit=2", token: token).json()
            #expect((first["items"] as? [[String: Any]])?.map { $0["volumeMl"] as? Double } == [100, 101])
            let cursor = try #require(first["nextCursor"] as? String)
            let second = try await client.send(.get, "/api/v1/entries?date=2025-06-15&limit=2&cursor=\(cursor)", token: token).json()
            #expect((second["items"] as? [[String: Any]])?.map { $0["volumeMl"] as? Double } == [102, 103])
            let last = try await client.send(.get, "/api/v1/entries?date=2025-06-15&limit=2&cursor=4", token: token).json()
            #expect((last["items"] as? [[String: Any]])?.count == 1)
            #expect(last["nextCursor"] is NSNull)
        }
    }

    @Test("H7, H8, H9: profile, goal, calculation and history")
    func goalAndHistory() async throws {
        let f = try await ServerFixture()
        let token = f.adaToken
        try await f.test { client in
            let calc = try await client.send(.post, "/api/v1/goal/calculate", token: token,
                                             json: #"{"age": 65, "weightKg": 70, "activity": "light"}"#).json()
            #expect(calc["goalMl"] as? Double == 2000 && calc["baseMl"] as? Double == 1750 && calc["clamped"] as? Bool == false)
            var goal = try await client.send(.put, "/api/v1/profile", token: token,
                                             json: #"{"age": 40, "weightKg": 70, "activity": "moderate"}"#).json()
            #expect(goal["goalMl"] as? Double == 2600)
            goal = try await client.send(.put, "/api/v1/goal", token: token, json: #"{"mode": "custom", "goalMl": 3000}"#).json()
            #expect(goal["goalMl"] as? Double == 3000 && goal["mode"] as? String == "custom")
            goal = try await client.send(.put, "/api/v1/goal", token: token, json: #"{"mode": "none"}"#).json()
            #expect(goal["goalMl"] is NSNull)
            let today = try await client.send(.get, "/api/v1/today", token: token).json()
            #expect(today["goalMl"] is NSNull && today["percent"] is NSNull)
            goal = try await client.send(.delete, "/api/v1/profile", token: token).json()
            #expect(goal["profile"] is NSNull)
            let history = try await client.send(.get, "/api/v1/history?days=7&month=2025-02", token: token).decode(HydrationHistory.self)
            #expect(history.days.count == 7 && history.calendar.days.count == 28 && history.streaks.current == 0)
        }
    }

    @Test("H2, H4, H5, H6: settings, presets and drink kinds")
    func settingsAndKinds() async throws {
        let f = try await ServerFixture()
        let token = f.adaToken
        try await f.test { client in
            var settings = try await client.send(.patch, "/api/v1/settings", token: token,
                                                 json: #"{"unit": "oz", "timeZone": "America/New_York"}"#).json()
            #expect(settings["unit"] as? String == "oz" && settings["timeZone"] as? String == "America/New_York")
            #expect((settings["presetsMl"] as? [Double])?.count == 3)
            // The API says whose presets they are: the unit's defaults until the user chooses.
            #expect(settings["customPresetsMl"] is NSNull)
            settings = try await client.send(.put, "/api/v1/presets", token: token, json: #"{"amountsMl": [150, 300, 450, 600]}"#).json()
            #expect(settings["presetsMl"] as? [Double] == [150, 300, 450, 600])
            #expect(settings["customPresetsMl"] as? [Double] == [150, 300, 450, 600])
            // An amount as typed is read in the user's unit (oz here), and the answer says the unit.
            let logged = try await client.send(.post, "/api/v1/intakes", token: token, json: #"{"amount": "8"}"#)
            #expect(logged.status == .created)
            let result = try logged.json()
            #expect(result["unit"] as? String == "oz")
            #expect(((result["entry"] as? [String: Any])?["volumeMl"] as? Double).map { ($0 * 1000).rounded() } == (8 * 29.5735 * 1000).rounded())
            let typedML = try await client.send(.post, "/api/v1/removals", token: token, json: #"{"amount": "100 ml"}"#).json()
            #expect((typedML["entry"] as? [String: Any])?["volumeMl"] as? Double == 100)
            let garbage = try await client.send(.post, "/api/v1/intakes", token: token, json: #"{"amount": "lots"}"#)
            #expect(try garbage.problem(.badRequest).contains("is not an amount"))
            let kind = try await client.send(.post, "/api/v1/kinds", token: token, json: #"{"name": "Broth", "factor": 0.7}"#)
            #expect(kind.status == .created)
            let id = try #require(try kind.json()["id"] as? String)
            let renamed = try await client.send(.patch, "/api/v1/kinds/\(id)", token: token, json: #"{"name": "Soup", "factor": 0.8}"#).json()
            #expect(renamed["name"] as? String == "Soup" && renamed["factor"] as? Double == 0.8)
            let kinds = try await client.send(.put, "/api/v1/kinds/factors", token: token, json: #"{"set": "bhi"}"#).decode([DrinkKind].self)
            #expect(kinds.first { $0.name == "milk" }?.factor == 1.5)
            let retired = try await client.send(.patch, "/api/v1/kinds/\(id)", token: token, json: #"{"retired": true}"#).json()
            #expect(retired["isRetired"] as? Bool == true)
        }
    }

    @Test("Health and the API description are served without signing in, metrics to the scraper's token, each route counted and timed by method and status")
    func operations() async throws {
        var fixture = try await ServerFixture()
        fixture.configuration.metricsToken = "scraper"
        let f = fixture
        try await f.test { client in
            let health = try await client.send(.get, "/health", token: nil)
            #expect(health.text == #"{"status":"ok"}"#)
            #expect(health.headers[.contentType] == "application/json; charset=utf-8")
            _ = try await client.send(.get, "/api/v1/today", token: f.adaToken)
            _ = try await client.send(.get, "/api/v1/today", token: "not a token")
            let metrics = try await client.send(.get, "/metrics", token: "scraper")
            #expect(metrics.status == .ok && metrics.text.contains("hb_requests"), "\(metrics.text.prefix(300))")
            // The names and labels Hummingbird's metrics middleware gave them.
            for line in [#"hb_requests{http_route="/api/v1/today",http_request_method="GET",http_response_status_code="200"} "#,
                         #"hb_requests{http_route="/api/v1/today",http_request_method="GET",http_response_status_code="401"} "#,
                         #"http_server_request_duration_count{http_route="/api/v1/today",http_request_method="GET",http_response_status_code="200"} "#,
                         #"http_server_active_requests{http_request_method="GET"} "#] {
                #expect(metrics.text.contains(line), "\(line) in \(metrics.text.prefix(2000))")
            }
            let document = try await client.send(.get, "/openapi.yaml", token: nil)
            #expect(document.status == .ok && document.text.hasPrefix("openapi: 3.1"))
        }
    }
}
