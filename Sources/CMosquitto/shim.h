// libmosquitto, the MQTT client library (apt libmosquitto-dev). Its calls take no varargs, so
// they are called directly; this header gathers them and names the callback types the MQTT
// sink installs, so Swift closures match them exactly.
#ifndef PRICEWATCH_CMOSQUITTO_SHIM_H
#define PRICEWATCH_CMOSQUITTO_SHIM_H

#include <mosquitto.h>

/// mosquitto_connect_callback_set and mosquitto_disconnect_callback_set: (client, user data, rc).
typedef void (*pricewatch_mosquitto_status_callback)(struct mosquitto *client, void *userdata, int rc);
/// mosquitto_publish_callback_set: (client, user data, message id), called on PUBACK for QoS 1.
typedef void (*pricewatch_mosquitto_publish_callback)(struct mosquitto *client, void *userdata, int mid);
/// mosquitto_message_callback_set: (client, user data, message), the message owned by the library.
typedef void (*pricewatch_mosquitto_message_callback)(struct mosquitto *client, void *userdata,
                                                      const struct mosquitto_message *message);

#endif
