#include "anemo/wind.hpp"
#include "check.hpp"

int main() {
    auto r = anemo::parse_readings("0 3.5 270\n1 4.5 280\n2 5.0 290\n");
    CHECK_EQ(r.size(), 3u);
    CHECK_NEAR(anemo::mean_speed(r), 4.333, 0.01);
    CHECK_EQ(anemo::compass_point(350), std::string("N"));
    CHECK_EQ(anemo::compass_point(100), std::string("E"));
    return DONE();
}
