/// The keys every `[providers.NAME]` table has; each type's own keys are its schema's
/// (`AdapterSchema`, declared beside the provider and passed in from the adapter catalog).
enum ProviderTypes {
    /// Keys every provider accepts, whatever its type: `type`, `base_url` (a mirror, a proxy
    /// or a test server), `interval` (a duration), `api_key` (a secret), `fallback` (names
    /// of providers to use while this one fails) and `requests_per_minute` (a rate limit
    /// overriding the service's documented one).
    static let commonKeys = ["type", "base_url", "interval", "api_key", "fallback", "requests_per_minute"]
}
