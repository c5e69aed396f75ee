import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
@testable import TallyServer

/// H10 through the API: show, sip, fill and change the bottle; bad input changes nothing.
@Suite("Bottle API")
struct BottleAPITests {
    @Test("H10: sip, the same sip again, an empty bottle, fill, change")
    func bottle() async throws {
        let f = try await ServerFixture()
        let ada = f.adaToken
        try await f.test { client in
            // check: the default bottle
            let start = try await client.send(.get, "/api/v1/bottle", token: ada).json()
            #expect(start["capacityMl"] as? Double == 1000 && start["levelMl"] as? Double == 1000 && start["sipMl"] as? Double == 30)
            // act: a sip with an id, then the same id again
            let id = UUID()
            let sip = try await client.send(.post, "/api/v1/bottle/sip", token: ada, json: #"{"id": "\#(id)"}"#)
            #expect(sip.status == .created, "\(sip)")
            let body = try sip.json()
            #expect((body["bottle"] as? [String: Any])?["levelMl"] as? Double == 970)
            #expect((body["sip"] as? [String: Any])?["source"] as? String == "bottle")
            #expect((body["day"] as? [String: Any])?["totalMl"] as? Double == 30)
            let again = try await client.send(.post, "/api/v1/bottle/sip", token: ada, json: #"{"id": "\#(id)"}"#)
            #expect(again.status == .ok)
            // act: a sip without a body at all
            #expect(try await client.send(.post, "/api/v1/bottle/sip", token: ada).status == .created)
            // act: empty it, then sip
            let emptied = try await client.send(.patch, "/api/v1/bottle", token: ada, json: #"{"levelMl": 0}"#).json()
            #expect(emptied["levelMl"] as? Double == 0)
            #expect(try await client.send(.post, "/api/v1/bottle/sip", token: ada).problem(.conflict).contains("empty"))
            #expect(try await client.send(.get, "/api/v1/today", token: ada).json()["totalMl"] as? Double == 60)
            // act: fill, change
            #expect(try await client.send(.post, "/api/v1/bottle/fill", token: ada).json()["levelMl"] as? Double == 1000)
            let changed = try await client.send(.patch, "/api/v1/bottle", token: ada, json: #"{"capacityMl": 500, "sipMl": 50}"#).json()
            #expect(changed["capacityMl"] as? Double == 500 && changed["levelMl"] as? Double == 500 && changed["sipMl"] as? Double == 50)
            // bob's bottle is his own
            #expect(try await client.send(.get, "/api/v1/bottle", token: f.bobToken).json()["levelMl"] as? Double == 1000)
        }
    }

    @Test("H10: bad input is a 4xx problem and changes nothing", arguments: [
        (#"{"capacityMl": 6000}"#, "at most 5000 ml"),
        (#"{"capacityMl": 0}"#, "more than 0"),
        (#"{"levelMl": -1}"#, "from 0"),
        (#"{"levelMl": 1001}"#, "from 0"),
        (#"{"sipMl": 0}"#, "more than 0"),
        (#"{"capacityMl": 500, "levelMl": 800}"#, "from 0"),
        (#"{}"#, "Say what to change"),
        (#"{"levelMl": "half"}"#, "must be a number"),
        (#"{"levelMl": 5"#, "not valid JSON"),
    ])
    func badInput(_ body: String, _ says: String) async throws {
        let f = try await ServerFixture()
        let ada = f.adaToken
        try await f.test { client in
            let before = try await client.send(.get, "/api/v1/bottle", token: ada).text
            let refused = try await client.send(.patch, "/api/v1/bottle", token: ada, json: body)
            #expect(try refused.problem(.badRequest).contains(says), "\(refused)")
            #expect(try await client.send(.get, "/api/v1/bottle", token: ada).text == before)
            #expect(try await client.send(.post, "/api/v1/bottle/sip", token: ada, json: #"{"id": 5}"#).problem(.badRequest).contains("id"))
        }
    }
}
