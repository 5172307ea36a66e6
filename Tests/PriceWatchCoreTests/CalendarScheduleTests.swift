import PriceWatchCore
import Testing

/// Calendar schedules: the syntax with positioned errors, and due times from tzdata across
/// daylight-saving changes (pure: every "now" is passed in).
@Suite struct CalendarScheduleTests {
    static func time(_ text: String) throws -> Timestamp { try #require(Timestamp(parsing: text), "bad time \(text)") }

    static func dues(_ schedule: String, after start: String, count: Int) throws -> [String] {
        let parsed = try CalendarSchedule(parsing: schedule)
        var instant = try time(start)
        var result: [String] = []
        for _ in 0..<count {
            instant = parsed.nextDue(after: instant)
            result.append(instant.rfc3339)
        }
        return result
    }

    @Test(arguments: [
        ("hourly", "hourly :00 UTC"),
        ("hourly :15 Asia/Kolkata", "hourly :15 Asia/Kolkata"),
        ("daily 08:00 Europe/Berlin", "daily 08:00 Europe/Berlin"),
        ("Daily 8:05", "daily 08:05 UTC"),
        ("weekly mon 07:30 America/New_York", "weekly mon 07:30 America/New_York"),
        ("weekly  Friday\t23:59  UTC", "weekly fri 23:59 UTC"),
    ])
    func parses(_ text: String, _ canonical: String) throws {
        let schedule = try CalendarSchedule(parsing: text)
        #expect(schedule.description == canonical)
        #expect(try CalendarSchedule(parsing: schedule.description) == schedule)
    }

    @Test(arguments: [
        ("", 1, "expected a schedule"),
        ("monthly 08:00", 1, "expected 'hourly', 'daily' or 'weekly', found 'monthly'"),
        ("daily", 6, "expected a time HH:MM after 'daily', found the end"),
        ("daily 8am", 7, "expected a time HH:MM (00:00 to 23:59), found '8am'"),
        ("daily 24:00", 7, "found '24:00'"),
        ("daily 08:60", 7, "found '08:60'"),
        ("weekly xyz 07:30", 8, "expected a day (mon, tue, wed, thu, fri, sat or sun), found 'xyz'"),
        ("weekly mon", 11, "expected a time HH:MM after 'mon', found the end"),
        ("daily 08:00 Europe/Berln", 13, "unknown time zone 'Europe/Berln'"),
        ("daily 08:00 UTC extra", 17, "expected the end of the schedule after the time zone, found 'extra'"),
        ("hourly :75", 8, "expected a minute :MM (:00 to :59), found ':75'"),
    ])
    func refusesWithAColumn(_ text: String, _ column: Int, _ message: String) {
        let error = #expect(throws: ScheduleParseError.self) { try CalendarSchedule(parsing: text) }
        #expect(error?.column == column, "\(String(describing: error))")
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
        #expect(error?.description.hasPrefix("column \(column): ") == true)
    }

    @Test func dailyInAZone() throws {
        #expect(try Self.dues("daily 08:00 Europe/Berlin", after: "2024-06-01T00:00:00Z", count: 2)
            == ["2024-06-01T06:00:00Z", "2024-06-02T06:00:00Z"])
        // Strictly after: a due time is not due again at itself.
        #expect(try Self.dues("daily 08:00 Europe/Berlin", after: "2024-06-01T06:00:00Z", count: 1) == ["2024-06-02T06:00:00Z"])
    }

    @Test func berlinSpringForward() throws {
        // 2025-03-30: 02:00 CET -> 03:00 CEST at 01:00Z. 02:30 does not exist: due at 03:00 CEST.
        #expect(try Self.dues("daily 02:30 Europe/Berlin", after: "2025-03-29T00:00:00Z", count: 3)
            == ["2025-03-29T01:30:00Z", "2025-03-30T01:00:00Z", "2025-03-31T00:30:00Z"])
        // 02:00 itself is skipped too (the clock goes from 01:59:59 to 03:00).
        #expect(try Self.dues("daily 02:00 Europe/Berlin", after: "2025-03-29T12:00:00Z", count: 1) == ["2025-03-30T01:00:00Z"])
        // A time outside the gap is untouched.
        #expect(try Self.dues("daily 03:00 Europe/Berlin", after: "2025-03-29T12:00:00Z", count: 1) == ["2025-03-30T01:00:00Z"])
    }

    @Test func berlinFallBack() throws {
        // 2025-10-26: 03:00 CEST -> 02:00 CET at 01:00Z. 02:30 happens twice: due once, the first time.
        #expect(try Self.dues("daily 02:30 Europe/Berlin", after: "2025-10-25T12:00:00Z", count: 2)
            == ["2025-10-26T00:30:00Z", "2025-10-27T01:30:00Z"])
    }

    @Test func newYorkSpringForwardAndFallBack() throws {
        #expect(try Self.dues("daily 02:30 America/New_York", after: "2025-03-08T12:00:00Z", count: 2)
            == ["2025-03-09T07:00:00Z", "2025-03-10T06:30:00Z"])
        #expect(try Self.dues("daily 01:30 America/New_York", after: "2025-11-01T12:00:00Z", count: 2)
            == ["2025-11-02T05:30:00Z", "2025-11-03T06:30:00Z"])
    }

    @Test func weekly() throws {
        // 2025-03-05 is a Wednesday; Monday 07:30 New York is EST before the 9th, EDT after.
        #expect(try Self.dues("weekly mon 07:30 America/New_York", after: "2025-02-26T00:00:00Z", count: 2)
            == ["2025-03-03T12:30:00Z", "2025-03-10T11:30:00Z"])
        #expect(try Self.dues("weekly sun 00:00 UTC", after: "2025-03-09T00:00:00Z", count: 1) == ["2025-03-16T00:00:00Z"])
    }

    @Test func hourlyRunsEveryElapsedHourAcrossTheChanges() throws {
        let schedule = try CalendarSchedule(parsing: "hourly Europe/Berlin")
        func count(from start: String, to end: String) throws -> Int {
            var instant = try Self.time(start)
            let last = try Self.time(end)
            var runs = 0
            while true {
                instant = schedule.nextDue(after: instant)
                guard instant < last else { return runs }
                runs += 1
            }
        }
        // Local midnight to midnight (the first midnight counted, the second not).
        #expect(try count(from: "2025-10-25T21:59:00Z", to: "2025-10-26T23:00:00Z") == 25, "fall-back day has 25 hours")
        #expect(try count(from: "2025-03-29T22:59:00Z", to: "2025-03-30T22:00:00Z") == 23, "spring-forward day has 23 hours")
        // Half-hour zone: on the hour of local time.
        #expect(try Self.dues("hourly Asia/Kolkata", after: "2025-01-01T00:00:00Z", count: 2) == ["2025-01-01T00:30:00Z", "2025-01-01T01:30:00Z"])
    }

    @Test func lastDue() throws {
        let schedule = try CalendarSchedule(parsing: "daily 08:00 UTC")
        #expect(schedule.lastDue(atOrBefore: try Self.time("2025-06-01T08:00:00Z")) == (try Self.time("2025-06-01T08:00:00Z")))
        #expect(schedule.lastDue(atOrBefore: try Self.time("2025-06-01T07:59:00Z")) == (try Self.time("2025-05-31T08:00:00Z")))
    }

    @Test func catchUpDecisions() throws {
        let schedule = try CalendarSchedule(parsing: "daily 08:00 UTC")
        let hour = RuleDuration(seconds: 3_600)
        let last = JobRun(job: "j", due: try Self.time("2025-06-01T08:00:00Z"), outcome: .succeeded)
        #expect(JobCatchUp.decide(schedule: schedule, last: nil, grace: hour, now: try Self.time("2025-06-02T09:00:00Z"))
            == .wait(resumeAfter: try Self.time("2025-06-02T09:00:00Z")))
        #expect(JobCatchUp.decide(schedule: schedule, last: last, grace: hour, now: try Self.time("2025-06-02T07:00:00Z"))
            == .wait(resumeAfter: last.due))
        #expect(JobCatchUp.decide(schedule: schedule, last: last, grace: hour, now: try Self.time("2025-06-02T09:00:00Z"))
            == .runNow(due: try Self.time("2025-06-02T08:00:00Z")))
        #expect(JobCatchUp.decide(schedule: schedule, last: last, grace: hour, now: try Self.time("2025-06-02T09:00:01Z"))
            == .skip(due: try Self.time("2025-06-02T08:00:00Z")))
        #expect(JobCatchUp.decide(schedule: schedule, last: last, grace: nil, now: try Self.time("2025-06-02T08:00:01Z"))
            == .skip(due: try Self.time("2025-06-02T08:00:00Z")))
        // Many days down: the latest due time only.
        #expect(JobCatchUp.decide(schedule: schedule, last: last, grace: hour, now: try Self.time("2025-06-20T08:30:00Z"))
            == .runNow(due: try Self.time("2025-06-20T08:00:00Z")))
    }
}
