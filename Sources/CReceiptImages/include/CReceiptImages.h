#ifndef TALLY_RECEIPT_IMAGES_H
#define TALLY_RECEIPT_IMAGES_H

#include <stddef.h>

/// A photo made safe to keep: decoded and written again with none of its metadata, upright,
/// at most `long_side` pixels on its longer side, and a small JPEG of it for lists. The bytes
/// belong to the caller, who gives them back with `tally_receipt_image_free`.
typedef struct {
    void *image;
    size_t image_length;
    /// 1 when `image` is a PNG (a PNG came in), 0 when it is a JPEG.
    int is_png;
    void *thumbnail;
    size_t thumbnail_length;
    int width;
    int height;
} tally_receipt_image;

enum {
    TALLY_IMAGE_DONE = 0,
    /// libvips is not installed on this machine.
    TALLY_IMAGE_NO_LIBRARY = -1,
    /// The bytes are not an image of the allowed formats that can be read.
    TALLY_IMAGE_UNREADABLE = -2,
    /// The image has more pixels than `max_pixels`.
    TALLY_IMAGE_TOO_LARGE = -3,
    /// The image is saved so that it must be decoded whole (interlaced PNG, progressive JPEG,
    /// HEIF), and that would take more than `max_whole_bytes` of memory.
    TALLY_IMAGE_TOO_LARGE_WHOLE = -4,
};

/// Cleans the JPEG, PNG, WebP or HEIC image in `bytes` (no other loader is allowed). On an
/// error, `message` holds libvips' words for the log.
int tally_receipt_image_clean(const void *bytes, size_t length, int long_side, int thumbnail_side, long long max_pixels,
                              long long max_whole_bytes, tally_receipt_image *out, char *message, size_t capacity);

void tally_receipt_image_free(tally_receipt_image *image);

#endif
