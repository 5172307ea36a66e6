// libxml2's push parser with SAX2 callbacks (apt libxml2-dev for the headers), with
// libxml2.so.2 loaded on first use: a process that never reads a news feed never maps libxml2.
// `include/libxml` is a link to the system's headers (see module.modulemap).
#ifndef PRICEWATCH_CLIBXML2_H
#define PRICEWATCH_CLIBXML2_H

#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, and its encoding.h then includes the system's ICU
// headers for two members of xmlCharEncodingHandler, a struct pricewatch only ever holds
// pointers to (never its members). Those headers clash with the ICU copy Foundation's modules
// bring into the same Swift modules (two definitions of UErrorCode), so they are left out;
// no function pricewatch calls takes or returns anything of ICU.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlerror.h>

/// Loads libxml2.so.2 and every libxml2 function pricewatch calls, and initialises the parser
/// (xmlInitParser), once per process and thread-safe. Returns NULL when libxml2 is ready;
/// otherwise a description of what is missing (the dynamic loader's message, or the name of a
/// function the library lacks), the same on every call. Call it before any libxml2 function:
/// those are forwarders that abort the process if libxml2 could not be loaded.
const char *pricewatch_libxml2_load(void);

/// Tries to open `library` and find every libxml2 function pricewatch calls in it, without
/// keeping it: NULL when all are there, otherwise a description of the first thing missing,
/// valid until the next call from the same thread. For tests of the error path.
const char *pricewatch_libxml2_probe(const char *library);

#endif
