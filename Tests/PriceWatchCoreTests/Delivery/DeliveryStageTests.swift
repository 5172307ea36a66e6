import PriceWatchCore
import PriceWatchTestKit
import Testing

/// Each stage of the outbox's pipeline on its own, as tables: a pass in, the actions,
/// candidates, wake-up and slot wait out. No store, no clock.
@Suite struct DeliveryStageTests {
    static let now = Timestamp(seconds: 10_000)
    /// 00:00 to 07:00 UTC: `now` (02:46:40) is inside it, its release at 07:00.
    static let quiet: QuietHours = {
        guard let quiet = try? QuietHours(parsing: "00:00-07:00", timeZone: CalendarSchedule.utc) else { preconditionFailure("bad test window") }
        return quiet
    }()
    static let release = Timestamp(seconds: 7 * 3600)

    static func alert(_ id: String, rule: String = "r", symbol: String = "AAPL", queued: Int64 = 9_000, due: Int64? = nil,
                      heldUntil: Int64? = nil) -> Delivery {
        let alert = Alert(id: id, rule: rule, symbol: symbol, provider: nil, condition: "above 1", price: dec("2"),
                          currency: nil, time: Timestamp(seconds: queued), base: nil, change: nil, direction: nil, message: "m")
        return Delivery(notification: OutgoingNotification(alert), sink: "hook", status: .pending, attempts: 0,
                        createdAt: Timestamp(seconds: queued), nextAttemptAt: Timestamp(seconds: due ?? queued),
                        heldUntil: heldUntil.map { Timestamp(seconds: $0) })
    }

    static func test(_ id: String) -> Delivery {
        let alert = Self.alert(id, symbol: "MSFT").notification.alert
        let notification = OutgoingNotification(id: id, kind: .test, time: Timestamp(seconds: 9_000), content: alert.map { .alert($0) }
                                                ?? .message(NotificationMessage(title: "test", text: "test")))
        return Delivery(notification: notification, sink: "hook", status: .pending, attempts: 0, createdAt: Timestamp(seconds: 9_000),
                        nextAttemptAt: Timestamp(seconds: 9_000))
    }

    static func pass(_ candidates: [Delivery], settings: SinkDeliverySettings = SinkDeliverySettings(), freeSlots: Int = 4,
                     silences: [Silence] = [], urgent: Set<String> = [], recentStarts: [Int64] = [], now: Timestamp = now) -> SinkPass {
        SinkPass(sink: "hook", now: now, settings: settings, maximumGroupSize: 3, silences: SilenceSet(silences), urgentRules: urgent,
                 recentStarts: recentStarts.map { Timestamp(seconds: $0) }, candidates: candidates, freeSlots: freeSlots)
    }

    /// The actions as short words: `attempt a,b`, `release a,b`, `silence a by s-1`, `hold a,b until 25200`.
    static func words(_ pass: SinkPass) -> [String] {
        pass.actions.map { action in
            switch action {
            case .attempt(let batch, let released):
                return "\(released ? "release" : "attempt") \(batch.map(\.notification.id).joined(separator: ","))"
            case .silence(let delivery, let silence):
                return "silence \(delivery.notification.id) by \(silence.id)"
            case .hold(let batch, let until, _):
                return "hold \(batch.map(\.notification.id).joined(separator: ",")) until \(until.seconds)"
            }
        }
    }

    static func ids(_ deliveries: [Delivery]) -> [String] { deliveries.map(\.notification.id) }

    // MARK: Silences

    @Test func silenceStageRecordsTheAlertsASilenceCoversAndKeepsTheRest() {
        let bySymbol = Silence(id: "s-msft", target: .symbol("MSFT"), startsAt: Timestamp(seconds: 0), endsAt: Timestamp(seconds: 20_000),
                               createdAt: Timestamp(seconds: 0))
        let ended = Silence(id: "s-old", target: .rule("r"), startsAt: Timestamp(seconds: 0), endsAt: Timestamp(seconds: 9_999),
                            createdAt: Timestamp(seconds: 0))
        let cases: [(silences: [Silence], out: [String], left: [String])] = [
            ([], [], ["a", "m", "t"]),
            ([bySymbol], ["silence m by s-msft"], ["a", "t"]),
            ([ended], [], ["a", "m", "t"]),
            ([bySymbol, ended], ["silence m by s-msft"], ["a", "t"]),
        ]
        for (silences, out, left) in cases {
            var pass = Self.pass([Self.alert("a"), Self.alert("m", symbol: "MSFT"), Self.test("t")], silences: silences)
            SilenceStage().apply(to: &pass)
            #expect(Self.words(pass) == out, "\(silences.map(\.id))")
            #expect(Self.ids(pass.candidates) == left, "a test message is never silenced")
            #expect(pass.freeSlots == 4)
        }
    }

    // MARK: Quiet hours

    @Test func quietHoursStageHoldsAllButUrgentAlertsAndTestsDuringTheWindow() {
        let cases: [(now: Int64, quiet: Bool, out: [String], left: [String])] = [
            (10_000, true, ["hold a,b until 25200"], ["u", "t"]),
            (30_000, true, [], ["a", "u", "b", "t"]),     // 08:20, after the window
            (10_000, false, [], ["a", "u", "b", "t"]),    // no quiet hours
        ]
        for (now, quiet, out, left) in cases {
            var pass = Self.pass([Self.alert("a"), Self.alert("u", rule: "urgent-rule"), Self.alert("b"), Self.test("t")],
                                 settings: SinkDeliverySettings(quietHours: quiet ? Self.quiet : nil), urgent: ["urgent-rule"],
                                 now: Timestamp(seconds: now))
            QuietHoursStage().apply(to: &pass)
            #expect(Self.words(pass) == out, "at \(now)")
            #expect(Self.ids(pass.candidates) == left, "at \(now)")
        }
    }

    @Test func quietReleaseStageSendsWhatTheWindowHeldAsGroupsWhileThereIsRoom() {
        // Held until 25,200 (07:00) and due exactly then: released together, groups of three.
        let held = (1...5).map { Self.alert("h\($0)", queued: 9_000 + Int64($0), due: 25_200, heldUntil: 25_200) }
        let lone = Self.alert("lone", due: 25_200, heldUntil: 1_000)
        let cases: [(slots: Int, recent: [Int64], rate: DeliveryRateLimit?, out: [String], waits: Bool)] = [
            (4, [], nil, ["release h1,h2,h3", "release h4,h5"], false),
            (1, [], nil, ["release h1,h2,h3"], true),
            (0, [], nil, [], true),
            (4, [25_190], DeliveryRateLimit(attempts: 2, windowMilliseconds: 60_000), ["release h1,h2,h3"], false),
        ]
        for (slots, recent, rate, out, waits) in cases {
            var pass = Self.pass(held + [lone, Self.test("t")], settings: SinkDeliverySettings(quietHours: Self.quiet, rateLimit: rate),
                                 freeSlots: slots, recentStarts: recent, now: Timestamp(seconds: 25_200))
            RateLimitStage().apply(to: &pass)
            QuietReleaseStage().apply(to: &pass)
            #expect(Self.words(pass) == out, "\(slots) slots")
            #expect(Self.ids(pass.candidates) == ["lone", "t"], "a lone release and other kinds go the normal way")
            #expect(pass.waitsForSlot == waits, "\(slots) slots")
        }
    }

    // MARK: Rate limit

    @Test func rateLimitStageBoundsTheAttemptsAndWakesWhenTheWindowMoves() {
        let rate = DeliveryRateLimit(attempts: 3, windowMilliseconds: 60_000)
        let cases: [(recent: [Int64], candidates: Int, allowance: Int, wake: Int64?)] = [
            ([], 2, 3, nil),                         // room for both
            ([], 5, 3, 10_060),                      // three now, the rest a minute later
            ([9_950, 9_990], 2, 1, 10_010),           // one now; 9,950 leaves at 10,010
            ([9_950, 9_970, 9_990], 1, 0, 10_010),    // full
            ([9_900, 9_930], 3, 3, nil),              // both older than the window: room for all
            ([9_950], 0, Int.max, nil),               // nothing due: nothing to bound
        ]
        for (recent, count, allowance, wake) in cases {
            var pass = Self.pass((0..<count).map { Self.alert("a\($0)") }, settings: SinkDeliverySettings(rateLimit: rate), recentStarts: recent)
            RateLimitStage().apply(to: &pass)
            #expect(pass.allowance == allowance, "\(recent), \(count) due")
            #expect(pass.wakeAt == wake.map { Timestamp(seconds: $0) }, "\(recent), \(count) due")
            #expect(pass.actions.isEmpty)
        }
        var unlimited = Self.pass([Self.alert("a")], recentStarts: [9_999, 9_999, 9_999])
        RateLimitStage().apply(to: &unlimited)
        #expect(unlimited.allowance == Int.max, "no rate_limit, no bound")
    }

    // MARK: Grouping

    @Test func groupingStageStartsWithinTheSlotsAndTheAllowance() {
        let due = [Self.alert("a", queued: 9_000), Self.alert("b", queued: 9_001), Self.alert("c", queued: 9_002)]
        let cases: [(groupWait: Int64?, slots: Int, allowance: Int, out: [String], wake: Int64?, waits: Bool)] = [
            (nil, 4, .max, ["attempt a", "attempt b", "attempt c"], nil, false),
            (nil, 2, .max, ["attempt a", "attempt b"], nil, true),
            (nil, 4, 1, ["attempt a"], nil, false),           // the rate stage asked for the wake-up
            (60_000, 4, .max, ["attempt a,b,c"], nil, false),  // closed at 9,060
            (2_000_000, 4, .max, [], 11_000, false),          // open until 11,000
            (60_000, 0, .max, [], nil, true),
        ]
        for (groupWait, slots, allowance, out, wake, waits) in cases {
            var pass = Self.pass(due, settings: SinkDeliverySettings(groupWait: groupWait), freeSlots: slots)
            pass.allowance = allowance
            GroupingStage().apply(to: &pass)
            #expect(Self.words(pass) == out, "group_wait \(String(describing: groupWait)), \(slots) slots, allowance \(allowance)")
            #expect(pass.wakeAt == wake.map { Timestamp(seconds: $0) })
            #expect(pass.waitsForSlot == waits)
            #expect(pass.candidates.isEmpty, "grouping decides or leaves everything")
        }
    }

    // MARK: The standard order

    /// A silenced alert is never held; held ones do not use the rate limit; the release goes
    /// before the normal plan.
    @Test func theStandardPipelineRunsTheStagesInOrder() {
        let silence = Silence(id: "s-1", target: .rule("muted"), startsAt: Timestamp(seconds: 0), endsAt: Timestamp(seconds: 90_000),
                              createdAt: Timestamp(seconds: 0))
        let during = DeliveryPipeline.standard.run(Self.pass(
            [Self.alert("m", rule: "muted"), Self.alert("a"), Self.alert("u", rule: "now"), Self.test("t")],
            settings: SinkDeliverySettings(quietHours: Self.quiet, rateLimit: DeliveryRateLimit(attempts: 1, windowMilliseconds: 60_000)),
            silences: [silence], urgent: ["now"]))
        #expect(Self.words(during) == ["silence m by s-1", "hold a until 25200", "attempt u"])
        #expect(during.wakeAt == Timestamp(seconds: 10_060), "t waits for the rate window")
        #expect(!during.waitsForSlot)

        let held = (1...2).map { Self.alert("h\($0)", due: 25_200, heldUntil: 25_200) }
        let after = DeliveryPipeline.standard.run(Self.pass(held + [Self.test("t")], settings: SinkDeliverySettings(quietHours: Self.quiet),
                                                            now: Timestamp(seconds: 25_200)))
        #expect(Self.words(after) == ["release h1,h2", "attempt t"])
        #expect(after.freeSlots == 2)
    }
}
