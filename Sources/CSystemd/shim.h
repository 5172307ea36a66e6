// libsystemd's journal, notify and bus calls. sd_journal_sendv and sd_notify take no varargs,
// so they are called directly; sd-bus's varargs calls have typed shims below.
#ifndef PRICEWATCH_CSYSTEMD_SHIM_H
#define PRICEWATCH_CSYSTEMD_SHIM_H

#include <sys/uio.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <systemd/sd-bus.h>

// sd-bus's message calls take varargs, which Swift cannot call: these typed shims build and
// read the one method pricewatch speaks, the freedesktop Notifications service's Notify.

/// Connects to the bus at `address` (`unix:path=…`), or to the user's session bus when it is
/// NULL; 0 or a negative errno.
static inline int pw_bus_open(sd_bus **bus, const char *address) {
    if (address == NULL) return sd_bus_open_user(bus);
    int r = sd_bus_new(bus);
    if (r < 0) return r;
    if ((r = sd_bus_set_address(*bus, address)) < 0 || (r = sd_bus_set_bus_client(*bus, 1)) < 0
        || (r = sd_bus_start(*bus)) < 0) {
        *bus = sd_bus_flush_close_unref(*bus);
        return r;
    }
    return 0;
}

/// `org.freedesktop.Notifications.Notify(app_name, 0, "", summary, body, [], {"urgency": byte,
/// "category": category}, expire_timeout)`, waiting up to `timeout_usec`; the notification's id
/// in `id`. On failure a negative errno, with the bus error's name and message in `error`.
static inline int pw_notify(sd_bus *bus, const char *app, const char *summary, const char *body, uint8_t urgency,
                            const char *category, int32_t expire_timeout, uint64_t timeout_usec, uint32_t *id,
                            char *error, size_t error_size) {
    sd_bus_message *call = NULL, *reply = NULL;
    sd_bus_error bus_error = SD_BUS_ERROR_NULL;
    int r = sd_bus_message_new_method_call(bus, &call, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                           "org.freedesktop.Notifications", "Notify");
    if (r >= 0) r = sd_bus_message_append(call, "susss", app, (uint32_t)0, "", summary, body);
    if (r >= 0) r = sd_bus_message_append(call, "as", 0);
    if (r >= 0) r = sd_bus_message_append(call, "a{sv}", 2, "urgency", "y", urgency, "category", "s", category);
    if (r >= 0) r = sd_bus_message_append(call, "i", expire_timeout);
    if (r >= 0) r = sd_bus_call(bus, call, timeout_usec, &bus_error, &reply);
    if (r >= 0) r = sd_bus_message_read(reply, "u", id);
    if (r < 0 && error != NULL && error_size > 0) {
        snprintf(error, error_size, "%s%s%s", bus_error.name ? bus_error.name : strerror(-r),
                 bus_error.message ? ": " : "", bus_error.message ? bus_error.message : "");
    }
    sd_bus_error_free(&bus_error);
    sd_bus_message_unref(reply);
    sd_bus_message_unref(call);
    return r;
}

/// The arguments of a Notify call as a notification server reads them (the tests' server):
/// the strings stay valid while `call` is referenced; `urgency` is 255 when the hint is absent.
static inline int pw_notify_read(sd_bus_message *call, const char **app, const char **summary, const char **body,
                                 uint8_t *urgency, int32_t *expire_timeout) {
    uint32_t replaces = 0;
    const char *icon = NULL;
    *urgency = 255;
    int r = sd_bus_message_read(call, "susss", app, &replaces, &icon, summary, body);
    if (r >= 0) r = sd_bus_message_skip(call, "as");
    if (r >= 0) r = sd_bus_message_enter_container(call, 'a', "{sv}");
    while (r >= 0) {
        r = sd_bus_message_enter_container(call, 'e', "sv");
        if (r <= 0) break;
        const char *key = NULL;
        r = sd_bus_message_read(call, "s", &key);
        if (r >= 0 && key != NULL && strcmp(key, "urgency") == 0) r = sd_bus_message_read(call, "v", "y", urgency);
        else if (r >= 0) r = sd_bus_message_skip(call, "v");
        if (r >= 0) r = sd_bus_message_exit_container(call);
    }
    if (r >= 0) r = sd_bus_message_exit_container(call);
    if (r >= 0) r = sd_bus_message_read(call, "i", expire_timeout);
    return r;
}

/// Answers a method call with one `u` (Notify's id).
static inline int pw_bus_reply_uint32(sd_bus_message *call, uint32_t value) {
    return sd_bus_reply_method_return(call, "u", value);
}

#endif
