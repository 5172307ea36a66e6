import PriceWatchCore
import PriceWatchSinks
import Testing

/// The services with a published rate limit have it as their sink type's default
/// `rate_limit`, which the outbox keeps; the others have none.
@Suite struct SinkRateLimitDefaultsTests {
    @Test func servicesWithAPublishedLimitHaveItAsTheirDefault() {
        #expect(TelegramSink.schema.defaultRateLimit?.description == "20/min")
        #expect(MatrixSink.schema.defaultRateLimit?.description == "10/min")
        for schema in [WebhookSink.schema, PushoverSink.schema, GotifySink.schema, MQTTSink.schema] {
            #expect(schema.defaultRateLimit == nil, "\(schema.type)")
        }
    }
}
