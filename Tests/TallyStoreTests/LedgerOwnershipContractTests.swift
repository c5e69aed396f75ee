import Foundation
import GRDB
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
@testable import TallyStore
import Testing

/// Who owns a ledger, what only the owner may do, and invites that expire, run out and are
/// kept hashed (S1).
@Suite("Ledger owners and invites in the store (S1)")
struct LedgerOwnershipContractTests {
    /// Alex's ledger with Sam joined as Person 2, and Kim, a third account, not in it.
    private func sharedWithKim(_ kind: StoreKind) async throws -> (LedgerFixture, LedgerDetails, SpendingService) {
        let l = try await LedgerFixture(kind)
        let ledger = try await l.shared()
        let directory = UserDirectory(store: l.f.store, clock: l.f.clock)
        let kim = SpendingService(store: l.f.store, clock: l.f.clock, user: try await directory.user(named: "kim", timeZone: "Europe/Berlin").id)
        return (l, ledger, kim)
    }

    private func refusal(_ action: () async throws -> Any) async -> TallyError? {
        do {
            _ = try await action()
            return nil
        } catch {
            return error as? TallyError
        }
    }

    @Test("S1: the creator owns a new ledger, also one made by an import", arguments: StoreKind.allCases)
    func creatorOwns(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let created = try await l.alex.createLedger(name: "Home", currency: "EUR")
        #expect(created.owner?.userID == l.f.user.id && created.owner?.name == "Person 1")
        let imported = try await l.sam.importEntries(into: nil, name: "Trip", currency: try Currency(code: "EUR"),
                                                     memberNames: ["Sam", "Alex"], note: "Imported.") { _ in [] }
        #expect(imported.details.owner?.userID == l.sam.user)
        #expect(try await l.sam.ledger(imported.details.ledger.id).owner?.name == "Sam")
    }

    @Test("S1: only the owner removes others, renames those who joined and opens or revokes the invite; nothing changes otherwise",
          arguments: StoreKind.allCases)
    func ownerOnly(_ kind: StoreKind) async throws {
        // setup: a third member nobody has joined as
        let (l, shared, _) = try await sharedWithKim(kind)
        let id = shared.ledger.id
        let withKim = try await l.alex.addMember(to: id, name: "Kim")
        let (alexMember, kimMember) = (withKim.members[0].id, withKim.members[2].id)
        let before = try await l.alex.ledger(id)

        // act and check: Sam, a member but not the owner
        let refusals: [TallyError?] = [
            await refusal { try await l.sam.removeMember(kimMember, from: id) },
            await refusal { try await l.sam.renameMember(alexMember, in: id, to: "Boss") },
            await refusal { try await l.sam.openInvite(id) },
            await refusal { try await l.sam.revokeInvite(id) },
            await refusal { try await l.sam.transferOwnership(of: id, to: .id(shared.members[1].id)) },
        ]
        #expect(refusals.map { $0?.message } == [
            "Only Person 1, who owns this ledger, can remove members.",
            "Only Person 1, who owns this ledger, can rename members who joined with their own account.",
            "Only Person 1, who owns this ledger, can open an invite.",
            "Only Person 1, who owns this ledger, can revoke the invite.",
            "Only Person 1, who owns this ledger, can make someone else its owner.",
        ])
        #expect(refusals.allSatisfy { $0?.kind == .conflict })
        #expect(try await l.alex.ledger(id) == before)

        // What any member may still do: rename themselves and members nobody has joined as.
        #expect(try await l.sam.renameMember(shared.members[1].id, in: id, to: "Sam").members[1].name == "Sam")
        #expect(try await l.sam.renameMember(kimMember, in: id, to: "Kim B").members[2].name == "Kim B")
        // And the owner may do all of it.
        #expect(try await l.alex.renameMember(shared.members[1].id, in: id, to: "Samuel").members[1].name == "Samuel")
        #expect(try await l.alex.removeMember(kimMember, from: id).members.count == 2)
    }

    @Test("S1: ownership passes to a member who joined; the new owner alone has the owner's rights", arguments: StoreKind.allCases)
    func transfer(_ kind: StoreKind) async throws {
        let (l, shared, _) = try await sharedWithKim(kind)
        let id = shared.ledger.id
        let unjoined = try await l.alex.addMember(to: id, name: "Kim").members[2].id
        // Only to someone with an account.
        let refused = await refusal { try await l.alex.transferOwnership(of: id, to: .id(unjoined)) }
        #expect(refused == TallyError.conflict("Nobody has joined as Kim yet: only a member with an account can own the ledger."))

        let handed = try await l.alex.transferOwnership(of: id, to: .name("person 2"))
        #expect(handed.owner?.userID == l.sam.user)
        #expect(try await l.alex.activity(in: id, limit: 1).map(\.text) == ["Made Person 2 the owner."])
        #expect(try await l.sam.openInvite(id).newInviteCode != nil)
        let refusedNow = await refusal { try await l.alex.removeMember(unjoined, from: id) }
        #expect(refusedNow?.message == "Only Person 2, who owns this ledger, can remove members.")
    }

    @Test("S1: anyone may leave; an owner who leaves hands the ledger to the next member who joined", arguments: StoreKind.allCases)
    func leaving(_ kind: StoreKind) async throws {
        let (l, shared, _) = try await sharedWithKim(kind)
        let id = shared.ledger.id
        let after = try await l.alex.removeMember(shared.members[0].id, from: id)
        #expect(after.owner?.userID == l.sam.user)
        #expect(try await l.sam.activity(in: id, limit: 2).map(\.text) == ["Removed Person 1 from the members.", "Made Person 2 the owner."])
    }

    @Test("S1: non-members still get not found, not a refusal that shows the ledger exists", arguments: StoreKind.allCases)
    func strangers(_ kind: StoreKind) async throws {
        let (_, shared, kim) = try await sharedWithKim(kind)
        let id = shared.ledger.id
        for attempt in [
            await refusal { try await kim.removeMember(shared.members[1].id, from: id) },
            await refusal { try await kim.openInvite(id) },
            await refusal { try await kim.transferOwnership(of: id, to: .id(shared.members[1].id)) },
        ] {
            #expect(attempt?.kind == .notFound)
        }
    }

    @Test("S1: an invite lasts 7 days and lets one person in by default; expired or used up, it answers like an unknown code",
          arguments: StoreKind.allCases)
    func inviteTerms(_ kind: StoreKind) async throws {
        let (l, _, kim) = try await sharedWithKim(kind)
        let id = try await l.alex.createLedger(name: "Trip", currency: "EUR", memberNames: ["Alex", "Sam", "Kim"]).ledger.id
        let opened = try await l.alex.openInvite(id)
        let code = try #require(opened.newInviteCode)
        #expect(opened.invite?.expiresAt == l.f.clock.now.addingTimeInterval(7 * 86_400) && opened.invite?.usesLeft == 1)
        // Read back, the invite has no code: only the answer that opened it does.
        #expect(try await l.alex.ledger(id).newInviteCode == nil)

        #expect(try await l.sam.join(code: code, as: .name("Sam")).member(of: l.sam.user)?.name == "Sam")
        #expect(try await l.alex.ledger(id).invite?.usesLeft == 0)
        // Used up: Kim is told what anyone with a wrong code is told.
        let usedUp = await refusal { try await kim.join(code: code, as: .name("Kim")) }
        #expect(usedUp == TallyError.notFound("This invite is not valid any more; ask for a new one."))
        #expect(try await kim.invitation(code: code) == nil)
        let unknown = await refusal { try await kim.join(code: "ZZZZ-ZZZZ-ZZZZ") }
        #expect(unknown == usedUp)

        // Expired: at the end of its second day.
        let weekly = try #require(try await l.alex.openInvite(id, terms: LedgerInviteTerms(days: 2, uses: 5)).newInviteCode)
        #expect(try await kim.invitation(code: weekly)?.ledger.id == id)
        l.f.clock.advance(by: 2 * 86_400)
        #expect(try await kim.invitation(code: weekly) == nil)
        #expect(await refusal { try await kim.join(code: weekly, as: .name("Kim")) } == usedUp)
    }

    @Test("S1: the owner chooses 1 to 30 days and 1 to 50 people")
    func termsRange() throws {
        #expect(try LedgerInviteTerms(days: 30, uses: 50).days == 30)
        #expect(throws: TallyError.invalid("An invite lasts 1 to 30 days; 31 is outside that.", field: "days")) { try LedgerInviteTerms(days: 31) }
        #expect(throws: TallyError.invalid("An invite lasts 1 to 30 days; 0 is outside that.", field: "days")) { try LedgerInviteTerms(days: 0) }
        #expect(throws: TallyError.invalid("An invite lets 1 to 50 people join; 51 is outside that.", field: "uses")) { try LedgerInviteTerms(uses: 51) }
        #expect(throws: TallyError.self) { try LedgerInviteTerms(uses: 0) }
    }

    @Test("S1: an invite for several people lets each in once; the code is stored only as its hash", arguments: StoreKind.allCases)
    func severalUses(_ kind: StoreKind) async throws {
        let (l, _, kim) = try await sharedWithKim(kind)
        let id = try await l.alex.createLedger(name: "Trip", currency: "EUR", memberNames: ["Alex", "Sam", "Kim"]).ledger.id
        let code = try #require(try await l.alex.openInvite(id, terms: LedgerInviteTerms(uses: 2)).newInviteCode)
        _ = try await l.sam.join(code: code, as: .name("Sam"))
        _ = try await l.sam.join(code: code)  // already in: no use taken
        _ = try await kim.join(code: code, as: .name("Kim"))
        #expect(try await l.alex.ledger(id).invite?.usesLeft == 0)
        if let sqlite = l.f.store as? SQLiteStore {
            let stored = try await sqlite.writer.read { db in try Data.fetchAll(db, sql: "SELECT codeHash FROM ledgerInvite") }
            #expect(stored.contains(InviteCode.hash(code)))
            let text = try await sqlite.writer.read { db in
                try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql LIKE '%inviteCode%'")
            }
            #expect(text.isEmpty, "a plain invite code column is left: \(text)")
        }
    }

    @Test("S1: the person joining chooses who they are; with several members free, no choice is refused", arguments: StoreKind.allCases)
    func choosing(_ kind: StoreKind) async throws {
        let (l, _, kim) = try await sharedWithKim(kind)
        let id = try await l.alex.createLedger(name: "Trip", currency: "EUR", memberNames: ["Alex", "Sam", "Kim"]).ledger.id
        let code = try #require(try await l.alex.openInvite(id, terms: LedgerInviteTerms(uses: 3)).newInviteCode)

        let unchosen = await refusal { try await kim.join(code: code) }
        #expect(unchosen == TallyError.invalid("Say who you are in Trip: one of Sam, Kim, or someone new."))
        #expect(try await l.alex.ledger(id).invite?.usesLeft == 3)

        // Kim picks the second free member, not the first.
        let joined = try await kim.join(code: code, as: .name("Kim"))
        #expect(joined.member(of: kim.user)?.name == "Kim")
        #expect(joined.members.first { $0.name == "Sam" }?.userID == nil)
        // Sam, with one member left free, may leave the choice out.
        #expect(try await l.sam.join(code: code).member(of: l.sam.user)?.name == "Sam")
    }

    @Test("S1: an account made through an invite joins in its own transaction: a refused join makes no account and spends no use",
          arguments: StoreKind.allCases)
    func accountJoinsOrIsNotMade(_ kind: StoreKind) async throws {
        let (l, ledger, _) = try await sharedWithKim(kind)
        let code = try #require(try await l.alex.openInvite(ledger.ledger.id, terms: LedgerInviteTerms(uses: 1)).newInviteCode)
        let accounts = try await l.f.store.accountCount()
        func signUp(_ name: String, as member: SpendingService.MemberRef?, newName: String? = nil) async throws -> Account {
            try await l.f.account(name, by: .ledgerInvite(codeHash: InviteCode.hash(code),
                                                          join: SpendingService.joining(as: member, newName: newName)))
        }
        // Alex's member is taken: each try is refused, and leaves neither an account nor a spent use.
        let alex = try #require(ledger.member(of: l.alex.user)).id
        for name in ["mallory", "mallory2"] {
            let taken = await refusal { try await signUp(name, as: .id(alex)) }
            #expect(taken?.kind == .conflict)
            #expect(try await l.f.store.user(named: name) == nil)
        }
        #expect(try await l.f.store.accountCount() == accounts)
        #expect(try await l.alex.ledger(ledger.ledger.id).invite?.usesLeft == 1)

        let pat = try await signUp("pat", as: nil, newName: "Pat")
        let joined = try await l.f.store.ledger(ledger.ledger.id, of: pat.user.id)
        #expect(joined.member(of: pat.user.id)?.name == "Pat" && joined.invite?.usesLeft == 0)
        let spent = await refusal { try await signUp("quinn", as: nil, newName: "Quinn") }
        #expect(spent == SignUpMode.ledgerInviteInvalid)
        #expect(try await l.f.store.accountCount() == accounts + 1)
    }

    @Test("S1: someone new joins under the name they give")
    func someoneNew() async throws {
        let (l, _, _) = try await sharedWithKim(.sqliteInMemory)
        let id = try await l.alex.createLedger(name: "Trip", currency: "EUR", memberNames: ["Alex", "Sam", "Kim"]).ledger.id
        let code = try #require(try await l.alex.openInvite(id).newInviteCode)
        let joined = try await l.sam.join(code: code, newName: "Samira")
        #expect(joined.members.map(\.name) == ["Alex", "Sam", "Kim", "Samira"])
        #expect(joined.member(of: l.sam.user)?.name == "Samira")
    }
}

/// Migration 12 on a database that migration 11 left with a shared ledger and an open invite.
@Suite("Migration 12: ledger owners and invites")
struct LedgerOwnersMigrationTests {
    @Test("S1: the creator becomes the owner and the open code keeps working for 7 days and 50 people, stored hashed")
    func migratesOwnersAndInvites() async throws {
        // setup: ada created the ledger, bob joined; bob's member comes first by id, so only the
        // activity log tells who the creator is. A second ledger has no activity at all.
        let path = temporaryDatabasePath()
        try FileManager.default.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        let old = try DatabaseQueue(path: path)
        try Migrations.migrator.migrate(old, upTo: "11 account security")
        let (ada, bob, home, quiet) = (UUID(), UUID(), UUID(), UUID())
        try await old.write { db in
            for (id, name) in [(ada, "ada"), (bob, "bob")] {
                try db.execute(sql: "INSERT INTO user (id, name, createdAt, timeZone) VALUES (?, ?, ?, 'Europe/Berlin')",
                               arguments: [id, name, Date()])
            }
            try db.execute(sql: "INSERT INTO ledger (id, name, currency, createdAt, inviteCode) VALUES (?, 'Home', 'EUR', ?, 'ABCD-EFGH-JKMN')",
                           arguments: [home, Date()])
            try db.execute(sql: "INSERT INTO ledgerMember (id, ledgerId, name, userId) VALUES (1, ?, 'Bob', ?), (2, ?, 'Ada', ?)",
                           arguments: [home, bob, home, ada])
            try db.execute(sql: "INSERT INTO ledgerActivity (ledgerId, at, userId, text) VALUES (?, ?, ?, 'Created the ledger Home.'), (?, ?, ?, 'Joined as Bob.')",
                           arguments: [home, Date(), ada, home, Date(), bob])
            try db.execute(sql: "INSERT INTO ledger (id, name, currency, createdAt) VALUES (?, 'Quiet', 'EUR', ?)", arguments: [quiet, Date()])
            try db.execute(sql: "INSERT INTO ledgerMember (id, ledgerId, name, userId) VALUES (3, ?, 'Nobody', NULL), (4, ?, 'Bob', ?)",
                           arguments: [quiet, quiet, bob])
        }
        try old.close()

        // act
        let store = try SQLiteStore.open(path: path)
        let now = Date()

        // check: owners
        let homeDetails = try await store.ledger(home, of: bob)
        #expect(homeDetails.ownerID == 2 && homeDetails.owner?.name == "Ada")
        #expect(try await store.ledger(quiet, of: bob).owner?.id == 4)
        // check: the invite, by the hash of its code, for a week and 50 people
        let invite = try #require(homeDetails.invite)
        #expect(invite.codeHash == InviteCode.hash("ABCD-EFGH-JKMN") && invite.usesLeft == 50)
        #expect(abs(invite.expiresAt.timeIntervalSince(now) - 7 * 86_400) < 120)
        #expect(try await store.invitedLedger(codeHash: InviteCode.hash("abcdefghjkmn"), at: now)?.ledger.id == home)
        #expect(try await store.invitedLedger(codeHash: InviteCode.hash("ABCD-EFGH-JKMN"), at: now.addingTimeInterval(8 * 86_400)) == nil)
        // check: no plain code is left, and the members and their links are untouched
        let columns = try await store.writer.read { db in try db.columns(in: "ledger").map(\.name) }
        #expect(columns == ["id", "name", "currency", "createdAt", "ownerMemberId"])
        #expect(homeDetails.members.map(\.name) == ["Bob", "Ada"] && homeDetails.members.map(\.userID) == [bob, ada])
        let integrity = try await store.writer.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") }
        #expect(integrity.isEmpty)
    }
}
