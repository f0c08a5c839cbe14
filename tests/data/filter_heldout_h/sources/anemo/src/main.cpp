#include <fstream>
#include <iostream>
#include <sstream>

#include "anemo/wind.hpp"

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: anemo_cli READINGS\n";
        return 2;
    }
    std::ifstream f(argv[1]);
    std::stringstream buf;
    buf << f.rdbuf();
    auto readings = anemo::parse_readings(buf.str());
    std::cout << readings.size() << " readings, mean " << anemo::mean_speed(readings) << " m/s, 10-min gust "
              << anemo::max_gust(readings, 10) << " m/s\n";
    return 0;
}
