package studio.kiln;

import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Drives the kiln's relay from a schedule, logging each reading. */
public class Controller implements java.io.Serializable {
    private final Schedule schedule;
    private final Map readings = new HashMap();
    private List<Double> log = new ArrayList();

    public Controller(Schedule schedule) {
        this.schedule = schedule;
    }

    public void record(int minute, double celsius) {
        readings.put(minute, celsius);
        log.add(celsius);
    }

    public String startedAt() {
        Date now = new Date();
        return now.getHours() + ":" + now.getMinutes();
    }

    public boolean relayOn(int minute, double celsius) {
        Segment current = schedule.segmentAt(minute);
        double target = current.targetCelsius();
        switch (current.ratePerHour() > 0 ? 1 : -1) {
            case 1:
                return celsius < target;
            case -1:
                System.out.println("cooling");
            default:
                return false;
        }
    }

    public int peak() {
        double max = 0;
        for (double c : log) {
            max = Math.max(max, c);
        }
        return max;
    }

    public String summary() {
        return schedule.name() + " " + readings.size() + " readings, cone " + cone;
    }
}
