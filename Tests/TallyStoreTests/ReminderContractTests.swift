import Foundation
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
import Testing

@Suite("Reminders and the calendar feed in the store (H11)")
struct ReminderContractTests {
    static let reminders = ReminderSettings(enabled: true, window: WakeWindow(wake: TimeOfDay("06:30")!, sleep: TimeOfDay("00:45")!),
                                            frequency: 5, smartThresholdHours: 2, useSleepRecords: true)

    @Test("Reminder settings are the standard ones until saved, then read back as saved", arguments: StoreKind.allCases)
    func reminderSettings(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let bob = try await f.otherUser()
        #expect(try await f.store.reminderSettings(of: f.user.id) == .standard)
        try await f.store.saveReminderSettings(Self.reminders, of: f.user.id)
        #expect(try await f.store.reminderSettings(of: f.user.id) == Self.reminders)
        var fixed = Self.reminders
        fixed.smartThresholdHours = nil
        fixed.useSleepRecords = false
        try await f.store.saveReminderSettings(fixed, of: f.user.id)
        #expect(try await f.store.reminderSettings(of: f.user.id) == fixed)
        #expect(try await f.store.reminderSettings(of: bob.user) == .standard, "another user's are their own")
        await #expect(throws: TallyError.notFound("No such user.")) { try await f.store.saveReminderSettings(fixed, of: UUID()) }
        await #expect(throws: TallyError.notFound("No such user.")) { try await f.store.reminderSettings(of: UUID()) }
    }

    @Test("The calendar secret finds its user until it is replaced or revoked; it is never shared", arguments: StoreKind.allCases)
    func calendarSecret(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let bob = try await f.otherUser()
        let first = Data(repeating: 1, count: 32), second = Data(repeating: 2, count: 32)
        #expect(try await f.store.calendarOwner(secretHash: first) == nil)
        try await f.store.setCalendarSecret(hash: first, of: f.user.id)
        let owner = try #require(try await f.store.calendarOwner(secretHash: first))
        let settings = try await f.store.settings(of: f.user.id)
        #expect(owner.user == f.user && owner.settings == settings && owner.reminders == .standard)
        try await f.store.saveReminderSettings(Self.reminders, of: f.user.id)
        #expect(try await f.store.calendarOwner(secretHash: first)?.reminders == Self.reminders)
        try await f.store.setCalendarSecret(hash: second, of: f.user.id)
        #expect(try await f.store.calendarOwner(secretHash: first) == nil, "a new secret replaces the old one")
        #expect(try await f.store.calendarOwner(secretHash: second)?.user == f.user)
        // A disabled account's feed stops with its sessions and tokens, and comes back with them.
        try await f.store.setPassword(of: f.user.id, to: "a hash")
        try await f.store.setDisabled(f.user.id, at: f.clock.now)
        #expect(try await f.store.calendarOwner(secretHash: second) == nil)
        try await f.store.setDisabled(f.user.id, at: nil)
        #expect(try await f.store.calendarOwner(secretHash: second)?.user == f.user)
        await #expect(throws: TallyError.self) { try await f.store.setCalendarSecret(hash: second, of: bob.user) }
        try await f.store.setCalendarSecret(hash: nil, of: f.user.id)
        #expect(try await f.store.calendarOwner(secretHash: second) == nil)
        await #expect(throws: TallyError.notFound("No such user.")) { try await f.store.setCalendarSecret(hash: first, of: UUID()) }
    }

    @Test("Reminders go to users who turned them on and have somewhere to send them", arguments: StoreKind.allCases)
    func recipients(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let bob = try await f.otherUser()
        let subscription = PushSubscription(endpoint: "https://push.example/ada", p256dh: Data(repeating: 4, count: 65), auth: Data(repeating: 5, count: 16))
        try await f.store.savePushSubscription(subscription, of: f.user.id, at: f.clock.now, limit: pushSubscriptionLimit)
        #expect(try await f.store.reminderRecipients().isEmpty, "reminders are off until turned on")
        try await f.store.saveReminderSettings(Self.reminders, of: f.user.id)
        try await f.store.saveReminderSettings(Self.reminders, of: bob.user)
        let recipients = try await f.store.reminderRecipients()
        #expect(recipients.map(\.user) == [f.user], "bob has no subscription")
        let settings = try await f.store.settings(of: f.user.id)
        #expect(recipients.first?.settings == settings)
        #expect(recipients.first?.reminders == Self.reminders && recipients.first?.subscriptions == [subscription])
        // A disabled account is sent nothing until it is enabled again.
        try await f.store.setPassword(of: f.user.id, to: "a hash")
        try await f.store.setDisabled(f.user.id, at: f.clock.now)
        #expect(try await f.store.reminderRecipients().isEmpty)
        try await f.store.setDisabled(f.user.id, at: nil)
        #expect(try await f.store.reminderRecipients().map(\.user) == [f.user])
        var off = Self.reminders
        off.enabled = false
        try await f.store.saveReminderSettings(off, of: f.user.id)
        #expect(try await f.store.reminderRecipients().isEmpty)
    }
}
