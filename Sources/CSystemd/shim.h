// libsystemd's journal and notify calls. sd_journal_sendv and sd_notify take no varargs, so
// they are called directly; this header only gathers what the service glue uses.
#ifndef PRICEWATCH_CSYSTEMD_SHIM_H
#define PRICEWATCH_CSYSTEMD_SHIM_H

#include <sys/uio.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

#endif
