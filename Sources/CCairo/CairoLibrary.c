// Every cairo function pricewatch calls, defined here with cairo's own prototype and forwarded
// to libcairo.so.2, which is opened with dlopen the first time a chart is drawn. The compiler
// checks each definition against cairo.h, and each pointer has the type of the function it
// stands for, so a signature cannot drift.

#include "CCairo.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define PRICEWATCH_CAIRO_LIBRARY "libcairo.so.2"

// X(return type, name, parameters, arguments) for functions with a result; V(...) for void.
// The image accessors at the end are what the tests use to compare rendered pixels.
#define PRICEWATCH_CAIRO_FUNCTIONS(X, V)                                                                   \
    X(cairo_surface_t *, cairo_image_surface_create, (cairo_format_t format, int width, int height),      \
      (format, width, height))                                                                            \
    X(cairo_surface_t *, cairo_svg_surface_create_for_stream,                                             \
      (cairo_write_func_t write, void *closure, double width, double height), (write, closure, width, height)) \
    V(cairo_surface_destroy, (cairo_surface_t *surface), (surface))                                       \
    X(cairo_status_t, cairo_surface_status, (cairo_surface_t *surface), (surface))                        \
    V(cairo_surface_finish, (cairo_surface_t *surface), (surface))                                        \
    X(cairo_status_t, cairo_surface_write_to_png_stream,                                                  \
      (cairo_surface_t *surface, cairo_write_func_t write, void *closure), (surface, write, closure))      \
    X(cairo_t *, cairo_create, (cairo_surface_t *target), (target))                                       \
    X(cairo_status_t, cairo_status, (cairo_t *cr), (cr))                                                  \
    V(cairo_destroy, (cairo_t *cr), (cr))                                                                 \
    X(const char *, cairo_status_to_string, (cairo_status_t status), (status))                            \
    V(cairo_set_line_join, (cairo_t *cr, cairo_line_join_t join), (cr, join))                             \
    V(cairo_set_line_cap, (cairo_t *cr, cairo_line_cap_t cap), (cr, cap))                                 \
    V(cairo_set_line_width, (cairo_t *cr, double width), (cr, width))                                     \
    V(cairo_set_dash, (cairo_t *cr, const double *dashes, int count, double offset),                      \
      (cr, dashes, count, offset))                                                                        \
    V(cairo_set_source_rgb, (cairo_t *cr, double red, double green, double blue), (cr, red, green, blue)) \
    V(cairo_rectangle, (cairo_t *cr, double x, double y, double width, double height),                    \
      (cr, x, y, width, height))                                                                          \
    V(cairo_arc, (cairo_t *cr, double xc, double yc, double radius, double from, double to),              \
      (cr, xc, yc, radius, from, to))                                                                     \
    V(cairo_move_to, (cairo_t *cr, double x, double y), (cr, x, y))                                       \
    V(cairo_line_to, (cairo_t *cr, double x, double y), (cr, x, y))                                       \
    V(cairo_new_path, (cairo_t *cr), (cr))                                                                \
    V(cairo_new_sub_path, (cairo_t *cr), (cr))                                                            \
    V(cairo_fill, (cairo_t *cr), (cr))                                                                    \
    V(cairo_fill_preserve, (cairo_t *cr), (cr))                                                           \
    V(cairo_stroke, (cairo_t *cr), (cr))                                                                  \
    V(cairo_select_font_face,                                                                             \
      (cairo_t *cr, const char *family, cairo_font_slant_t slant, cairo_font_weight_t weight),            \
      (cr, family, slant, weight))                                                                        \
    V(cairo_set_font_size, (cairo_t *cr, double size), (cr, size))                                        \
    V(cairo_text_extents, (cairo_t *cr, const char *utf8, cairo_text_extents_t *extents), (cr, utf8, extents)) \
    V(cairo_show_text, (cairo_t *cr, const char *utf8), (cr, utf8))                                       \
    X(cairo_surface_t *, cairo_image_surface_create_from_png_stream, (cairo_read_func_t read, void *closure), \
      (read, closure))                                                                                    \
    X(unsigned char *, cairo_image_surface_get_data, (cairo_surface_t *surface), (surface))               \
    X(int, cairo_image_surface_get_width, (cairo_surface_t *surface), (surface))                          \
    X(int, cairo_image_surface_get_height, (cairo_surface_t *surface), (surface))                         \
    X(int, cairo_image_surface_get_stride, (cairo_surface_t *surface), (surface))

// One pointer per function, typed as the function itself.
#define POINTER(type, name, parameters, arguments) static __typeof__(&name) loaded_##name;
#define VOID_POINTER(name, parameters, arguments) static __typeof__(&name) loaded_##name;
PRICEWATCH_CAIRO_FUNCTIONS(POINTER, VOID_POINTER)

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_failure[512];
static int loaded;

// Opens `library` and finds every function in it: with `keep`, the library stays open and the
// pointers are set; without, it is closed again. Returns 1, or writes what is missing into
// `failure` and returns 0.
static int open_cairo(const char *library, int keep, char *failure, size_t size) {
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
    PRICEWATCH_CAIRO_FUNCTIONS(RESOLVE_VALUE, RESOLVE_VOID)
    if (!keep) dlclose(handle);
    return 1;
}

static void load_cairo(void) {
    loaded = open_cairo(PRICEWATCH_CAIRO_LIBRARY, 1, load_failure, sizeof load_failure);
}

const char *pricewatch_cairo_load(void) {
    pthread_once(&load_once, load_cairo);
    return loaded ? NULL : load_failure;
}

const char *pricewatch_cairo_probe(const char *library) {
    static _Thread_local char failure[512];
    return open_cairo(library, 0, failure, sizeof failure) ? NULL : failure;
}

// Reached only when a cairo function is called although pricewatch_cairo_load failed.
_Noreturn static void cairo_unavailable(const char *name) {
    fprintf(stderr, "pricewatch: cannot call %s: %s\n", name, load_failure);
    abort();
}

#define FORWARD(type, name, parameters, arguments)                            \
    type name parameters {                                                    \
        if (pricewatch_cairo_load() != NULL) cairo_unavailable(#name);        \
        return loaded_##name arguments;                                       \
    }
#define FORWARD_VOID(name, parameters, arguments)                             \
    void name parameters {                                                    \
        if (pricewatch_cairo_load() != NULL) cairo_unavailable(#name);        \
        loaded_##name arguments;                                              \
    }
PRICEWATCH_CAIRO_FUNCTIONS(FORWARD, FORWARD_VOID)
