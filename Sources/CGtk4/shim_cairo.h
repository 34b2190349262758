// cairo's PDF surface (not included by gtk/gtk.h), for the showcase's drawings offered as PDF.
#ifndef DRAGDROP_CGTK4_SHIM_CAIRO_H
#define DRAGDROP_CGTK4_SHIM_CAIRO_H

#include <cairo.h>
#include <cairo-pdf.h>

#endif
