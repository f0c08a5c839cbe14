package studio.kiln;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A firing schedule read from the studio's text format: `rate target hold` per line. */
public class Schedule {
    private final String name;
    private final List<Segment> segments = new ArrayList<>();

    public Schedule(String name) {
        this.name = name;
    }

    public static Schedule read(Path path) throws IOException {
        Schedule schedule = new Schedule(path.getFileName().toString());
        int lineNo = 0;
        for (String line : Files.readAllLines(path)) {
            lineNo++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            try {
                schedule.segments.add(parse(line));
            } catch (RuntimeException e) {
                throw new IllegalStateException(path + ":" + lineNo + ": bad segment '" + line + "'", e);
            }
        }
        return schedule;
    }

    static Segment parse(String line) {
        String[] parts = line.trim().split("\\s+");
        return new Segment(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
    }

    public double totalMinutes() {
        int temp = 20;
        double total = 0;
        for (Segment s : segments) {
            total += s.minutesFrom(temp);
            temp = s.targetCelsius();
        }
        return total;
    }

    public String name() {
        return name;
    }

    public List<Segment> segments() {
        return segments;
    }
}
