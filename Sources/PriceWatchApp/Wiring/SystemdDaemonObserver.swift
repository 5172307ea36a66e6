import PriceWatchServices
import PriceWatchSystemd

/// systemd's observer (`sd_notify`, the watchdog) is the daemon's.
extension SystemdObserver: DaemonObserver {}
