import Foundation
import TallyAPI
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// The ledger page's history: the search, each entry with what it means for you, deleting and
/// restoring.
extension LedgerPage {
    private func describe(_ entry: SpendingEntry) -> (title: String, detail: String) {
        if let recipient = entry.recipient {
            return (t("\(summary.name(entry.payer)) paid \(summary.name(recipient))"), entry.description ?? t("Payment"))
        }
        let title = entry.description ?? t("Expense")
        let payers = Layout.payers(entry.payers, name: summary.name)
        guard entry.split.members.count != details.members.count else { return (title, t("paid by \(payers)")) }
        let sharers = Written.current.list(entry.split.members.map(summary.name))
        return (title, t("paid by \(payers) · shared by \(sharers)"))
    }

    /// An expense's "Add again": the quick entry filled in as it was (description, amount,
    /// currency, payers, split, category), dated today, for one tap more.
    private func again(_ entry: SpendingEntry, title: String, amount: String) -> HTML {
        guard entry.kind == .expense else { return "" }
        return """
        <a href="\(SitePath.ledger.link(ledger))?again=\(entry.id)#add-title" class="button again" \
        aria-label="\(t("Add \(title), \(amount) again"))">\(t("Add again"))</a>
        """
    }

    /// Find entries by words, member, category and dates: a form that works without the
    /// script, its fields in the page's address. Open while a search is shown.
    private var searchForm: HTML {
        let members = details.members.map { member -> HTML in
            "<option value=\"\(member.id)\"\(HTML.flag("selected", search.member == member.id))>\(member.name)</option>"
        }
        let categories = overview.recentCategories.map { category -> HTML in "<option value=\"\(category)\"></option>" }
        let clear: HTML = search.isActive
            ? "<a href=\"\(SitePath.ledger.link(ledger))#history-title\" class=\"button\">\(t("Show all"))</a>" : ""
        return """
        <details class="more search"\(HTML.flag("open", search.isActive))>
        <summary>\(t("Find entries"))</summary>
        <form method="get" action="\(SitePath.ledger.link(ledger))#history-title" class="stack" role="search">
        <label for="search-words">\(t("Words in the description"))</label>
        <input id="search-words" name="q" type="search" maxlength="\(EntryFilter.maximumWords)" value="\(search.words)">
        <label for="search-member">\(t("Who paid, received or shares"))</label>
        <select id="search-member" name="member"><option value="">\(t("Anyone"))</option>\(members)</select>
        <label for="search-category">\(t("Category"))</label>
        <input id="search-category" name="category" maxlength="50" value="\(search.category)" list="search-categories">
        <datalist id="search-categories">\(categories)</datalist>
        <div class="row dates">
        <span><label for="search-from">\(t("From"))</label><input id="search-from" name="from" type="date" value="\(search.from?.description ?? "")"></span>
        <span><label for="search-through">\(t("Through"))</label><input id="search-through" name="through" type="date" value="\(search.through?.description ?? "")"></span>
        </div>
        <div class="row"><button type="submit" class="primary">\(t("Find"))</button>\(clear)</div>
        </form>
        </details>
        """
    }

    func history(_ context: PageContext) -> HTML {
        let entries = overview.entries
        let title = search.isActive ? t("Found") : t("History")
        guard !entries.isEmpty else {
            let empty = search.isActive ? (after == nil ? t("No entry matches this search.") : t("No older entry matches."))
                : after == nil ? t("Nothing yet: add the first expense above.") : t("Nothing older.")
            return """
            <section aria-labelledby="history-title">
            <h2 id="history-title">\(title)</h2>
            \(searchForm)
            <p class="empty" role="status">\(empty)</p>
            </section>
            """
        }
        let you = details.member(of: user)?.id
        let items = entries.map { entry -> HTML in
            let (title, detail) = describe(entry)
            let amount = Self.amount(entry)
            // "$100.00 →" above the ledger's amount (the style sheet draws the arrow the way the page reads).
            let original = entry.original.map { Layout.money($0.amount) }
            let day = Written.current.day(entry.date, today: today)
            // Worked out once: the row's figures, what it means for you and its details use them.
            let shares = (try? entry.shares) ?? []
            let yours = you.flatMap { self.yours(entry, shares, you: $0) }
            // A tap on the row shows who shares it and what can be done with it.
            return """
            <li class="\(entry.kind.rawValue)" \(figures(entry, shares))><details class="entry">
            <summary>\(ReceiptSection.thumbnail(ledger: ledger, entry: entry, title: title))<span class="what"><strong>\(title)</strong>
            <span class="help"><time datetime="\(entry.date)">\(day)</time> · \(detail)</span></span>
            <span class="figures">\(original.map { HTML("<span class=\"original\">\($0)</span>") } ?? "")\
            <span class="amount">\(Layout.money(entry.amount))</span>\
            \(yours.map { HTML("<span class=\"yours \($0.state)\">\($0.text)</span>") } ?? "")</span></summary>
            <div class="entry-more">
            \(sharesLine(entry, shares))
            <span class="actions"><a href="\(SitePath.editLedgerEntry.link(ledger, entry.id))" class="button edit" \
            aria-label="\(t("Edit \(title), \(amount), \(day)"))">\(t("Edit"))</a>\(again(entry, title: title, amount: amount))
            <form method="post" action="\(SitePath.deleteLedgerEntry.link(ledger, entry.id))" data-swap data-offline="delete" data-confirm="\(t("Delete \(title), \(amount)?"))">
            \(Layout.csrfField(context))<input type="hidden" name="seen" value="\(entry.fingerprint)"><button type="submit" class="delete" aria-label="\(t("Delete \(title), \(amount), \(day)"))">\(t("Delete"))</button>
            </form></span></div></details></li>
            """
        }
        // Without the script "Show more" opens the next page; with it, the next page's entries
        // join this list.
        let more: HTML = overview.hasMore
            ? "<p class=\"more-entries\"><a href=\"\(SitePath.ledger.link(ledger))\(search.query(after: entries.last!.id))#history-title\" class=\"button\" data-more-entries>\(t("Show more"))</a></p>"
            : ""
        let newest: HTML = after == nil ? "" : "<p><a href=\"\(SitePath.ledger.link(ledger))\(search.query())#history-title\">\(t("Back to the newest"))</a></p>"
        return """
        <section aria-labelledby="history-title">
        <h2 id="history-title">\(title)</h2>
        \(searchForm)
        \(newest)<ul class="entries ledger-entries">\(items)</ul>
        \(more)
        </section>
        """
    }

    /// "€12.50", or "$100.00 → €92.34" for an entry typed in another currency.
    static func amount(_ entry: SpendingEntry) -> String {
        // The arrow points the way the page reads.
        entry.original.map { t("\(Layout.money($0.amount)) → \(Layout.money(entry.amount))") } ?? Layout.money(entry.amount)
    }

    /// What the entry means for the reader: "you lent €5.00", "you borrowed €5.00", "you paid",
    /// "you received", "not involved"; nil when it leaves them even.
    func yours(_ entry: SpendingEntry, _ shares: [(member: MemberID, share: Money)], you: MemberID) -> (text: String, state: String)? {
        let paid = entry.payers.filter { $0.member == you }.reduce(Int64(0)) { $0 + $1.amount.minorUnits }
        let share = shares.first { $0.member == you }?.share.minorUnits ?? 0
        if entry.recipient != nil {
            if paid > 0 { return (t("you paid"), "owed") }
            return share > 0 ? (t("you received"), "owes") : nil
        }
        if paid == 0, share == 0 { return (t("not involved"), "") }
        let net = paid - share
        if net > 0 { return (t("you lent \(money(net))"), "owed") }
        if net < 0 { return (t("you borrowed \(money(-net))"), "owes") }
        return nil
    }

    /// Each member's share of an expense, in the row's details ("Ada €5.00 · Ben €5.00").
    private func sharesLine(_ entry: SpendingEntry, _ shares: [(member: MemberID, share: Money)]) -> HTML {
        guard entry.recipient == nil else { return "" }
        let parts = shares.map { "\(summary.name($0.member)) \(money($0.share.minorUnits))" }.joined(separator: " · ")
        let line = entry.category.map { t("Shares: \(parts) · \($0)") } ?? t("Shares: \(parts)")
        return "<p class=\"help shares\">\(line)</p>"
    }

    /// What an entry does to the balances, for the page to take it back when it is deleted
    /// offline: the entry, who paid what, how much, and each member's share, in minor units.
    func figures(_ entry: SpendingEntry, _ shares: [(member: MemberID, share: Money)]) -> HTML {
        let shares = shares.map { "\($0.member):\($0.share.minorUnits)" }.joined(separator: " ")
        let payers = entry.payers.map { "\($0.member):\($0.amount.minorUnits)" }.joined(separator: " ")
        return """
        data-entry="\(entry.id)" data-kind="\(entry.kind.rawValue)" data-payer="\(entry.payer)" data-amount="\(entry.amount.minorUnits)" \
        data-payers="\(payers)" data-shares="\(shares)"
        """
    }

    /// The button that brings a deleted entry back: "Undo" in the notice, else "Restore".
    private func restoreForm(_ entry: SpendingEntry, _ context: PageContext, undo: Bool) -> HTML {
        let (title, _) = describe(entry)
        let amount = Layout.money(entry.amount)
        let (label, aria) = undo ? (t("Undo"), t("Undo \(title), \(amount)")) : (t("Restore"), t("Restore \(title), \(amount)"))
        return """
        <form method="post" action="\(SitePath.restoreLedgerEntry.link(ledger, entry.id))" data-swap>
        \(Layout.csrfField(context))<button type="submit" aria-label="\(aria)">\(label)</button>
        </form>
        """
    }

    func undoNotice(_ context: PageContext) -> HTML? {
        guard let entry = justDeleted, entry.deletedAt != nil else { return nil }
        return """
        <div class="message notice undo" role="status"><span>\(t("Deleted \(describe(entry).title), \(Layout.money(entry.amount))."))</span>
        \(restoreForm(entry, context, undo: true))</div>
        """
    }

    func recentlyDeleted(_ context: PageContext) -> HTML {
        guard !overview.deleted.isEmpty else { return "" }
        let items = overview.deleted.map { entry -> HTML in
            """
            <li><time datetime="\(entry.date)">\(Written.current.day(entry.date, today: today))</time><span class="what">\(describe(entry).title)</span>
            <span class="amount">\(Layout.money(entry.amount))</span>\(restoreForm(entry, context, undo: false))</li>
            """
        }
        return """
        <details class="deleted">
        <summary>\(t("Recently deleted (\(overview.deletedCount))"))</summary>
        <ul class="entries">\(items)</ul>
        </details>
        """
    }

    /// The page a delete without JavaScript asks for confirmation on.
    static func confirmDelete(_ context: PageContext, ledger: LedgerDetails, entry: SpendingEntry) -> HTML {
        let question = entry.description.map { t("Delete \($0)?") }
            ?? (entry.kind == .payment ? t("Delete this payment?") : t("Delete this expense?"))
        return Layout.page(t("Delete?"), context, spending: true, """
        <h1>\(question)</h1>
        <p>\(t("\(Layout.money(entry.amount)) on \(Written.current.longDay(entry.date)). It leaves the balance at once; you can restore it afterwards."))</p>
        <form method="post" action="\(SitePath.deleteLedgerEntry.link(ledger.ledger.id, entry.id))" class="row">
        \(Layout.csrfField(context))<input type="hidden" name="confirm" value="yes">
        <button type="submit" class="danger">\(t("Delete"))</button>
        <a href="\(SitePath.ledger.link(ledger.ledger.id))" class="button">\(t("Keep it"))</a>
        </form>
        """)
    }
}
