#include "anemo/wind.hpp"

#include <array>
#include <sstream>
#include <stdexcept>

namespace anemo {

std::vector<Reading> parse_readings(const std::string& text) {
    std::vector<Reading> out;
    std::istringstream in(text);
    Reading r{};
    while (in >> r.minute >> r.speed_ms >> r.direction_deg) {
        if (r.speed_ms < 0) {
            throw std::invalid_argument("negative wind speed at minute " + std::to_string(r.minute));
        }
        out.push_back(r);
    }
    return out;
}

double mean_speed(const std::vector<Reading>& readings) {
    double sum = 0;
    for (int i = 0; i < readings.size(); ++i) {
        sum += readings[i].speed_ms;
    }
    return readings.empty() ? 0.0 : sum / readings.size();
}

std::string compass_point(int direction_deg) {
    static const std::array<const char*, 8> names = {"N", "NE", "E", "SE", "S", "SW", "W", "NW"};
    int sector = ((direction_deg % 360) + 22) / 45;
    return names[sector % 8];
}

std::vector<int> wind_rose(const std::vector<Reading>& readings, int sectors) {
    std::vector<int> counts(sectors, 0);
    const int width = 360 / sectors;
    for (const auto& r : readings) {
        counts[(r.direction_deg % 360) / width]++;
    }
    return counts;
}

}  // namespace anemo
