import PriceWatchSystemd

/// Where `pricewatch run` logs (`--log-target`): the journal, standard error, or the journal
/// when standard error is the journal. The systemd adapter's type, offered by the application
/// so the command line needs no adapter.
public typealias LogTarget = PriceWatchSystemd.LogTarget
