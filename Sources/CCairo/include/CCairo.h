// cairo's image (PNG) and SVG surfaces and its toy text API (apt libcairo2-dev for the headers),
// with libcairo.so.2 loaded on first use: a process that never draws a chart never maps cairo
// and the X11, font and image libraries it brings.
#ifndef PRICEWATCH_CCAIRO_H
#define PRICEWATCH_CCAIRO_H

#include <cairo/cairo.h>
#include <cairo/cairo-svg.h>

/// Loads libcairo.so.2 and every cairo function pricewatch calls, once per process and
/// thread-safe. Returns NULL when cairo is ready; otherwise a description of what is missing
/// (the dynamic loader's message, or the name of a function the library lacks), the same on
/// every call. Call it before any cairo function: those are forwarders that abort the process
/// if cairo could not be loaded.
const char *pricewatch_cairo_load(void);

/// Tries to open `library` and find every cairo function pricewatch calls in it, without
/// keeping it: NULL when all are there, otherwise a description of the first thing missing,
/// valid until the next call from the same thread. For tests of the error path.
const char *pricewatch_cairo_probe(const char *library);

#endif
