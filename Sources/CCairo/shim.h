// cairo's image (PNG) and SVG surfaces and its toy text API (apt libcairo2-dev).
#ifndef PRICEWATCH_CCAIRO_SHIM_H
#define PRICEWATCH_CCAIRO_SHIM_H

#include <cairo.h>
#include <cairo-svg.h>

#endif
