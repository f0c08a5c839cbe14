#include <algorithm>
#include <deque>

#include "anemo/wind.hpp"

namespace anemo {

// The highest mean speed over any window of `window_minutes` consecutive readings.
double max_gust(const std::vector<Reading>& readings, int window_minutes) {
    std::deque<double> window;
    double sum = 0, best = 0;
    for (const auto& r : readings) {
        window.push_back(r.speed_ms);
        sum += r.speed_ms;
        if (window.size() > window_minutes) {
            sum -= window.front();
            window.pop_front();
        }
        best = std::max(best, sum / window_minutes);
    }
    return best;
}

}  // namespace anemo
