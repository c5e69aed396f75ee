import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
@testable import TallyServer

/// A user never reads or changes another user's data (A1): every endpoint that takes an id,
/// tried by bob with ada's ids, answers 404, and ada's data stays as it was.
@Suite("Two users")
struct IsolationTests {
    @Test("Every endpoint with an id answers 404 to the other user, and changes nothing")
    func otherUsersIDs() async throws {
        let f = try await ServerFixture()
        let (ada, bob) = (f.adaToken, f.bobToken)
        try await f.test { client in
            // setup: ada has a drink, a removal, a kind of her own and a second token.
            let drink = try await client.send(.post, "/api/v1/intakes", token: ada, json: #"{"volumeMl": 500}"#).json()
            let drinkID = try #require((drink["entry"] as? [String: Any])?["id"] as? String)
            let removal = try await client.send(.post, "/api/v1/removals", token: ada, json: #"{"volumeMl": 100}"#).json()
            let removalID = try #require((removal["entry"] as? [String: Any])?["id"] as? String)
            let kindID = try #require(try await client.send(.post, "/api/v1/kinds", token: ada, json: #"{"name": "Broth", "factor": 0.7}"#).json()["id"] as? String)
            let tokenID = try #require((try await client.send(.post, "/api/v1/tokens", token: ada, json: #"{"name": "phone"}"#).json()["token"] as? [String: Any])?["id"] as? String)
            let before = try await Snapshot(client, ada)

            // act and check: each route of openapi.yaml that takes an id.
            let attempts: [(HTTPRequest.Method, String, String?)] = [
                (.get, "/api/v1/intakes/\(drinkID)", nil),
                (.patch, "/api/v1/intakes/\(drinkID)", #"{"volumeMl": 1}"#),
                (.delete, "/api/v1/entries/\(drinkID)", nil),
                (.delete, "/api/v1/entries/\(removalID)", nil),
                (.patch, "/api/v1/kinds/\(kindID)", #"{"name": "Mine now"}"#),
                (.delete, "/api/v1/tokens/\(tokenID)", nil),
            ]
            for (method, path, body) in attempts {
                let answer = try await client.send(method, path, token: bob, json: body)
                try answer.problem(.notFound)
            }
            // A client id that is ada's cannot be used by bob to reach her drink.
            let reuse = try await client.send(.post, "/api/v1/intakes", token: bob, json: #"{"id": "\#(drinkID)", "volumeMl": 100}"#)
            try reuse.problem(.conflict)
            // (Without the id itself, which may hold the digits 500 by chance.)
            let withoutID = reuse.text.replacingOccurrences(of: "\(drinkID)", with: "", options: .caseInsensitive)
            #expect(!withoutID.contains("500"), "leaked ada's drink: \(reuse)")
            // Bob's own views show nothing of ada's.
            let bobsDay = try await client.send(.get, "/api/v1/today", token: bob).decode(DaySummary.self)
            #expect(bobsDay.entries.isEmpty)
            let bobsEntries = try await client.send(.get, "/api/v1/entries", token: bob).json()
            #expect((bobsEntries["items"] as? [Any])?.isEmpty == true)
            #expect(try await client.send(.get, "/api/v1/kinds", token: bob).decode([DrinkKind].self).allSatisfy { $0.name != "Broth" })
            #expect(try await client.send(.get, "/api/v1/tokens", token: bob).decode([APITokenView].self).count == 1)
            #expect(try await Snapshot(client, ada) == before)
        }
    }
}

struct APITokenView: Decodable {
    var id: UUID
    var name: String
}
