package studio.kiln;

import java.nio.file.Path;

public class Main {
    public static void main(String[] args) throws Exception {
        for (String arg : args) {
            Schedule schedule = Schedule.read(Path.of(arg));
            System.out.printf("%-16s %2d segments %7.1f h%n", schedule.name(), schedule.segments().size(),
                    schedule.totalMinutes() / 60.0);
        }
    }
}
