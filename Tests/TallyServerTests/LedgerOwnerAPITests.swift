import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
@testable import TallyServer

/// A ledger's owner and its invites through the API (S1).
@Suite("Ledger owners and invites API")
struct LedgerOwnerAPITests {
    /// Ada's ledger (Alex, Sam, Kim) with bob joined as Sam, through an invite for two people.
    private func shared(_ client: TestClientProtocol, _ f: ServerFixture) async throws -> (ledger: LedgerReply, code: String) {
        let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Trip", "currency": "EUR", "members": ["Alex", "Sam", "Kim"]}"#)
        let opened = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/invite", token: f.adaToken, json: #"{"days": 3, "uses": 2}"#)
        let code = try #require(try opened.decode(LedgerReply.self).inviteCode)
        let joined = try await client.send(.post, "/api/v1/ledgers/join", token: f.bobToken, json: #"{"code": "\#(code)", "memberName": "sam"}"#)
        #expect(joined.status == .ok, "\(joined)")
        return (try joined.decode(), code)
    }

    @Test("S1: the creator owns the ledger; the invite's terms are shown, its code only in the answer that opened it")
    func ownerAndInvite() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            // setup
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR"}"#)
            #expect(ledger.owner == ledger.members[0].id && ledger.invite == nil)

            // act: an invite with the default terms (no body)
            let opened = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/invite", token: f.adaToken).decode(LedgerReply.self)

            // check: a week, one person; read back, no code
            let invite = try #require(opened.invite)
            #expect(opened.inviteCode != nil && invite.usesLeft == 1)
            #expect(invite.expiresAt.timeIntervalSince(f.clock.now) == 7 * 86_400)
            let shown = try await client.send(.get, "/api/v1/ledgers/\(ledger.id)", token: f.adaToken).decode(LedgerReply.self)
            #expect(shown.inviteCode == nil && shown.invite == invite)
        }
    }

    @Test("S1: a member who is not the owner is refused with 409 and a sentence naming the owner; nothing changes")
    func notTheOwner() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            // setup
            let (ledger, _) = try await shared(client, f)
            let base = "/api/v1/ledgers/\(ledger.id)"
            let (alex, kim) = (ledger.members[0].id, ledger.members[2].id)
            let before = try await LedgerSnapshot(client, f.adaToken, [ledger.id])

            // act and check: bob tries what only ada may do
            let attempts: [(HTTPRequest.Method, String, String?, String)] = [
                (.delete, "\(base)/members/\(kim)", nil, "remove members"),
                (.patch, "\(base)/members/\(alex)", #"{"name": "Boss"}"#, "rename members who joined with their own account"),
                (.post, "\(base)/invite", nil, "open an invite"),
                (.delete, "\(base)/invite", nil, "revoke the invite"),
                (.put, "\(base)/owner", #"{"member": \#(ledger.members[1].id)}"#, "make someone else its owner"),
            ]
            for (method, path, body, action) in attempts {
                let answer = try await client.send(method, path, token: f.bobToken, json: body)
                #expect(try answer.problem(.conflict) == "Only Alex, who owns this ledger, can \(action).", "\(method) \(path)")
            }
            #expect(try await LedgerSnapshot(client, f.adaToken, [ledger.id]) == before)
            // Bob may still rename himself and a member nobody has joined as.
            #expect(try await client.send(.patch, "\(base)/members/\(kim)", token: f.bobToken, json: #"{"name": "Kim B"}"#).status == .ok)
        }
    }

    @Test("S1: the owner hands the ledger to a member who joined, who then alone may invite")
    func transfer() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            // setup
            let (ledger, _) = try await shared(client, f)
            let base = "/api/v1/ledgers/\(ledger.id)"

            // act
            let handed = try await client.send(.put, "\(base)/owner", token: f.adaToken, json: #"{"member": \#(ledger.members[1].id)}"#)

            // check
            #expect(handed.status == .ok, "\(handed)")
            #expect(try handed.decode(LedgerReply.self).owner == ledger.members[1].id)
            try await client.send(.post, "\(base)/invite", token: f.adaToken).problem(.conflict)
            #expect(try await client.send(.post, "\(base)/invite", token: f.bobToken).status == .ok)
            let log = try await client.send(.get, "\(base)/activity?limit=2", token: f.bobToken).decode(ActivityReply.self)
            #expect(log.items.map { "\($0.actor ?? "-"): \($0.text)" } == [
                "bob: Opened a new invite for one person, for 7 days.", "ada: Made Sam the owner.",
            ])
        }
    }

    @Test("S1: the person joining chooses who they are; without a choice among several, 400; used up or expired, 404 like an unknown code")
    func joining() async throws {
        let f = try await ServerFixture()
        let carol = try await f.accounts.createAccount(name: "carol", password: "tr0ub4dor&3", timeZone: "Europe/Berlin").user
        let carolToken = try await f.accounts.createAPIToken(for: carol, name: "test").secret
        let dave = try await f.accounts.createAccount(name: "dave", password: "tr0ub4dor&3", timeZone: "Europe/Berlin").user
        let daveToken = try await f.accounts.createAPIToken(for: dave, name: "test").secret
        try await f.test { client in
            // setup: bob is Sam (1 of 2 uses), Kim is free
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Trip", "currency": "EUR", "members": ["Alex", "Sam", "Kim", "Lee"]}"#)
            let opened = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/invite", token: f.adaToken, json: #"{"days": 3, "uses": 2}"#)
            let code = try #require(try opened.decode(LedgerReply.self).inviteCode)

            // act and check: no choice with three free members is refused, and uses nothing up
            let unchosen = try await client.send(.post, "/api/v1/ledgers/join", token: f.bobToken, json: #"{"code": "\#(code)"}"#)
            #expect(try unchosen.problem(.badRequest) == "Say who you are in Trip: one of Sam, Kim, Lee, or someone new.")
            // by id, the third member rather than the first free one
            let lee = ledger.members[3].id
            let asLee = try await client.send(.post, "/api/v1/ledgers/join", token: f.bobToken, json: #"{"code": "\#(code)", "member": \#(lee)}"#)
            #expect(try asLee.decode(LedgerReply.self).members.first { $0.isYou }?.name == "Lee")
            // as someone new, by name
            let asNew = try await client.send(.post, "/api/v1/ledgers/join", token: carolToken, json: #"{"code": "\#(code)", "name": "Carol"}"#)
            #expect(try asNew.decode(LedgerReply.self).members.map(\.name) == ["Alex", "Sam", "Kim", "Lee", "Carol"])
            // used up: the same answer as a code that never was
            let usedUp = try await client.send(.post, "/api/v1/ledgers/join", token: daveToken, json: #"{"code": "\#(code)", "memberName": "Kim"}"#)
            #expect(try usedUp.problem(.notFound) == "This invite is not valid any more; ask for a new one.")

            // expired: a new code, three days and a second later
            let again = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/invite", token: f.adaToken, json: #"{"days": 3, "uses": 5}"#)
            let second = try #require(try again.decode(LedgerReply.self).inviteCode)
            f.clock.advance(by: 3 * 86_400 + 1)
            let expired = try await client.send(.post, "/api/v1/ledgers/join", token: daveToken, json: #"{"code": "\#(second)", "memberName": "Kim"}"#)
            #expect(try expired.problem(.notFound) == "This invite is not valid any more; ask for a new one.")
        }
    }
}
