#include "anemo/wind.hpp"
#include "check.hpp"

int main() {
    // three calm minutes then a short gust: the 3-minute gust is the mean of the last three readings
    auto r = anemo::parse_readings("0 2 180\n1 2 180\n2 2 180\n3 9 200\n4 12 210\n");
    CHECK_NEAR(anemo::max_gust(r, 3), (2 + 9 + 12) / 3.0, 0.001);
    // fewer readings than the window: the mean of what there is
    auto short_run = anemo::parse_readings("0 6 90\n1 8 90\n");
    CHECK_NEAR(anemo::max_gust(short_run, 10), 7.0, 0.001);
    return DONE();
}
