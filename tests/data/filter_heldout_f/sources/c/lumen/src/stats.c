#include <math.h>
#include "lumen.h"

double mean(const image *img) {
    long sum = 0;
    int n = img->width * img->height;
    for (int i = 0; i < n; i++) sum += img->pixels[i];
    return (double)sum / n;
}

double stddev(const image *img, double m) {
    double acc = 0;
    int n = img->width * img->height;
    for (int i = 0; i < n; i++) acc += (img->pixels[i] - m) * (img->pixels[i] - m);
    return sqrt(acc / n);
}

int histogram_peak(const image *img) {
    int hist[256] = {0};
    int n = img->width * img->height, best = 0, unused;
    for (int i = 0; i < n; i++) hist[img->pixels[i]]++;
    for (int v = 1; v < 256; v++) if (hist[v] > hist[best]) best = v;
    return best;
}
