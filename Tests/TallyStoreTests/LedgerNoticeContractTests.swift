import Foundation
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
import Testing

/// Who hears of a ledger's changes, the bursts that keep a busy minute to two notifications,
/// and how each device's deliveries went: what instances sharing one database agree on.
@Suite("Ledger notifications in the store")
struct LedgerNoticeContractTests {
    static let phone = PushSubscription(endpoint: "https://push.example/sam-phone", p256dh: Data(repeating: 4, count: 65),
                                        auth: Data(repeating: 4, count: 16), device: "Firefox on Android")

    @Test("The other members with a device hear of a change, the author and a muted member do not", arguments: StoreKind.allCases)
    func recipients(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let ledger = try await l.shared().ledger.id
        #expect(try await l.f.store.changeRecipients(of: ledger, except: l.alex.user).isEmpty, "Sam has no device yet")
        try await l.f.store.savePushSubscription(Self.phone, of: l.sam.user, at: l.f.clock.now, limit: 10)
        let recipients = try await l.f.store.changeRecipients(of: ledger, except: l.alex.user)
        #expect(recipients.map(\.user.id) == [l.sam.user])
        #expect(recipients.first?.subscriptions == [Self.phone])
        #expect(recipients.first?.member == 2, "Sam joined as Person 2")
        #expect(try await l.f.store.changeRecipients(of: ledger, except: l.sam.user).isEmpty, "the author hears nothing of their own")

        #expect(try await l.sam.changeNotifications(in: ledger), "on by default for a ledger joined")
        try await l.sam.setChangeNotifications(false, in: ledger)
        #expect(try await l.sam.changeNotifications(in: ledger) == false)
        #expect(try await l.alex.changeNotifications(in: ledger), "each member's own")
        #expect(try await l.f.store.changeRecipients(of: ledger, except: l.alex.user).isEmpty)
        try await l.sam.setChangeNotifications(true, in: ledger)
        #expect(try await l.f.store.changeRecipients(of: ledger, except: l.alex.user).count == 1)

        // a stranger's ledger is no ledger of theirs
        let other = try await l.alex.createLedger(name: "Alone", currency: "EUR")
        await #expect(throws: TallyError.self) { try await l.sam.setChangeNotifications(false, in: other.ledger.id) }
        await #expect(throws: TallyError.self) { try await l.sam.changeNotifications(in: other.ledger.id) }
    }

    @Test("A burst: the first change opens it, the next join it, its end is taken once and then it is gone", arguments: StoreKind.allCases)
    func bursts(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let ledger = try await l.shared().ledger.id
        let (store, start, alex) = (l.f.store, l.f.clock.now, l.alex.user)
        #expect(try await store.joinBurst(ledger: ledger, author: alex, at: start, lasting: 60, added: 1000) == .opened)
        #expect(try await store.joinBurst(ledger: ledger, author: alex, at: start + 10, lasting: 60, added: 250) == .joined)
        #expect(try await store.joinBurst(ledger: ledger, author: alex, at: start + 20, lasting: 60, added: 150) == .joined)
        // another person's changes are a burst of their own
        #expect(try await store.joinBurst(ledger: ledger, author: l.sam.user, at: start + 20, lasting: 60, added: nil) == .opened)
        #expect(try await store.endBursts(at: start + 59).isEmpty)
        let ended = try await store.endBursts(at: start + 80)
        #expect(ended.count == 2)
        let alexes = try #require(ended.first { $0.author == alex })
        #expect(alexes.more == 2 && alexes.added == 400 && alexes.allAdded)
        #expect(ended.first { $0.author == l.sam.user }?.more == 0)
        #expect(try await store.endBursts(at: start + 90).isEmpty, "an ended burst is taken once")
        // after the end, a change opens a new burst; one that is not a new expense marks it mixed
        #expect(try await store.joinBurst(ledger: ledger, author: alex, at: start + 100, lasting: 60, added: nil) == .opened)
        #expect(try await store.joinBurst(ledger: ledger, author: alex, at: start + 101, lasting: 60, added: nil) == .joined)
        #expect(try await store.joinBurst(ledger: ledger, author: alex, at: start + 102, lasting: 60, added: 500) == .joined)
        let mixed = try await store.endBursts(at: start + 200)
        #expect(mixed.map(\.more) == [2] && mixed.map(\.allAdded) == [false])
    }

    @Test("Bursts ended at once by several instances are each taken by one", arguments: StoreKind.allCases)
    func racingEnds(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let ledger = try await l.shared().ledger.id
        let start = l.f.clock.now
        for second in 0..<5 {
            _ = try await l.f.store.joinBurst(ledger: ledger, author: l.alex.user, at: start + Double(second), lasting: 60, added: 100)
        }
        let taken = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 { group.addTask { try await l.f.store.endBursts(at: start + 120).count } }
            return try await group.reduce(0, +)
        }
        #expect(taken == 1)
    }

    @Test("Deliveries: a delivery clears the failures, failures count, gone takes nothing more and is listed as gone",
          arguments: StoreKind.allCases)
    func deliveries(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let store = f.store
        try await store.savePushSubscription(Self.phone, of: f.user.id, at: f.clock.now, limit: 2)
        var device = try #require(try await store.pushDevices(of: f.user.id).first)
        #expect(device.device == "Firefox on Android" && device.failures == 0 && device.lastDeliveredAt == nil && device.goneAt == nil)
        try await store.recordPush(to: Self.phone.endpoint, at: f.clock.now + 60, outcome: .failed("500"))
        try await store.recordPush(to: Self.phone.endpoint, at: f.clock.now + 120, outcome: .failed("no answer"))
        device = try #require(try await store.pushDevices(of: f.user.id).first)
        #expect(device.failures == 2 && device.lastFailure == "no answer" && device.lastFailedAt == f.clock.now + 120)
        try await store.recordPush(to: Self.phone.endpoint, at: f.clock.now + 180, outcome: .delivered)
        device = try #require(try await store.pushDevices(of: f.user.id).first)
        #expect(device.failures == 0 && device.lastDeliveredAt == f.clock.now + 180)

        try await store.recordPush(to: Self.phone.endpoint, at: f.clock.now + 240, outcome: .gone)
        #expect(try await store.pushSubscriptions(of: f.user.id).isEmpty, "a gone device takes nothing")
        #expect(try await store.pushDevices(of: f.user.id).first?.goneAt == f.clock.now + 240, "and is listed as gone")
        // a gone device does not count against the limit, and subscribing again brings it back
        let laptop = PushSubscription(endpoint: "https://push.example/laptop", p256dh: Data(repeating: 5, count: 65), auth: Data(repeating: 5, count: 16))
        let tablet = PushSubscription(endpoint: "https://push.example/tablet", p256dh: Data(repeating: 6, count: 65), auth: Data(repeating: 6, count: 16))
        try await store.savePushSubscription(laptop, of: f.user.id, at: f.clock.now + 300, limit: 2)
        try await store.savePushSubscription(tablet, of: f.user.id, at: f.clock.now + 300, limit: 2)
        try await store.recordPush(to: tablet.endpoint, at: f.clock.now + 320, outcome: .gone)
        try await store.savePushSubscription(Self.phone, of: f.user.id, at: f.clock.now + 360, limit: 2)
        #expect(Set(try await store.pushSubscriptions(of: f.user.id).map(\.endpoint)) == [Self.phone.endpoint, laptop.endpoint])
        #expect(try await store.pushDevices(of: f.user.id).first { $0.endpoint == Self.phone.endpoint }?.goneAt == nil)

        try await store.forgetGonePushDevices(before: f.clock.now + 400)
        #expect(try await store.pushDevices(of: f.user.id).map(\.endpoint).contains(tablet.endpoint) == false)
        #expect(try await store.pushDevices(of: f.user.id).count == 2)
    }

    @Test("A snooze is kept with the reminder settings and read by the reminders' recipients", arguments: StoreKind.allCases)
    func snooze(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        try await f.hydration.saveReminderSettings(PushContractTests.reminders)
        try await f.store.savePushSubscription(Self.phone, of: f.user.id, at: f.clock.now, limit: 2)
        #expect(try await f.store.reminderRecipients().first?.snoozedUntil == nil)
        try await f.store.snoozeReminders(of: f.user.id, until: f.clock.now + 3600)
        #expect(try await f.store.reminderRecipients().first?.snoozedUntil == f.clock.now + 3600)
        try await f.store.snoozeReminders(of: f.user.id, until: nil)
        #expect(try await f.store.reminderRecipients().first?.snoozedUntil == nil)
    }
}
