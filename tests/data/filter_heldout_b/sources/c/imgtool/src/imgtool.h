#ifndef IMGTOOL_H
#define IMGTOOL_H
int img_decode(int w, int h);
int img_encode(int w, int h);
int img_resize(int w, int h);
int img_crop(int w, int h);
int img_rotate(int w, int h);
int img_blur(int w, int h);
int img_sharpen(int w, int h);
int img_histogram(int w, int h);
int img_palette(int w, int h);
int img_dither(int w, int h);
#endif
