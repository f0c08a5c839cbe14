#pragma once
#include <string>
#include <vector>

namespace anemo {

struct Reading {
    int minute;
    double speed_ms;
    int direction_deg;
};

std::vector<Reading> parse_readings(const std::string& text);
double mean_speed(const std::vector<Reading>& readings);
double max_gust(const std::vector<Reading>& readings, int window_minutes);
std::string compass_point(int direction_deg);
std::vector<int> wind_rose(const std::vector<Reading>& readings, int sectors);

}  // namespace anemo
