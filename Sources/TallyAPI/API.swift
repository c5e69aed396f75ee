import Foundation
import TallyCore

/// Every route of the API under `/api/v1`, with the body it reads and the answer it gives
/// (openapi.yaml describes them; a test holds the two together).
public enum API {
    // MARK: Drinks and removals (H1–H3)
    public static let logDrink = Route<NewIntake, EntryResult>(.post, "intakes")
    public static let drink = Route<NoBody, DayEntry>(.get, "intakes/{id}")
    public static let editDrink = Route<IntakeChange, EntryResult>(.patch, "intakes/{id}")
    public static let remove = Route<NewRemoval, EntryResult>(.post, "removals")
    /// Query: `date`, `limit`, `cursor`.
    public static let entries = Route<NoBody, EntryPage>(.get, "entries")
    public static let deleteEntry = Route<NoBody, DeletedEntry>(.delete, "entries/{id}")

    // MARK: Days (H2, H9, H12)
    public static let today = Route<NoBody, DaySummary>(.get, "today")
    public static let day = Route<NoBody, DaySummary>(.get, "days/{date}")
    /// Query: `days`, `month`.
    public static let history = Route<NoBody, HydrationHistory>(.get, "history")
    /// The day's revision; with `Accept: text/event-stream`, a stream of it as it moves.
    public static let dayChanges = Route<NoBody, Revision>(.get, "days/{date}/changes")

    // MARK: Goal and profile (H7, H8)
    public static let goal = Route<NoBody, GoalStatus>(.get, "goal")
    public static let setGoal = Route<GoalChange, GoalStatus>(.put, "goal")
    public static let calculateGoal = Route<Profile, GoalBreakdown>(.post, "goal/calculate")
    public static let profile = Route<NoBody, GoalStatus>(.get, "profile")
    public static let setProfile = Route<Profile, GoalStatus>(.put, "profile")
    public static let clearProfile = Route<NoBody, GoalStatus>(.delete, "profile")

    // MARK: Settings and drink kinds (H2, H4, H5, H6)
    public static let settings = Route<NoBody, SettingsView>(.get, "settings")
    public static let changeSettings = Route<SettingsChange, SettingsView>(.patch, "settings")
    public static let setPresets = Route<PresetsChange, SettingsView>(.put, "presets")
    public static let kinds = Route<NoBody, [DrinkKind]>(.get, "kinds")
    public static let addKind = Route<NewKind, DrinkKind>(.post, "kinds")
    public static let changeKind = Route<KindChange, DrinkKind>(.patch, "kinds/{id}")
    public static let useFactors = Route<FactorSetChange, [DrinkKind]>(.put, "kinds/factors")

    // MARK: Bottle (H10)
    public static let bottle = Route<NoBody, Bottle>(.get, "bottle")
    public static let changeBottle = Route<BottleChange, Bottle>(.patch, "bottle")
    public static let sip = Route<SipRequest, BottleResult>(.post, "bottle/sip")
    public static let fillBottle = Route<NoBody, Bottle>(.post, "bottle/fill")

    // MARK: Reminders and push (H11)
    public static let reminders = Route<NoBody, RemindersView>(.get, "reminders")
    public static let saveReminders = Route<ReminderSettings, RemindersView>(.put, "reminders")
    public static let createCalendar = Route<NoBody, CalendarLink>(.post, "reminders/calendar")
    public static let revokeCalendar = Route<NoBody, NoBody>(.delete, "reminders/calendar")
    public static let pushKey = Route<NoBody, PushKey>(.get, "push/key")
    public static let subscribe = Route<PushSubscriptionBody, NoBody>(.post, "push/subscriptions")
    public static let unsubscribe = Route<PushEndpointBody, NoBody>(.delete, "push/subscriptions")
    public static let testPush = Route<NoBody, PushTestResult>(.post, "push/test")
    /// The devices with notifications on, how their deliveries went, and those that stopped.
    public static let pushDevices = Route<NoBody, PushDeviceList>(.get, "push/subscriptions")
    /// Puts reminders off: none until then, one at that time.
    public static let snoozeReminders = Route<SnoozeBody, SnoozeAnswer>(.post, "reminders/snooze")

    // MARK: Imports (A2)
    /// The body is Apple Health's export.zip, or the export.xml inside it.
    public static let importAppleHealth = Route<FileBody, AppleHealthImportReport>(.post, "import/apple-health")
    /// Lets the imported drinks deleted since come back with the next import.
    public static let forgetDeletedImports = Route<NoBody, ForgottenImports>(.delete, "import/apple-health/deleted")
    /// The body is a CSV of drinks: Tally's own export, or a plain "date,time,amount,unit" file.
    public static let importDrinksCSV = Route<FileBody, DrinkCSVImportReport>(.post, "import/csv")
    /// Every drink and removal of the person, as CSV.
    public static let exportDrinksCSV = Route<NoBody, FileBody>(.get, "export/csv")
    /// Everything of the person, as one JSON document (docs/person-backup.schema.json).
    public static let exportBackup = Route<NoBody, FileBody>(.get, "export/json")
    /// The body is a person's backup; `merge=true` adds it to an account that has data.
    public static let restoreBackup = Route<FileBody, BackupRestoreReport>(.post, "restore")

    // MARK: Accounts (A1)
    public static let me = Route<NoBody, Me>(.get, "me")
    public static let tokens = Route<NoBody, [APITokenInfo]>(.get, "tokens")
    public static let createToken = Route<NewToken, CreatedToken>(.post, "tokens")
    public static let revokeToken = Route<NoBody, NoBody>(.delete, "tokens/{id}")
    public static let changePassword = Route<PasswordChange, SignedOut>(.put, "me/password")
    public static let sessions = Route<NoBody, [SessionInfo]>(.get, "sessions")
    public static let signOutElsewhere = Route<NoBody, SignedOut>(.delete, "sessions")

    // MARK: Ledgers (S1)
    public static let ledgers = Route<NoBody, LedgerList>(.get, "ledgers")
    public static let createLedger = Route<NewLedger, LedgerJSON>(.post, "ledgers")
    public static let joinLedger = Route<JoinRequest, LedgerJSON>(.post, "ledgers/join")
    public static let ledger = Route<NoBody, LedgerJSON>(.get, "ledgers/{ledger}")
    public static let changeLedger = Route<LedgerChange, LedgerJSON>(.patch, "ledgers/{ledger}")
    /// Whether you hear of the changes others make to the ledger (on unless turned off).
    public static let ledgerNotifications = Route<NoBody, LedgerNotifications>(.get, "ledgers/{ledger}/notifications")
    public static let setLedgerNotifications = Route<LedgerNotifications, LedgerNotifications>(.put, "ledgers/{ledger}/notifications")
    public static let addMember = Route<MemberName, LedgerJSON>(.post, "ledgers/{ledger}/members")
    public static let renameMember = Route<MemberName, LedgerJSON>(.patch, "ledgers/{ledger}/members/{member}")
    public static let removeMember = Route<NoBody, LedgerJSON>(.delete, "ledgers/{ledger}/members/{member}")
    public static let transferOwnership = Route<NewOwner, LedgerJSON>(.put, "ledgers/{ledger}/owner")
    public static let openInvite = Route<InviteRequest, LedgerJSON>(.post, "ledgers/{ledger}/invite")
    public static let revokeInvite = Route<NoBody, LedgerJSON>(.delete, "ledgers/{ledger}/invite")

    // MARK: Expenses and payments (S2–S5)
    public static let addExpense = Route<NewExpense, EntryJSON>(.post, "ledgers/{ledger}/expenses")
    public static let recordPayment = Route<NewPayment, EntryJSON>(.post, "ledgers/{ledger}/payments")
    /// Query: `limit`, `cursor`, `deleted`.
    public static let ledgerEntries = Route<NoBody, EntryListJSON>(.get, "ledgers/{ledger}/entries")
    public static let ledgerEntry = Route<NoBody, EntryJSON>(.get, "ledgers/{ledger}/entries/{id}")
    public static let editLedgerEntry = Route<EntryChangeBody, EntryJSON>(.patch, "ledgers/{ledger}/entries/{id}")
    public static let deleteLedgerEntry = Route<NoBody, EntryJSON>(.delete, "ledgers/{ledger}/entries/{id}")
    public static let restoreLedgerEntry = Route<NoBody, EntryJSON>(.post, "ledgers/{ledger}/entries/{id}/restore")
    /// The body is the photo (JPEG, PNG, WebP, HEIC) or PDF itself; it replaces the one before.
    public static let attachReceipt = Route<FileBody, EntryJSON>(.put, "ledgers/{ledger}/entries/{id}/receipt")
    /// Query: `size=thumbnail` for the small copy of a photo; the answer is the file.
    public static let receipt = Route<NoBody, FileBody>(.get, "ledgers/{ledger}/entries/{id}/receipt")
    public static let removeReceipt = Route<NoBody, EntryJSON>(.delete, "ledgers/{ledger}/entries/{id}/receipt")
    public static let summary = Route<NoBody, SummaryJSON>(.get, "ledgers/{ledger}/summary")
    /// Query: `limit`, `cursor`.
    public static let activity = Route<NoBody, ActivityList>(.get, "ledgers/{ledger}/activity")
    /// The ledger's revision; with `Accept: text/event-stream`, a stream of it as it moves.
    public static let ledgerChanges = Route<NoBody, Revision>(.get, "ledgers/{ledger}/changes")

    // MARK: Recurring expenses
    public static let recurringExpenses = Route<NoBody, RecurringExpenseList>(.get, "ledgers/{ledger}/recurring")
    public static let addRecurringExpense = Route<NewRecurringExpense, RecurringExpenseJSON>(.post, "ledgers/{ledger}/recurring")
    public static let recurringExpense = Route<NoBody, RecurringExpenseJSON>(.get, "ledgers/{ledger}/recurring/{id}")
    public static let changeRecurringExpense = Route<RecurringExpenseChange, RecurringExpenseJSON>(.patch, "ledgers/{ledger}/recurring/{id}")
    public static let deleteRecurringExpense = Route<NoBody, NoBody>(.delete, "ledgers/{ledger}/recurring/{id}")

    // MARK: Moving ledgers in and out (S6)
    /// Query: `format` (csv or json); the answer is the file.
    public static let exportLedger = Route<NoBody, FileBody>(.get, "ledgers/{ledger}/export")
    /// The body is IHateMoney's export (JSON or CSV); query: `ledger`, `name`, `currency`, `rate`
    /// (repeated: `USD=0.92`).
    public static let importIHateMoney = Route<FileBody, IHateMoneyImportReport>(.post, "ledgers/import/ihatemoney")
    /// The body is Splitwise's CSV export; query as for IHateMoney's.
    public static let importSplitwise = Route<FileBody, IHateMoneyImportReport>(.post, "ledgers/import/splitwise")
}
