/// What a fresh read of a symbol's calendar changes in what is stored (pure).
///
/// Events the source lists are kept (a changed estimate replaces the stored one, same id); an
/// upcoming stored event of the same kind and source that the source no longer lists, while
/// it lists another date of that kind, **moved**: the new event carries `movedFrom`, and the
/// old one is dropped. Past events are left alone; so is an upcoming event the source simply
/// stopped listing without a replacement (it may come back; it fires on its date if it does).
/// An event another source listed under the same id keeps what that source knew and this one
/// does not (``CompanyEvent/filling(from:)``: Nasdaq's dividend amount when Yahoo lists the day).
public enum CalendarReconciliation {
    /// The events to store (insert or replace) and the ids to drop.
    public static func reconcile(stored: [CompanyEvent], fetched: [CompanyEvent], today: CivilDate)
        -> (store: [CompanyEvent], drop: [String]) {
        var toStore: [CompanyEvent] = []
        var drop: [String] = []
        let fetchedIDs = Set(fetched.map(\.id))
        for var event in fetched {
            if let same = stored.first(where: { $0.id == event.id }) {
                if same.source != event.source { event = event.filling(from: same) }
                event.movedFrom = same.movedFrom
            } else if let old = stored.first(where: { old in
                old.symbol == event.symbol && old.kind == event.kind && old.source == event.source
                    && old.date >= today && !fetchedIDs.contains(old.id)
            }) {
                event.movedFrom = old.date
                drop.append(old.id)
            }
            toStore.append(event)
        }
        return (toStore, drop)
    }
}
