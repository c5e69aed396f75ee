import Foundation
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
import Testing

/// H11 in the store: what the servers sending reminders from one database agree on.
@Suite("Push repository contract (H11)")
struct PushContractTests {
    static func subscription(_ name: String, key: UInt8 = 4) -> PushSubscription {
        PushSubscription(endpoint: "https://push.example/\(name)", p256dh: Data(repeating: key, count: 65), auth: Data(repeating: key, count: 16))
    }

    static let reminders = ReminderSettings(enabled: true, window: .standard, frequency: 8, smartThresholdHours: nil)

    @Test("A server key is made once and then read, by name", arguments: StoreKind.allCases)
    func serverKey(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let vapid = try await f.store.serverKey(named: "vapid") { Data(repeating: 1, count: 32) }
        #expect(vapid == Data(repeating: 1, count: 32))
        #expect(try await f.store.serverKey(named: "vapid") { Data(repeating: 2, count: 32) } == vapid)
        #expect(try await f.store.serverKey(named: "csrf") { Data(repeating: 3, count: 32) } == Data(repeating: 3, count: 32))
    }

    @Test("Servers asking for a key at once all get the same one", arguments: StoreKind.allCases)
    func racingServerKey(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let keys = try await withThrowingTaskGroup(of: Data.self) { group in
            for index in 0..<10 {
                group.addTask { try await f.store.serverKey(named: "vapid") { Data(repeating: UInt8(index), count: 32) } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(keys).count == 1)
        #expect(try await f.store.serverKey(named: "vapid") { Data() } == keys.first)
    }

    @Test("Subscriptions: saved again they change their keys, an endpoint moves to who saves it, and there is a limit",
          arguments: StoreKind.allCases)
    func subscriptions(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let bob = try await f.otherUser()
        let phone = Self.subscription("phone"), laptop = Self.subscription("laptop")
        try await f.store.savePushSubscription(phone, of: f.user.id, at: instant("2025-06-15T10:00:00Z"), limit: 2)
        try await f.store.savePushSubscription(laptop, of: f.user.id, at: instant("2025-06-15T11:00:00Z"), limit: 2)
        #expect(try await f.store.pushSubscriptions(of: f.user.id) == [phone, laptop], "in the order they were made")
        let renewed = Self.subscription("phone", key: 7)
        try await f.store.savePushSubscription(renewed, of: f.user.id, at: instant("2025-06-15T12:00:00Z"), limit: 2)
        #expect(try await f.store.pushSubscriptions(of: f.user.id) == [renewed, laptop], "saving a subscription again is no new device")

        await #expect(throws: TallyError.conflict(
            "Notifications are on for 2 devices of yours, the most Tally sends to; turn them off on one first.")) {
            try await f.store.savePushSubscription(Self.subscription("tablet"), of: f.user.id, at: instant("2025-06-15T12:00:00Z"), limit: 2)
        }
        // Someone else signs in on the laptop: its notifications are theirs now.
        try await f.store.savePushSubscription(laptop, of: bob.user, at: instant("2025-06-15T13:00:00Z"), limit: 2)
        #expect(try await f.store.pushSubscriptions(of: bob.user) == [laptop])
        #expect(try await f.store.pushSubscriptions(of: f.user.id) == [renewed])
        let tablet = Self.subscription("tablet")
        try await f.store.savePushSubscription(tablet, of: f.user.id, at: instant("2025-06-15T14:00:00Z"), limit: 2)

        try await f.store.deletePushSubscription(endpoint: tablet.endpoint, of: bob.user)
        #expect(try await f.store.pushSubscriptions(of: f.user.id) == [renewed, tablet], "not bob's to remove")
        try await f.store.deletePushSubscription(endpoint: tablet.endpoint, of: f.user.id)
        #expect(try await f.store.pushSubscriptions(of: f.user.id) == [renewed])
        try await f.store.deletePushSubscription(endpoint: laptop.endpoint, of: nil)
        #expect(try await f.store.pushSubscriptions(of: bob.user).isEmpty, "the push service said it is gone")
    }

    @Test("A reminder is claimed once; forgotten claims can be made again", arguments: StoreKind.allCases)
    func claims(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        #expect(try await f.store.claimReminder(key: "ada 08:00", at: instant("2025-06-15T06:00:00Z")))
        #expect(try await !f.store.claimReminder(key: "ada 08:00", at: instant("2025-06-15T06:01:00Z")))
        #expect(try await f.store.claimReminder(key: "ada 10:00", at: instant("2025-06-15T08:00:00Z")))
        #expect(try await f.store.claimReminder(key: "ada 12:00", at: instant("2025-06-15T10:00:00Z")))
        #expect(try await f.store.forgetRemindersSent(before: instant("2025-06-15T10:00:00Z")) == 2)
        #expect(try await f.store.forgetRemindersSent(before: instant("2025-06-15T10:00:00Z")) == 0)
        #expect(try await f.store.claimReminder(key: "ada 08:00", at: instant("2025-06-16T06:00:00Z")))
        #expect(try await !f.store.claimReminder(key: "ada 12:00", at: instant("2025-06-16T06:00:00Z")))
    }

    @Test("Of servers claiming one reminder at once, exactly one sends it", arguments: StoreKind.allCases)
    func racingClaims(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let claims = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<10 {
                group.addTask { try await f.store.claimReminder(key: "ada 08:00", at: instant("2025-06-15T06:00:00Z")) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(claims.filter { $0 }.count == 1)
    }

    @Test("Each recipient gets their own subscriptions; a disabled account is left out", arguments: StoreKind.allCases)
    func recipients(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let bob = try await f.account("bob")
        let carol = try await f.account("carol")
        let phone = Self.subscription("ada's phone"), laptop = Self.subscription("ada's laptop"), bobs = Self.subscription("bob's")
        try await f.store.savePushSubscription(phone, of: f.user.id, at: instant("2025-06-15T10:00:00Z"), limit: pushSubscriptionLimit)
        try await f.store.savePushSubscription(laptop, of: f.user.id, at: instant("2025-06-15T11:00:00Z"), limit: pushSubscriptionLimit)
        try await f.store.savePushSubscription(bobs, of: bob.user.id, at: instant("2025-06-15T10:00:00Z"), limit: pushSubscriptionLimit)
        for user in [f.user.id, bob.user.id, carol.user.id] {
            try await f.store.saveReminderSettings(Self.reminders, of: user)
        }
        let recipients = try await f.store.reminderRecipients()
        #expect(Set(recipients.map(\.user.name)) == ["ada", "bob"], "carol has nowhere to send them")
        #expect(recipients.first { $0.user == f.user }?.subscriptions == [phone, laptop])
        #expect(recipients.first { $0.user == bob.user }?.subscriptions == [bobs])
        #expect(recipients.allSatisfy { $0.reminders == Self.reminders && $0.settings == HydrationSettings(timeZone: "Europe/Berlin") })

        try await f.store.setDisabled(bob.user.id, at: instant("2025-06-15T12:00:00Z"))
        #expect(try await f.store.reminderRecipients().map(\.user) == [f.user])
    }

    @Test("The latest drink is the user's own, and none before the first", arguments: StoreKind.allCases)
    func lastDrink(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let bob = try await f.otherUser()
        let water = try await f.kind("water")
        _ = try await f.store.addIntakes([
            Intake(id: UUID(), at: instant("2025-06-14T08:00:00Z"), day: day("2025-06-14"), volumeMl: 250, kind: water, note: nil, source: .manual),
            Intake(id: UUID(), at: instant("2025-06-15T07:30:00Z"), day: day("2025-06-15"), volumeMl: 250, kind: water, note: nil, source: .manual),
        ], of: f.user.id)
        #expect(try await f.store.lastDrink(of: f.user.id) == instant("2025-06-15T07:30:00Z"))
        #expect(try await f.store.lastDrink(of: bob.user) == nil)
    }
}
