import Foundation
import HTTPTypes
import TallyCore
import TallyRepositories
@testable import TallyServer
import TallyServices
import Testing

/// A ledger's invite link does it all (S1, A1): someone without an account who opens it creates
/// one on the same page and lands in the ledger as the member they choose; the link stands for a
/// server invite when sign-up is by invite, but never opens a closed server; someone with an
/// account signs in and comes back to the invite.
@Suite("Joining a ledger with one link")
struct JoinByLinkTests {
    typealias Browser = WebTests.Browser

    /// Ada's ledger "Home" (Person 1 is Ada, Person 2 is free) and its invite code, on a server
    /// whose sign-up mode is `mode`.
    private func ledger(_ f: ServerFixture, mode: SignUpMode, uses: Int? = nil) async throws -> (ledger: LedgerDetails, code: String) {
        try await f.accounts.setSignUpMode(mode)
        let spending = SpendingService(store: f.store, clock: f.clock, user: f.ada.id)
        let ledger = try await spending.createLedger(name: "Home", currency: "EUR")
        let opened = try await spending.openInvite(ledger.ledger.id, terms: LedgerInviteTerms(uses: uses))
        return (ledger, try #require(opened.newInviteCode))
    }

    @Test("By invite only: the link opens a sign-up that joins the ledger as the member chosen, and spends no server invite")
    func signUpAndJoin() async throws {
        let f = try await ServerFixture()
        let (ledger, code) = try await ledger(f, mode: .invite)
        try await f.test { client in
            let browser = Browser(client)
            let opened = try await browser.get("/join/\(code)")
            #expect(opened.status == .seeOther && opened.headers[.location] == "/signup?join=\(code)")
            let page = try await browser.get("/signup?join=\(code)").text
            #expect(page.contains("<h1>Join Home</h1>") && page.contains("You are invited to <strong>Home</strong> (EUR), kept by Person 1, Person 2."))
            #expect(!page.contains("Invite code"), "no server invite is asked for")
            #expect(page.contains(#"value="2" required checked>"#), "the one free member is chosen")
            #expect(page.contains("/signin?next=/join/\(code)"), "someone with an account signs in instead")
            let joined = try await browser.post("/signup", ["join": code, "member": "2", "name": "ben", "password": "correct horse", "timeZone": "Europe/Berlin"])
            #expect(joined.status == .seeOther && joined.headers[.location] == "/spending/\(ledger.ledger.id)", "\(joined.headers)")
            let ben = try #require(try await f.store.account(named: "ben"))
            let members = try await f.store.ledger(ledger.ledger.id, of: ben.user.id).members
            #expect(members.first { $0.id == 2 }?.userID == ben.user.id, "ben is Person 2")
            // Signed in: the ledger opens, from ben's side.
            #expect(try await browser.get("/spending/\(ledger.ledger.id)").text.contains("You are settled up."))
        }
    }

    @Test("A closed server takes nobody new, even with a ledger's link: the page says to sign in")
    func closedServer() async throws {
        let f = try await ServerFixture()
        let (_, code) = try await ledger(f, mode: .closed)
        try await f.test { client in
            let browser = Browser(client)
            let page = try await browser.get("/signup?join=\(code)").text
            #expect(page.contains("This server does not take new accounts") && page.contains("/signin?next=/join/\(code)"))
            let refused = try await browser.post("/signup", ["join": code, "member": "2", "name": "ben", "password": "correct horse"])
            #expect(refused.status == .conflict && refused.text.contains("Sign-up is closed"))
            #expect(try await f.store.account(named: "ben") == nil)
        }
    }

    @Test("A link that opens nothing creates no account; a wrong code is no server invite either")
    func invalidLink() async throws {
        let f = try await ServerFixture()
        _ = try await ledger(f, mode: .invite)
        try await f.test { client in
            let browser = Browser(client)
            #expect(try await browser.get("/signup?join=ABCD-EFGH-JKMN").text.contains("This invite link is not valid any more"))
            let refused = try await browser.post("/signup", ["join": "ABCD-EFGH-JKMN", "member": "new", "name": "ben", "password": "correct horse"])
            #expect(refused.status == .badRequest && refused.text.contains("not valid any more"))
            #expect(try await f.store.account(named: "ben") == nil)
        }
    }

    @Test("Signing in from the link comes back to the invite; any other next is ignored")
    func signInComesBack() async throws {
        let f = try await ServerFixture()
        let (_, code) = try await ledger(f, mode: .open)
        _ = try await f.accounts.signUp(name: "ben", password: "correct horse")
        try await f.test { client in
            let browser = Browser(client)
            let page = try await browser.get("/signin?next=/join/\(code)").text
            #expect(page.contains(#"<input type="hidden" name="next" value="/join/\#(code)">"#))
            #expect(page.contains("/signup?join=\(code)"))
            let signedIn = try await browser.post("/signin", ["name": "ben", "password": "correct horse", "next": "/join/\(code)"])
            #expect(signedIn.headers[.location] == "/join/\(code)")
            let other = Browser(client)
            _ = try await other.get("/signin")
            for next in ["https://evil.example/join/x", "//evil.example", "/admin", "/join/../admin"] {
                #expect(SignInWebController.next(next) == nil, "\(next)")
            }
            let elsewhere = try await other.post("/signin", ["name": "ben", "password": "correct horse", "next": "//evil.example"])
            #expect(elsewhere.headers[.location] == "/")
        }
    }

    @Test("A sign-up whose join the ledger refuses makes no account and spends nothing, however often it is tried")
    func refusedJoinMakesNoAccount() async throws {
        let f = try await ServerFixture()
        let (ledger, code) = try await ledger(f, mode: .invite, uses: 1)
        let accountsBefore = try await f.store.accountCount()
        try await f.test { client in
            // Person 1 is Ada's: each attempt, from a browser of its own, asks to be her.
            for attempt in 1...3 {
                let browser = Browser(client)
                _ = try await browser.get("/signup?join=\(code)")
                let refused = try await browser.post("/signup", ["join": code, "member": "1", "name": "mallory\(attempt)", "password": "correct horse"])
                #expect(refused.status == .conflict && refused.text.contains("already someone else"), "\(refused.status)")
                #expect(refused.headers[.setCookie].map { !$0.contains("\(Cookies.session)=") } ?? true, "no session is handed out")
                #expect(try await f.store.account(named: "mallory\(attempt)") == nil)
            }
            #expect(try await f.store.accountCount() == accountsBefore)
            #expect(try await f.store.ledger(ledger.ledger.id, of: f.ada.id).invite?.usesLeft == 1, "the invite's one use is still there")
            // The one use makes one account; the next person is refused before anything is made.
            let ben = Browser(client)
            _ = try await ben.get("/signup?join=\(code)")
            let joined = try await ben.post("/signup", ["join": code, "member": "2", "name": "ben", "password": "correct horse"])
            #expect(joined.status == .seeOther && joined.headers[.location] == "/spending/\(ledger.ledger.id)")
            let late = Browser(client)
            _ = try await late.get("/signup?join=\(code)")
            let usedUp = try await late.post("/signup", ["join": code, "member": "new", "memberName": "Cy", "name": "cy", "password": "correct horse"])
            #expect(usedUp.status == .badRequest && usedUp.text.contains("not valid any more"))
            #expect(try await f.store.accountCount() == accountsBefore + 1)
        }
    }
}
