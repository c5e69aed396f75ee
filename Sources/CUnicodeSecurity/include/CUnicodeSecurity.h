#ifndef TALLY_C_UNICODE_SECURITY_H
#define TALLY_C_UNICODE_SECURITY_H

#include <stdint.h>

/// Writes the confusable skeleton (Unicode Technical Standard #39) of `text`, `length` UTF-16
/// units, into `skeleton`, which holds `capacity` units. Returns the skeleton's length (more
/// than `capacity`: call again with that much room), or -1 when the system's Unicode library
/// cannot make one.
int32_t tally_confusable_skeleton(const uint16_t *text, int32_t length, uint16_t *skeleton, int32_t capacity);

#endif
