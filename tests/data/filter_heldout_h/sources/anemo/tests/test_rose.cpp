#include "anemo/wind.hpp"
#include "check.hpp"

int main() {
    auto r = anemo::parse_readings("0 3 10\n1 3 100\n2 3 190\n3 3 280\n4 3 359\n");
    auto rose = anemo::wind_rose(r, 4);
    CHECK_EQ(rose.size(), 4u);
    CHECK_EQ(rose[0], 1);
    CHECK_EQ(rose[3], 2);
    return DONE();
}
