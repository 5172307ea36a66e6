import PriceWatchCore
import PriceWatchTestKit
import Testing

/// When deliveries go out, alone or grouped (`group_wait`): the pure decision, with time moved
/// by hand.
@Suite struct DeliveryBatchPlannerTests {
    static let alert = Alert(id: "x", rule: "r", symbol: "AAPL", provider: nil, condition: "above 1", price: dec("2"),
                             currency: nil, time: at(0), base: nil, change: nil, direction: nil, message: "m")

    /// A pending delivery queued at `queued` seconds of `wall`, due at `due` seconds (its
    /// queue time when nil).
    static func delivery(_ id: String, queued: Int64, due: Int64? = nil, attempts: Int = 0) -> Delivery {
        var alert = Self.alert
        alert.id = id
        return Delivery(notification: OutgoingNotification(alert), sink: "hook", status: .pending, attempts: attempts,
                        createdAt: Timestamp(seconds: queued), nextAttemptAt: Timestamp(seconds: due ?? queued))
    }

    static func ids(_ plan: DeliveryBatchPlanner.Plan) -> [[String]] {
        plan.batches.map { $0.map(\.notification.id) }
    }

    /// A headline (kind `news`) queued at `queued` seconds.
    static func headline(_ guid: String, symbol: String = "AAPL", queued: Int64) -> Delivery {
        let content = NewsNotification(headline: NewsHeadline(symbol: symbol, title: "Story \(guid)", link: "https://example.com/\(guid)",
                                                               guid: guid, publishedAt: Timestamp(seconds: queued)),
                                       rule: "news", feed: "yahoo")
        return Delivery(notification: OutgoingNotification(id: guid, time: Timestamp(seconds: queued), content: content), sink: "hook",
                        status: .pending, attempts: 0, createdAt: Timestamp(seconds: queued), nextAttemptAt: Timestamp(seconds: queued))
    }

    /// Issue 28: headlines are grouped like alerts, in groups of their own; other kinds go alone.
    @Test func headlinesAreGroupedApartFromAlerts() throws {
        let planner = DeliveryBatchPlanner(groupWait: 30_000)
        let pending = [Self.headline("n1", queued: 100), Self.delivery("a1", queued: 101), Self.headline("n2", symbol: "NVDA", queued: 110),
                       Self.delivery("a2", queued: 120), Self.headline("n3", queued: 200)]
        let open = planner.plan(pending, now: Timestamp(seconds: 125), freeSlots: 4)
        #expect(open.batches.isEmpty)
        #expect(open.wakeAt == Timestamp(seconds: 130), "the headlines' group closes first")
        let closed = planner.plan(pending, now: Timestamp(seconds: 135), freeSlots: 4)
        #expect(Self.ids(closed) == [["a1", "a2"], ["n1", "n2"]])
        #expect(closed.wakeAt == nil, "n3 is not queued yet")
        let next = planner.plan(Array(pending.suffix(1)), now: Timestamp(seconds: 205), freeSlots: 4)
        #expect(next.batches.isEmpty && next.wakeAt == Timestamp(seconds: 230), "n3 opens the next group of headlines")

        let group = try #require(NewsGroup.notification(of: closed.batches[1].map(\.notification)))
        #expect(group.id == "n1" && group.kind == .news)
        guard case .message(let message) = group.content else {
            Issue.record("expected a message")
            return
        }
        #expect(message.title == "2 headlines: AAPL, NVDA")
        #expect(message.text.contains("Story n1") && message.text.contains("https://example.com/n2"))
        #expect(message.data?.hasPrefix(#"{"headlines":[{"symbol":"AAPL","title":"Story n1""#) == true, "\(message.data ?? "")")
    }

    @Test func withoutGroupingEachDueDeliveryGoesAloneUpToTheFreeSlots() {
        let planner = DeliveryBatchPlanner(groupWait: nil)
        let pending = [Self.delivery("a", queued: 10), Self.delivery("b", queued: 11), Self.delivery("c", queued: 12),
                       Self.delivery("later", queued: 5, due: 100)]
        let plan = planner.plan(pending, now: Timestamp(seconds: 20), freeSlots: 2)
        #expect(Self.ids(plan) == [["a"], ["b"]])
        #expect(plan.waiting == 1, "c waits for a slot; 'later' is not due")
        #expect(plan.wakeAt == nil)
        #expect(planner.plan(pending, now: Timestamp(seconds: 20), freeSlots: 0).batches.isEmpty)
    }

    /// Twenty alerts over ten seconds with a 30 s group_wait: nothing goes out until the group
    /// of the first closes, then all twenty go out as one.
    @Test func alertsWithinTheWaitOfTheFirstGoOutAsOneGroupWhenItCloses() {
        let wall = ManualWallClock(Timestamp(seconds: 1_000))
        let planner = DeliveryBatchPlanner(groupWait: 30_000)
        var pending: [Delivery] = []
        for index in 0..<20 {
            pending.append(Self.delivery("a\(index)", queued: wall.now.seconds))
            let plan = planner.plan(pending, now: wall.now, freeSlots: 4)
            #expect(plan.batches.isEmpty, "the group is still open at \(wall.now.seconds)")
            #expect(plan.wakeAt == Timestamp(seconds: 1_030), "it closes 30 s after the first alert")
            if index.isMultiple(of: 2) { wall.advance(seconds: 1) }
        }
        wall.advance(seconds: 19) // 1_029: one second before the close
        #expect(planner.plan(pending, now: wall.now, freeSlots: 4).batches.isEmpty)
        wall.advance(seconds: 1)
        let plan = planner.plan(pending, now: wall.now, freeSlots: 4)
        #expect(Self.ids(plan) == [(0..<20).map { "a\($0)" }])
        #expect(plan.wakeAt == nil)
        #expect(plan.waiting == 0)
    }

    @Test func anAlertAfterTheCloseOpensTheNextGroup() {
        let planner = DeliveryBatchPlanner(groupWait: 10_000)
        let pending = [Self.delivery("a", queued: 0), Self.delivery("b", queued: 10), Self.delivery("c", queued: 11),
                       Self.delivery("d", queued: 15)]
        let atTwelve = planner.plan(pending, now: Timestamp(seconds: 12), freeSlots: 4)
        #expect(Self.ids(atTwelve) == [["a", "b"]], "the close is inclusive: b was queued exactly at it")
        #expect(atTwelve.wakeAt == Timestamp(seconds: 21), "c opened the next group")
        let late = planner.plan(pending, now: Timestamp(seconds: 40), freeSlots: 4)
        #expect(Self.ids(late) == [["a", "b"], ["c", "d"]])
        let oneSlot = planner.plan(pending, now: Timestamp(seconds: 40), freeSlots: 1)
        #expect(Self.ids(oneSlot) == [["a", "b"]])
        #expect(oneSlot.waiting == 2)
    }

    @Test func aRetriedGroupGoesOutAtOnceWithItsMembers() {
        let planner = DeliveryBatchPlanner(groupWait: 30_000)
        // A group queued at 0..5 failed at 30 and is due again at 31; a new alert came at 31.
        let pending = [Self.delivery("a", queued: 0, due: 31, attempts: 1), Self.delivery("b", queued: 5, due: 31, attempts: 1),
                       Self.delivery("new", queued: 31)]
        let plan = planner.plan(pending, now: Timestamp(seconds: 31), freeSlots: 4)
        #expect(Self.ids(plan) == [["a", "b"]])
        #expect(plan.wakeAt == Timestamp(seconds: 61))
        #expect(planner.plan(pending, now: Timestamp(seconds: 30), freeSlots: 4).batches.isEmpty,
                "not before its retry time")
    }

    @Test func aGroupCarriesAtMostTheMaximumSize() {
        let planner = DeliveryBatchPlanner(groupWait: 1_000, maximumGroupSize: 3)
        let pending = (0..<7).map { Self.delivery("a\($0)", queued: 0) }
        let plan = planner.plan(pending, now: Timestamp(seconds: 5), freeSlots: 4)
        #expect(Self.ids(plan) == [["a0", "a1", "a2"], ["a3", "a4", "a5"], ["a6"]])
    }

    @Test func groupsAreOldestFirstWhateverTheStoreOrder() {
        let planner = DeliveryBatchPlanner(groupWait: 5_000)
        // The store orders by next attempt: a retried old alert comes after newer ones.
        let pending = [Self.delivery("new", queued: 20), Self.delivery("old", queued: 1, due: 22, attempts: 2)]
        let plan = planner.plan(pending, now: Timestamp(seconds: 30), freeSlots: 4)
        #expect(Self.ids(plan) == [["old"], ["new"]])
    }
}

/// Only alerts are grouped: other kinds go alone, at once.
@Suite struct DeliveryBatchPlannerKindTests {
    @Test func otherKindsGoAloneAndAheadOfOpenGroups() {
        func delivery(_ id: String, kind: NotificationKind?) -> Delivery {
            let time = Timestamp(seconds: 100)
            var alert = DeliveryBatchPlannerTests.alert
            alert.id = id
            let notification = kind.map {
                OutgoingNotification(id: id, kind: $0, time: time, content: .message(NotificationMessage(title: id, text: "")))
            } ?? OutgoingNotification(alert)
            return Delivery(notification: notification, sink: "hook", status: .pending, attempts: 0, createdAt: time, nextAttemptAt: time)
        }
        let planner = DeliveryBatchPlanner(groupWait: 60_000)
        let due = [delivery("a1", kind: nil), delivery("d1", kind: .digest), delivery("a2", kind: nil), delivery("r1", kind: .report)]
        let open = planner.plan(due, now: Timestamp(seconds: 110), freeSlots: 4)
        #expect(open.batches.map { $0.map(\.notification.id) } == [["d1"], ["r1"]])
        #expect(open.wakeAt == Timestamp(seconds: 160))
        let closed = planner.plan(due, now: Timestamp(seconds: 160), freeSlots: 2)
        #expect(closed.batches.map { $0.map(\.notification.id) } == [["d1"], ["r1"]])
        #expect(closed.waiting == 2, "the alerts' group waits for a free slot")
        let roomy = planner.plan(due, now: Timestamp(seconds: 160), freeSlots: 3)
        #expect(roomy.batches.map { $0.map(\.notification.id) } == [["d1"], ["r1"], ["a1", "a2"]])
    }
}
