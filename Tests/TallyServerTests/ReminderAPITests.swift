import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
@testable import TallyServer

/// H11 through the API: reminder settings, and the calendar feed at a secret, revocable address.
@Suite("Reminders API")
struct ReminderAPITests {
    @Test("H11: settings saved and checked; the feed has an event and an alarm per reminder; a new address stops the old")
    func remindersAndFeed() async throws {
        // 2026-01-10 12:00 in Berlin.
        let f = try await ServerFixture(now: "2026-01-10T11:00:00Z")
        let ada = f.adaToken
        try await f.test { client in
            // check: the defaults
            let start = try await client.send(.get, "/api/v1/reminders", token: ada).json()
            #expect(start["enabled"] as? Bool == false && start["frequency"] as? Int == 8)
            #expect((start["window"] as? [String: String]) == ["wake": "07:00", "sleep": "23:00"])
            // act: three a day, 08:00–20:00
            let saved = try await client.send(.put, "/api/v1/reminders", token: ada, json: """
                {"enabled": true, "window": {"wake": "08:00", "sleep": "20:00"}, "frequency": 3}
                """)
            #expect(saved.status == .ok, "\(saved)")
            // act: bad settings change nothing
            for (body, says) in [
                (#"{"enabled": true, "window": {"wake": "08:00", "sleep": "20:00"}, "frequency": 30}"#, "1 to 24"),
                (#"{"enabled": true, "window": {"wake": "08:00", "sleep": "20:00"}, "frequency": 3, "smartThresholdHours": 9}"#, "1 to 6 hours"),
                (#"{"enabled": true, "window": {"wake": "25:00", "sleep": "20:00"}, "frequency": 3}"#, "window.wake"),
                (#"{"enabled": true, "window": {"wake": "08:00", "sleep": "08:00"}, "frequency": 3}"#, "same time"),
            ] {
                #expect(try await client.send(.put, "/api/v1/reminders", token: ada, json: body).problem(.badRequest).contains(says))
            }
            #expect(try await client.send(.get, "/api/v1/reminders", token: ada).json()["frequency"] as? Int == 3)

            // act: the feed
            let created = try await client.send(.post, "/api/v1/reminders/calendar", token: ada)
            #expect(created.status == .created)
            let path = try #require(try created.json()["path"] as? String)
            let feed = try await client.send(.get, path, token: nil)
            #expect(feed.status == .ok && feed.headers[.contentType] == "text/calendar; charset=utf-8")
            let starts = feed.text.components(separatedBy: "\r\n").filter { $0.hasPrefix("DTSTART:") }
            // 11:00, 14:00, 17:00 Berlin (UTC+1); 11:00 today is past.
            #expect(starts.prefix(3) == ["DTSTART:20260110T130000Z", "DTSTART:20260110T160000Z", "DTSTART:20260111T100000Z"])
            #expect(feed.text.components(separatedBy: "ACTION:DISPLAY").count - 1 == starts.count)

            // act: a new address replaces the old one; stopping ends both
            let second = try #require(try await client.send(.post, "/api/v1/reminders/calendar", token: ada).json()["path"] as? String)
            #expect(try await client.send(.get, path, token: nil).status == .notFound)
            #expect(try await client.send(.get, second, token: nil).status == .ok)
            #expect(try await client.send(.delete, "/api/v1/reminders/calendar", token: ada).status == .noContent)
            #expect(try await client.send(.get, second, token: nil).status == .notFound)
            #expect(try await client.send(.get, "/calendar/not-a-secret.ics", token: nil).status == .notFound)
        }
    }
}
