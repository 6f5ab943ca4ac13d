/* Line layout of generated files (layout.c): lines of at most a given width. */
#ifndef IMCL_LAYOUT_H
#define IMCL_LAYOUT_H

#include "support.h"

/* Breaks every line of `text` longer than `width` columns, where it can, at a
 * space: first after a comma, then before && or ||, then before ? or :, then at
 * another binary operator, outermost brackets first and as far right as fits;
 * continuation lines of code are indented two levels (8 columns) deeper. Comment
 * text is rewrapped at spaces (a block comment continues with " * "); a string
 * literal is split into two adjacent literals only when nothing else fits.
 * Preprocessor lines and lines with no space to break at are left as they are.
 * Lines within the width are never touched, so wrapping twice changes nothing. */
void layout_wrap(StrBuf *text, int width);

/* The width of every generated file; OpenCL kernel text, embedded in the host
 * wrapper as string literals 8 columns wider, is wrapped at LAYOUT_WIDTH - 8. */
#define LAYOUT_WIDTH 100

#endif
