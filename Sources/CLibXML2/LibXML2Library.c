// Every libxml2 function pricewatch calls, defined here with libxml2's own prototype and
// forwarded to libxml2.so.2, which is opened with dlopen the first time a news feed is read.
// The compiler checks each definition against libxml2's headers, and each pointer has the type
// of the function it stands for, so a signature cannot drift. Modelled on CCairo.

#include "CLibXML2.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define PRICEWATCH_LIBXML2_LIBRARY "libxml2.so.2"

// X(return type, name, parameters, arguments) for functions with a result; V(...) for void.
// What RSSFeedReader needs: a push parser fed the whole document at once, stopped from a
// callback, and freed, with the document libxml2 makes by itself to hold a DTD's entities
// ("for expat compatibility in SAX mode") when there is one.
#define PRICEWATCH_LIBXML2_FUNCTIONS(X, V)                                                              \
    X(xmlParserCtxtPtr, xmlCreatePushParserCtxt,                                                        \
      (xmlSAXHandlerPtr sax, void *user_data, const char *chunk, int size, const char *filename),      \
      (sax, user_data, chunk, size, filename))                                                          \
    X(int, xmlCtxtUseOptions, (xmlParserCtxtPtr ctxt, int options), (ctxt, options))                    \
    X(int, xmlParseChunk, (xmlParserCtxtPtr ctxt, const char *chunk, int size, int terminate),         \
      (ctxt, chunk, size, terminate))                                                                   \
    V(xmlStopParser, (xmlParserCtxtPtr ctxt), (ctxt))                                                   \
    V(xmlFreeParserCtxt, (xmlParserCtxtPtr ctxt), (ctxt))                                               \
    V(xmlFreeDoc, (xmlDocPtr cur), (cur))

// One pointer per function, typed as the function itself.
#define POINTER(type, name, parameters, arguments) static __typeof__(&name) loaded_##name;
#define VOID_POINTER(name, parameters, arguments) static __typeof__(&name) loaded_##name;
PRICEWATCH_LIBXML2_FUNCTIONS(POINTER, VOID_POINTER)
// Called once after loading, never forwarded: libxml2 asks for it before threads parse.
static __typeof__(&xmlInitParser) loaded_xmlInitParser;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_failure[512];
static int loaded;

// Opens `library` and finds every function in it: with `keep`, the library stays open and the
// pointers are set; without, it is closed again. Returns 1, or writes what is missing into
// `failure` and returns 0.
static int open_libxml2(const char *library, int keep, char *failure, size_t size) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(failure, size, "cannot load %s: %s", library, reason ? reason : "unknown error");
        return 0;
    }
#define RESOLVE(name)                                                                        \
    do {                                                                                     \
        void *symbol = dlsym(handle, #name);                                                 \
        if (symbol == NULL) {                                                                \
            snprintf(failure, size, "%s has no function %s", library, #name);                \
            dlclose(handle);                                                                 \
            return 0;                                                                        \
        }                                                                                    \
        if (keep) loaded_##name = (__typeof__(loaded_##name))symbol;                          \
    } while (0);
#define RESOLVE_VALUE(type, name, parameters, arguments) RESOLVE(name)
#define RESOLVE_VOID(name, parameters, arguments) RESOLVE(name)
    PRICEWATCH_LIBXML2_FUNCTIONS(RESOLVE_VALUE, RESOLVE_VOID)
    RESOLVE(xmlInitParser)
    if (!keep) dlclose(handle);
    return 1;
}

static void load_libxml2(void) {
    loaded = open_libxml2(PRICEWATCH_LIBXML2_LIBRARY, 1, load_failure, sizeof load_failure);
    if (loaded) loaded_xmlInitParser();
}

const char *pricewatch_libxml2_load(void) {
    pthread_once(&load_once, load_libxml2);
    return loaded ? NULL : load_failure;
}

const char *pricewatch_libxml2_probe(const char *library) {
    static _Thread_local char failure[512];
    return open_libxml2(library, 0, failure, sizeof failure) ? NULL : failure;
}

// Reached only when a libxml2 function is called although pricewatch_libxml2_load failed.
_Noreturn static void libxml2_unavailable(const char *name) {
    fprintf(stderr, "pricewatch: cannot call %s: %s\n", name, load_failure);
    abort();
}

#define FORWARD(type, name, parameters, arguments)                            \
    type name parameters {                                                    \
        if (pricewatch_libxml2_load() != NULL) libxml2_unavailable(#name);    \
        return loaded_##name arguments;                                       \
    }
#define FORWARD_VOID(name, parameters, arguments)                             \
    void name parameters {                                                    \
        if (pricewatch_libxml2_load() != NULL) libxml2_unavailable(#name);    \
        loaded_##name arguments;                                              \
    }
PRICEWATCH_LIBXML2_FUNCTIONS(FORWARD, FORWARD_VOID)
